// Cards of the batch grid: a photo, a caption-only item, a failed item, a caption cluster.

import {
  creditLine,
  earlierClusterBatch,
  errorLabel,
  feedName,
  itemNumber,
  plural,
  rawCreditText,
  renditionUrl,
  resendLabel,
  restrictionLabels,
  thumbSize,
} from '../lib/format.js';
import { h } from './dom.js';
import { availabilityBanner, availabilityClass, groupBanners, groupGuarded, groupState } from './availability.js';

/**
 * `ui` gives the cards what they act with:
 *   loadImage(img, url)   show an authenticated rendition in an <img>
 *   open(record)          the details dialog
 *   retry(record)         retry a failed item
 *   toggle(group)         expand or collapse a cluster
 *   retrying: Set<itemId> items whose retry is queued
 *   retryable(record)     false when the feed itself is bad at the item: retry cannot help
 *   readOnly()            true for an archived batch: no retry at all
 *   outcomes: Map<itemId, 'ok' | 'failed-again'>  how a retry from this page ended
 *   expanded: Set<groupKey>
 */

function media(record, ui, { alt }) {
  const url = renditionUrl(record, 'thumb');
  if (!url) return null;
  // A killed or withdrawn photo's renditions answer 410 outside the Details view (the server keeps
  // them from anything that could publish them): the card says so and opens the Details.
  const state = record.availability?.state;
  if (state === 'killed' || state === 'withdrawn') {
    return h(
      'button',
      {
        class: 'card-media is-withheld',
        type: 'button',
        'aria-label': `Open ${itemNumber(record)} (${state}) in full`,
        on: { click: () => ui.open(record) },
      },
      h('span', {
        class: 'withheld-tag',
        text: `${state === 'killed' ? 'Killed' : 'Withdrawn'}: preview in Details only`,
      }),
    );
  }
  // A photo smaller than the card is shown at its own size on a plain ground, not stretched into a blur.
  const size = thumbSize(record);
  const img = h('img', {
    class: `thumb${size?.small ? ' thumb-small' : ''}`,
    alt,
    width: size?.width ?? 400,
    height: size?.height ?? 267,
    decoding: 'async',
  });
  ui.loadImage(img, url);
  return h(
    'button',
    {
      class: `card-media${size?.small ? ' is-small' : ''}`,
      type: 'button',
      'aria-label': `Open ${itemNumber(record)} in full`,
      on: { click: () => ui.open(record) },
    },
    img,
    size?.small ? h('span', { class: 'size-tag', text: `${size.width}×${size.height} px` }) : null,
  );
}

/** What a person must see before publishing or trusting the item: restrictions, resends, clusters of earlier nights. */
function noticeBadges(record, ui) {
  const out = restrictionLabels(record).map((label) =>
    h('span', {
      class: 'badge badge-restrict',
      title: 'A restriction or advisory sent with the photo: check it before publishing',
      text: label,
    }),
  );
  const resend = resendLabel(record);
  if (resend)
    out.push(
      h('span', {
        class: 'badge badge-resend',
        title: `Image and caption near-identical to ${record.cluster?.canonicalId ?? record.photo?.previousItemId}`,
        text: resend,
      }),
    );
  const earlier = earlierClusterBatch(record);
  if (earlier)
    out.push(
      h('span', {
        class: 'badge badge-earlier',
        title: `The same caption arrived before, in batch ${earlier} (${record.cluster.canonicalId})`,
        text: `caption seen before (batch ${earlier})`,
      }),
    );
  if (ui.outcomes?.get(record.id) === 'ok')
    out.push(h('span', { class: 'badge badge-ok', role: 'status', text: 'Retried: ok' }));
  return out.length ? h('div', { class: 'notices' }, out) : null;
}

function creditBlock(record) {
  const low = !record.error && record.credit.confidence === 'low';
  return [
    h(
      'p',
      { class: 'credit', title: rawCreditText(record) },
      h('span', { class: 'visually-hidden', text: 'Credit: ' }),
      h('span', { class: 'credit-line', text: creditLine(record) }),
    ),
    low
      ? h('span', {
          class: 'badge badge-warn',
          title: 'photowire could not read this credit with confidence: check it against the raw credit',
          text: 'Low-confidence credit',
        })
      : null,
  ];
}

/** Longest headline a card shows: the feed's text is cut here, the rest is in the Details. */
const HEADLINE_MAX = 160;

