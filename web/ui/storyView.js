// The story view: one story -> its caption clusters -> each cluster's versions.
// A story is the captions of one assignment (a shared slug, or the same day's shared words); a
// cluster is one picture's caption however it was resent; its members are the versions.

import { creditLine, feedName, itemNumber, plural } from '../lib/format.js';
import { h } from './dom.js';
import { captionDiff, whyLine } from './cards.js';

/** Why a member is in the story, in a desk editor's words. */
export function viaLabel(via) {
  if (!via) return 'started the story';
  if (via.kind === 'slug') return 'same slug';
  const words = via.shared.join(', ') + (via.more ? `, +${via.more} more` : '');
  return `${Math.round(via.similarity * 100)}% of its words shared: ${words}`;
}

/** One version of a cluster: its item, credit and why it is in the story; a member of the cluster also its word diff and why it joined. */
function version(member, lead, ui) {
  const r = member.record;
  // The canonical record may be outside this story (or gone): the diff then shows its runs only.
  const canonical = lead ?? { id: null, caption: '' };
  return h(
    'li',
    { class: 'story-version', dataset: { itemId: member.itemId } },
    h(
      'div',
      { class: 'story-version-head' },
      h('strong', { text: r ? `${itemNumber(r)} · ${feedName(r.source.file)}` : member.itemId }),
      r
        ? h('span', { class: 'muted', text: creditLine(r) })
        : h('span', { class: 'muted', text: 'record no longer in the catalog' }),
      r
        ? h('button', { class: 'btn btn-quiet', type: 'button', text: 'Details', on: { click: () => ui.open(r) } })
        : null,
    ),
    r ? captionDiff(r, canonical) : null,
    r ? whyLine(r, canonical) : null,
    h('p', { class: 'story-via', text: viaLabel(member.via) }),
  );
}

/** Render `story` (GET /api/stories/:id) into `main`. */
export function renderStory(main, story, ui) {
  const clusters = story.clusters ?? [];
  const shownNote = story.membersShown < story.size ? ` (the first ${story.membersShown} shown)` : '';
  main.replaceChildren(
    h(
      'section',
      { class: 'story-view', 'aria-labelledby': 'story-title', dataset: { storyId: story.id } },
      h('h1', { id: 'story-title', text: `Story · ${plural(story.size, 'caption')}` }),
      h('p', {
        class: 'muted',
        text: `${plural(clusters.length, 'cluster')}${shownNote}: one per picture, each with the versions that were sent. Story ${story.id}.`,
      }),
      h(
        'ol',
        { class: 'story-clusters', 'aria-label': `The ${plural(clusters.length, 'cluster')} of this story` },
        clusters.map((c, i) => {
          const lead = c.members.find((m) => m.itemId === c.canonicalId)?.record ?? c.members[0]?.record ?? null;
          const caption = c.canonicalCaption ?? lead?.caption ?? '';
          return h(
            'li',
            { class: 'story-cluster', dataset: { clusterId: c.id ?? '' } },
            h(
              'div',
              { class: 'story-cluster-head' },
              h('h2', {
                text: `Cluster ${i + 1} · ${plural(c.members.length, 'version')}${c.size > c.members.length ? ` here, ${c.size} in all` : ''}`,
              }),
              h('p', { class: 'caption', text: caption || '(no caption)' }),
            ),
            h(
              'ol',
              { class: 'story-versions', 'aria-label': `Versions of cluster ${i + 1}` },
              c.members.map((m) => version(m, c.members.find((x) => x.itemId === c.canonicalId)?.record ?? null, ui)),
            ),
          );
        }),
      ),
    ),
  );
}
