// Whether a card's photo may be published now (issue 16): killed struck through in red with the
// reason and the notice, embargoed locked with the time left. From record.availability, which the
// API computes at read time, so an embargo ends on the page without anything being re-ingested.

import { h } from './dom.js';
import { batchOfItem } from '../lib/corrections.js';

function timeLeft(ms) {
  const m = Math.max(1, Math.ceil(ms / 60_000));
  if (m < 60) return `${m} min left`;
  const hours = Math.floor(m / 60);
  return hours < 48 ? `${hours} h ${m % 60} min left` : `${Math.floor(hours / 24)} days left`;
}

/** The card's state class: is-killed, is-withdrawn, is-embargoed, is-expired, is-superseded, or ''. */
export function availabilityClass(record) {
  const s = record.availability?.state;
  return s && s !== 'publishable' ? ` is-${s}` : '';
}

/** The banner a person reads before anything else on the card, or null when the photo may be used. */
export function availabilityBanner(record) {
  const a = record.availability;
  if (!a || a.state === 'publishable') return null;
  if (a.state === 'killed' || a.state === 'withdrawn') {
    const notice = record.notice;
    const from = notice ? (notice.kind === 'manual' ? 'manual kill' : `notice ${notice.itemId}`) : null;
    return h(
      'div',
      { class: `state-banner state-${a.state}`, role: 'note', dataset: { state: a.state } },
      h('strong', { text: a.state === 'killed' ? 'KILLED' : 'WITHDRAWN' }),
      h('span', { class: 'state-reason', text: record.reason ?? 'no reason given' }),
      from ? h('span', { class: 'state-notice', title: notice.text, text: from }) : null,
    );
  }
  if (a.state === 'embargoed') {
    const r = a.release;
    const when = r?.until ? `until ${new Date(r.until).toUTCString().replace(' GMT', ' UTC')}` : 'until further notice';
    return h(
      'div',
      { class: 'state-banner state-embargoed', role: 'note', dataset: { state: 'embargoed' } },
      h('strong', { text: 'EMBARGOED' }),
      h('span', { class: 'state-reason', text: `${when}${r?.msLeft ? ` · ${timeLeft(r.msLeft)}` : ''}` }),
    );
  }
  if (a.state === 'superseded' && record.supersededBy) return supersededBanner(record);
  return h('div', { class: `state-banner state-${a.state}`, role: 'note', dataset: { state: a.state } }, h('strong', { text: a.state.toUpperCase() }), h('span', { class: 'state-reason', text: a.why ?? '' }));
}

/**
 * A corrected photo: SUPERSEDED with a link to the version to use. On the same page the link
 * moves the focus to that card (shown first, web/lib/corrections.js); else it opens its batch.
 */
function supersededBanner(record) {
  const newer = record.supersededBy;
  const go = (ev) => {
    const card = document.querySelector(`[data-item-id="${CSS.escape(newer)}"]`);
    if (!card) return;
    ev.preventDefault();
    card.scrollIntoView({ block: 'center' });
    card.setAttribute('tabindex', '-1');
    card.focus();
  };
  return h(
    'div',
    { class: 'state-banner state-superseded', role: 'note', dataset: { state: 'superseded' } },
    h('strong', { text: 'SUPERSEDED' }),
    h('span', { class: 'state-reason', text: 'corrected by ' }, h('a', { class: 'state-link', href: `#/batch/${encodeURIComponent(batchOfItem(newer))}`, dataset: { newer }, on: { click: go }, text: newer })),
    record.reason ? h('span', { class: 'state-notice', text: record.reason }) : null,
  );
}