/** The item's headline (IPTC headline, or a feed's title when it differs from the caption), above the caption; null when there is none. */
function headlineLine(record) {
  const text = [record.headline, record.title]
    .map((t) => String(t ?? '').trim())
    .find((t) => t !== '' && t !== record.caption?.trim());
  if (!text) return null;
  return h('p', {
    class: 'headline',
    title: text.length > HEADLINE_MAX ? text : null,
    text: text.length > HEADLINE_MAX ? `${text.slice(0, HEADLINE_MAX - 1)}…` : text,
  });
}

function detailsButton(record, ui) {
  return h(
    'button',
    { class: 'link-btn', type: 'button', on: { click: () => ui.open(record) } },
    'Details',
    h('span', { class: 'visually-hidden', text: ` of ${itemNumber(record)}` }),
  );
}

/** Instead of Retry: what to do first (the server's note says why a retry cannot work now). */
function retryBlockedNote(record, ui) {
  const note = ui.retryNote?.(record);
  const missing = note?.startsWith('no photo at ');
  return h('span', {
    class: 'fix-feed',
    title: note ?? 'Retrying reads the same feed and would fail the same way',
    text: missing ? 'Put the photo back, then retry' : 'Fix the feed and drop it again',
  });
}

function failedCard(record, ui) {
  const retrying = ui.retrying.has(record.id);
  const canRetry = ui.retryable ? ui.retryable(record) : true;
  const againAfterRetry = ui.outcomes?.get(record.id) === 'failed-again';
  // A feed-level failure (bad line, invalid or duplicate item, path outside the folder) fails the same way on retry.
  const retry = ui.readOnly?.()
    ? h('span', {
        class: 'read-only',
        title: 'Retention archived this batch: it is read from storage and cannot be retried',
        text: 'Archived: read-only',
      })
    : canRetry
      ? h(
          'button',
          {
            class: 'btn btn-small btn-danger',
            type: 'button',
            disabled: retrying,
            on: { click: () => ui.retry(record) },
          },
          retrying ? 'Retry queued' : againAfterRetry ? 'Retry again' : 'Retry',
          h('span', { class: 'visually-hidden', text: ` ${itemNumber(record)}` }),
        )
      : retryBlockedNote(record, ui);
  return h(
    'article',
    {
      class: 'card is-failed',
      dataset: {
        itemId: record.id,
        state: retrying ? 'retrying' : againAfterRetry ? 'failed-again' : 'failed',
        retryable: String(canRetry),
      },
      'aria-label': `${itemNumber(record)}, failed`,
    },
    h(
      'div',
      { class: 'card-body' },
      h(
        'div',
        { class: 'fail-head' },
        h('span', { class: 'fail-icon', 'aria-hidden': 'true', text: '!' }),
        `${againAfterRetry ? 'Failed again after retry' : 'Failed'} · ${errorLabel(record.error.code)}`,
      ),
      h('p', { class: 'fail-msg', text: record.error.message }),
      record.caption ? h('p', { class: 'caption', text: record.caption }) : null,
      h(
        'div',
        { class: 'card-foot' },
        h('span', { class: 'num', text: itemNumber(record) }),
        h('span', { title: record.source.file, text: feedName(record.source.file) }),
        h('span', { class: 'spacer' }),
        retrying ? h('span', { class: 'retry-state', role: 'status', text: 'Queued again…' }) : null,
        retry,
      ),
    ),
  );
}

/** One item: a photo card, or a caption card when it has no photo. */
export function itemCard(record, ui) {
  if (record.error) return failedCard(record, ui);
  const low = record.credit.confidence === 'low';
  const photo = media(record, ui, { alt: `Photo ${itemNumber(record)}: ${record.caption.slice(0, 120)}` });
  return h(
    'article',
    {
      class: `card${photo ? '' : ' caption-card'}${low ? ' is-low' : ''}${availabilityClass(record)}`,
      dataset: { itemId: record.id, availability: record.availability?.state ?? 'publishable' },
      'aria-label': itemNumber(record),
    },
    photo,
    h(
      'div',
      { class: 'card-body' },
      availabilityBanner(record),
      photo ? null : h('span', { class: 'kind-tag', text: 'Caption only' }),
      headlineLine(record),
      h('p', { class: 'caption', text: record.caption || record.title || '(no caption)' }),
      creditBlock(record),
      noticeBadges(record, ui),
      h(
        'div',
        { class: 'card-foot' },
        h('span', { class: 'num', text: itemNumber(record) }),
        h('span', { class: 'spacer' }),
        detailsButton(record, ui),
      ),
    ),
  );
}

function similarityBadge(record, lead) {
  if (record === lead) return h('span', { class: 'badge badge-ok', text: 'canonical' });
  if (record.cluster?.exact) return h('span', { class: 'badge', text: 'identical' });
  return h('span', { class: 'badge', text: `${Math.round((record.cluster?.similarity ?? 0) * 100)}% similar` });
}

