// The details of one item: preview, full caption, the credit as normalized and as received.

import { creditLine, errorLabel, feedName, itemNumber, rawCreditParts, renditionUrl } from '../lib/format.js';
import { h, setChildren } from './dom.js';
import { whyLine } from './cards.js';

function facts(rows) {
  const kept = rows.filter(
    ([, v]) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0),
  );
  if (kept.length === 0) return null;
  return h(
    'dl',
    { class: 'facts' },
    kept.map(([k, v]) => [h('dt', { text: k }), h('dd', { text: Array.isArray(v) ? v.join(', ') : String(v) })]),
  );
}

/** Fill the details dialog for a record. `ui.loadImage(img, url)` shows an authenticated image; `ui.cluster(id)` fetches a cluster. */
export function renderDetails(title, body, record, ui) {
  title.textContent = `${itemNumber(record)} · ${feedName(record.source.file)}`;
  const c = record.credit;
  const flags = [
    c.flags.pool && 'pool',
    c.flags.handout && 'handout',
    c.flags.file && 'file photo',
    c.flags.mandatory && 'mandatory credit',
    ...c.flags.restrictions,
  ].filter(Boolean);
  const previewUrl = renditionUrl(record, 'preview');
  let preview = null;
  if (previewUrl) {
    preview = h('img', {
      class: 'details-preview',
      alt: `Preview of ${itemNumber(record)}: ${record.caption.slice(0, 160)}`,
    });
    ui.loadImage(preview, previewUrl, { eager: true, details: true });
  }
  const clusterLine = h('p', { class: 'muted' });
  if (record.cluster) {
    clusterLine.textContent = `Cluster ${record.cluster.id}: ${record.cluster.exact ? 'identical to' : `${Math.round(record.cluster.similarity * 100)}% similar to`} its canonical caption.`;
    ui.cluster(record.cluster.id)
      .then((cl) => {
        const batches = new Set(cl.members.map((m) => m.record?.batchId).filter(Boolean));
        clusterLine.textContent += ` It has ${cl.size} member${cl.size === 1 ? '' : 's'} in ${batches.size} batch${batches.size === 1 ? '' : 'es'}.`;
      })
      .catch(() => {});
  }
  // The story above the cluster: its size, and a link to story -> clusters -> versions.
  const storyLine = record.story
    ? h(
        'p',
        { class: 'muted story-line' },
        `In a story of ${record.story.size} caption${record.story.size === 1 ? '' : 's'}. `,
        h('a', {
          href: `#/story/${encodeURIComponent(record.story.id)}`,
          text: 'Show the story',
          on: { click: () => ui.closeDetails?.() },
        }),
      )
    : null;
  const loc = record.location;
  setChildren(
    body,
    h(
      'div',
      {},
      preview,
      record.error
        ? h(
            'div',
            { class: 'notice' },
            h('div', { class: 'fail-head' }, `Failed · ${errorLabel(record.error.code)}`),
            h('p', { class: 'fail-msg', text: record.error.message }),
          )
        : null,
      h('h3', { class: 'details-section', text: 'Caption' }),
      h('p', { class: 'details-caption', text: record.caption || '(no caption)' }),
      facts([
        ['Title', record.title],
        ['Headline', record.headline],
      ]),
      h(
        'details',
        {},
        h('summary', { text: 'Caption as received' }),
        h('p', { class: 'raw-caption', text: record.captionRaw || '(empty)' }),
      ),
    ),
    h(
      'div',
      {},
      h('h3', { class: 'details-section', text: 'Credit' }),
      h('p', { class: 'credit', text: creditLine(record) }),
      facts([
        ['Creators', c.creators],
        ['Agency', c.agency],
        ['Distributor', c.distributor],
        ['Partners', c.partners],
        ['Flags', flags],
        [
          'Confidence',
          c.confidence === 'low'
            ? 'low: check the raw credit'
            : c.confidence === 'medium'
              ? 'medium: an organisation the rules do not list'
              : 'high',
        ],
        ['Rule', c.rule],
      ]),
      h('h3', { class: 'details-section', text: 'Raw credit' }),
      facts(rawCreditParts(record).map((p) => [p.label, p.value])) ??
        h('p', { class: 'muted', text: 'No credit was sent.' }),
      h('h3', { class: 'details-section', text: 'Item' }),
      facts([
        ['Date', record.dateCreated],
        ['Place', loc ? [loc.city, loc.state, loc.country].filter(Boolean).join(', ') : null],
        ['Keywords', record.keywords],
        ['Agency id', record.agencyId],
        [
          'Photo',
          record.image
            ? `${record.image.width} × ${record.image.height} ${record.image.format}, ${(record.image.bytes / 1048576).toFixed(1)} MB`
            : null,
        ],
        ['Source', `${record.source.file}${record.source.line ? `:${record.source.line}` : ''}`],
        ['Id', record.id],
      ]),
      record.cluster ? clusterLine : null,
      whyLine(record, null),
      storyLine,
    ),
  );
}
