// Whether a card's photo may be published now: killed struck through in red with the
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

/** "until Thu, 01 Jan 2099 00:01:00 UTC · 9 days left", or "until further notice". */
function embargoText(r) {
  const when = r?.until ? `until ${new Date(r.until).toUTCString().replace(' GMT', ' UTC')}` : 'until further notice';
  return `${when}${r?.msLeft ? ` · ${timeLeft(r.msLeft)}` : ''}`;
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
    return h(
      'div',
      { class: 'state-banner state-embargoed', role: 'note', dataset: { state: 'embargoed' } },
      h('strong', { text: 'EMBARGOED' }),
      h('span', { class: 'state-reason', text: embargoText(r) }),
    );
  }
  if (a.state === 'superseded' && record.supersededBy) return supersededBanner(record);
  return h(
    'div',
    { class: `state-banner state-${a.state}`, role: 'note', dataset: { state: a.state } },
    h('strong', { text: a.state.toUpperCase() }),
    h('span', { class: 'state-reason', text: a.why ?? '' }),
  );
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
    h(
      'span',
      { class: 'state-reason', text: 'corrected by ' },
      h('a', {
        class: 'state-link',
        href: `#/batch/${encodeURIComponent(batchOfItem(newer))}`,
        dataset: { newer },
        on: { click: go },
        text: newer,
      }),
    ),
    record.reason ? h('span', { class: 'state-notice', text: record.reason }) : null,
  );
}

/** States a person must see before using a photo, most serious first: a group's card counts each. */
const GUARDED = ['killed', 'withdrawn', 'embargoed', 'expired', 'superseded'];
const STATE_LABEL = {
  killed: 'KILLED',
  withdrawn: 'WITHDRAWN',
  embargoed: 'EMBARGOED',
  expired: 'EXPIRED',
  superseded: 'SUPERSEDED',
};

/**
 * A group's records that may not be published now, by state (most serious first), each with the
 * records in that state. Empty when every record is publishable: only then is the group shown as
 * publishable (`groupState` 'publishable').
 */
export function groupGuarded(records) {
  const out = [];
  for (const state of GUARDED) {
    const rs = records.filter((r) => !r.error && r.availability?.state === state);
    if (rs.length) out.push({ state, records: rs });
  }
  return out;
}

/** The group's state for `data-availability`: the most serious of its members', 'publishable' only when every member is. */
export function groupState(records) {
  return groupGuarded(records)[0]?.state ?? 'publishable';
}

/**
 * One banner per guarded state of a group's card ("1 of 3 KILLED", "1 EMBARGOED"), naming the
 * members (and, for one, its reason), so a kill or embargo of any member is seen on the collapsed
 * card and not only on the member's own card once expanded. `number(record)` is how a member is named.
 */
export function groupBanners(records, number) {
  const total = records.length;
  return groupGuarded(records).map(({ state, records: rs }) => {
    const serious = state === 'killed' || state === 'withdrawn';
    const count = serious ? `${rs.length} of ${total} ${STATE_LABEL[state]}` : `${rs.length} ${STATE_LABEL[state]}`;
    const names = rs.slice(0, 3).map(number).join(', ') + (rs.length > 3 ? ` +${rs.length - 3}` : '');
    const one = rs.length === 1 ? rs[0] : null;
    const why = !one
      ? ''
      : serious
        ? (one.reason ?? 'no reason given')
        : state === 'embargoed'
          ? embargoText(one.availability?.release)
          : (one.availability?.why ?? '');
    return h(
      'div',
      {
        class: `state-banner group-banner state-${state}`,
        role: 'note',
        dataset: { state, count: String(rs.length), of: String(total), itemIds: rs.map((r) => r.id).join(' ') },
      },
      h('strong', { text: count }),
      h('span', { class: 'state-members', text: names }),
      why ? h('span', { class: 'state-reason', text: why }) : null,
    );
  });
}