/** Unchanged words kept around each change; longer unchanged stretches are shortened to "…". */
const DIFF_CONTEXT = 3;

/**
 * A member's caption as its differences from the canonical caption: `cluster.diff`'s
 * runs over the canonical's words, deleted words in <del>, inserted in <ins>, a few unchanged words
 * around each. Null when the record has no diff (canonical, identical, or a record from before).
 */
export function captionDiff(record, lead) {
  const diff = record.cluster?.diff;
  if (!diff || record === lead || diff.edits.length === 0) return null;
  // The runs are against the canonical caption; when the canonical item is not on this page (an
  // earlier night's), only the runs are shown, without the words around them.
  const onPage = lead.id === record.cluster.canonicalId;
  const words = onPage ? lead.caption.split(/\s+/).filter((w) => w !== '') : [];
  const parts = [];
  let pos = 0;
  const keep = (from, to, first, last) => {
    if (to <= from) return;
    const n = to - from;
    const head = first ? 0 : DIFF_CONTEXT;
    const tail = last ? 0 : DIFF_CONTEXT;
    if (n > head + tail + 1) {
      if (head) parts.push(`${words.slice(from, from + head).join(' ')} `);
      parts.push(h('span', { class: 'diff-gap', title: `${n - head - tail} unchanged words`, text: '… ' }));
      if (tail) parts.push(`${words.slice(to - tail, to).join(' ')} `);
    } else parts.push(`${words.slice(from, to).join(' ')} `);
  };
  diff.edits.forEach((e, i) => {
    if (onPage) keep(pos, e.at, i === 0, false);
    else if (i > 0) parts.push(h('span', { class: 'diff-gap', text: '… ' }));
    const gone = e.deleted ? e.deleted.split(/\s+/).filter((w) => w !== '').length : 0;
    if (e.deleted) parts.push(h('del', { text: e.deleted }), ' ');
    if (e.inserted) parts.push(h('ins', { text: e.inserted }), ' ');
    pos = Math.max(pos, e.at + gone);
  });
  if (onPage) keep(pos, words.length, false, true);
  if (diff.more) parts.push(h('span', { class: 'diff-more', text: `+${plural(diff.more, 'more change')}` }));
  return h(
    'p',
    {
      class: 'caption caption-diff',
      'aria-label': `Differences from the canonical caption: ${diff.edits.map((e) => `${e.deleted ? `"${e.deleted}"` : 'nothing'} became ${e.inserted ? `"${e.inserted}"` : 'nothing'}`).join('; ')}`,
    },
    parts,
  );
}

const MATCHED = { slug: 'slug', dateline: 'dateline', subject: 'subject' };
const BACKGROUND = {
  same: 'same background',
  appended: 'background added to',
  dropped: 'background cut',
  changed: 'background reworded',
  none: 'no background',
};
const EDIT = { 'function-word': 'word', spelling: 'spelling', number: 'number' };

/**
 * Why a member is in its cluster (`cluster.why`), one short line: the parts that matched, the
 * background against the canonical's, each edit the rule allowed ("spelling Ecudorian → Ecuadorian").
 * Null for the canonical, an identical caption, or a record clustered before `why` existed.
 */
export function whyLine(record, lead) {
  const why = record.cluster?.why;
  if (!why || record === lead) return null;
  const matched = `same ${why.matched.map((m) => MATCHED[m] ?? m).join(' + ')}`;
  const edits = why.edits.map(
    (e) => `${EDIT[e.kind] ?? e.kind} ${e.from ? `“${e.from}”` : '∅'} → ${e.to ? `“${e.to}”` : '∅'}`,
  );
  return h('p', {
    class: 'cluster-why muted',
    dataset: { matched: why.matched.join(' ') },
    text: [matched, BACKGROUND[why.background] ?? why.background, ...edits].join(' · '),
  });
}

function memberCard(record, lead, ui) {
  const low = record.credit.confidence === 'low';
  const photo = media(record, ui, { alt: `Photo ${itemNumber(record)}` });
  const sameCaption = record === lead || record.caption === lead.caption;
  return h(
    'article',
    {
      class: `member${low ? ' is-low' : ''}${availabilityClass(record)}`,
      dataset: { itemId: record.id, availability: record.availability?.state ?? 'publishable' },
      'aria-label': itemNumber(record),
    },
    photo,
    h(
      'div',
      { class: 'card-body' },
      // Each member its own banner: a killed member of a group is as plain as a killed single card.
      availabilityBanner(record),
      // The lead's headline is in the head above; a member's own is shown.
      record === lead || (record.headline ?? '') === (lead.headline ?? '') ? null : headlineLine(record),
      // An identical caption was shown once above; a differing one shows what differs (cluster.diff).
      sameCaption ? null : (captionDiff(record, lead) ?? h('p', { class: 'caption', text: record.caption })),
      whyLine(record, lead),
      creditBlock(record),
      noticeBadges(record, ui),
      h(
        'div',
        { class: 'card-foot' },
        h('span', { class: 'num', text: itemNumber(record) }),
        similarityBadge(record, lead),
        h('span', { class: 'spacer' }),
        detailsButton(record, ui),
      ),
    ),
  );
}

/** A caption cluster: its caption once, with a count; expanded, every member. */
export function clusterCard(group, ui) {
  const { lead, count } = group;
  const expanded = ui.expanded.has(group.key);
  const membersId = `members-${group.clusterId}`;
  const kind = group.allExact ? 'identical captions' : 'near-identical captions';
  const toggle = h(
    'button',
    {
      class: 'btn btn-small',
      type: 'button',
      'aria-expanded': String(expanded),
      'aria-controls': membersId,
      on: { click: () => ui.toggle(group) },
    },
    expanded ? 'Collapse' : `Show all ${count}`,
  );
  const numbers = group.records.map(itemNumber).join(', ');
  // Publishable only when every member is: one killed or embargoed member marks the whole card,
  // collapsed or expanded, with a count per state ("1 of 3 KILLED").
  const guarded = groupGuarded(group.records);
  const banners = () => groupBanners(group.records, itemNumber);
  const attrs = {
    class: `card cluster${expanded ? ' expanded' : ''}${guarded.map((g) => ` has-${g.state}`).join('')}`,
    dataset: {
      clusterId: group.clusterId,
      itemIds: group.records.map((r) => r.id).join(' '),
      count: String(count),
      availability: groupState(group.records),
    },
    'aria-label': `Cluster of ${count} items with ${kind}: ${numbers}${guarded.map((g) => `; ${g.records.length} ${g.state}`).join('')}`,
  };
  const credits = new Set(group.records.map(creditLine));
  const extra = [
    group.lowConfidence
      ? h('span', { class: 'badge badge-warn', text: `${group.lowConfidence} low-confidence` })
      : null,
    credits.size > 1 ? h('span', { class: 'badge', text: plural(credits.size, 'credit') }) : null,
  ];
  // Restrictions of members other than the lead must not hide behind the collapsed card.
  const restricted = group.records.filter((r) => r !== lead && restrictionLabels(r).length > 0).length;
  if (restricted)
    extra.push(h('span', { class: 'badge badge-restrict', text: `${restricted} more with restrictions` }));
  if (!expanded) {
    const photo = media(lead, ui, {
      alt: `Photo ${itemNumber(lead)}, first of ${count}: ${lead.caption.slice(0, 120)}`,
    });
    return h(
      'article',
      {
        ...attrs,
        class: `${attrs.class}${photo ? '' : ' caption-card'}${availabilityClass(lead).replace(' is-', ' lead-is-')}`,
      },
      h('span', { class: 'count-badge', 'aria-hidden': 'true', text: `×${count}` }),
      photo,
      h(
        'div',
        { class: 'card-body' },
        banners(),
        h('p', { class: 'cluster-tag', text: `${count} items · ${kind}` }),
        headlineLine(lead),
        h('p', { class: 'caption', text: lead.caption }),
        creditBlock(lead),
        noticeBadges(lead, ui),
        h(
          'div',
          { class: 'card-foot' },
          h('span', { class: 'num', text: numbers }),
          extra,
          h('span', { class: 'spacer' }),
          toggle,
        ),
      ),
    );
  }
  return h(
    'article',
    attrs,
    h(
      'div',
      { class: 'cluster-head' },
      h(
        'div',
        { class: 'cluster-head-text' },
        banners(),
        h('p', { class: 'cluster-tag', text: `${count} items · ${kind} · ${numbers}` }),
        headlineLine(lead),
        h('p', { class: 'caption', text: lead.caption }),
        h('div', { class: 'card-foot' }, extra),
      ),
      toggle,
    ),
    h(
      'div',
      { class: 'members', id: membersId, role: 'list', 'aria-label': `The ${count} items of this cluster` },
      group.records.map((r) => memberWrap(memberCard(r, lead, ui))),
    ),
  );
}

function memberWrap(el) {
  el.setAttribute('role', 'listitem');
  return el;
}
