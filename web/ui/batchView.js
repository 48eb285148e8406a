// The batch view: head, counts, search and the grid of cards grouped by caption cluster.
// A large batch comes a page at a time: the grid ends with a sentinel that asks for the
// next page when it scrolls into view; a search (or the failed / low-confidence filters) is
// answered by the server, a page at a time too. Counts come from the batch's counters.

import { clockTime, dayLabel, feedName, formatCount, plural } from '../lib/format.js';
import { groupByCluster } from '../lib/group.js';
import { formatName, progressBar, tookText } from './batchList.js';
import { clusterCard, itemCard } from './cards.js';
import { newerFirst } from '../lib/corrections.js';
import { h, setChildren } from './dom.js';

export class BatchView {
  /** `ui`: see cards.js, plus retryAll(batch). */
  constructor(main, ui) {
    this.main = main;
    this.ui = ui;
    this.batchId = null;
    this.q = '';
    this.show = 'all';
    this.detail = null;
    this.records = [];
    this.more = false;
    this.widths = null;
    /** A server search's answer: { key, records, total, exact, next } (next: the page after, or null). */
    this.found = null;
    this.searchSeq = 0;
    this.searchTimer = null;
    this.sentinel = h('div', { class: 'grid-more', 'aria-hidden': 'true' });
    this.moreObserver =
      typeof IntersectionObserver === 'undefined'
        ? null
        : new IntersectionObserver(
            (entries) => {
              if (entries.some((e) => e.isIntersecting)) this.loadMore();
            },
            { rootMargin: '800px 0px' },
          );
  }

  searching() {
    return this.q.trim() !== '' || this.show !== 'all';
  }

  /** The grid's end is in view: the next page of the batch, or of the search's answer. */
  loadMore() {
    if (this.searching()) {
      if (this.found?.next && !this.found.loading) void this.search(this.found.next);
    } else if (this.more) {
      void this.ui.loadMore();
    }
  }

  /** Ask the server (the page's search is the server's); `next` goes on with the previous answer. */
  async search(next = null) {
    const key = `${this.batchId}|${this.show}|${this.q}`;
    const seq = ++this.searchSeq;
    if (next && this.found) this.found.loading = true;
    try {
      const res = await this.ui.search(this.batchId, { q: this.q.trim(), show: this.show, ...(next ?? {}) });
      if (seq !== this.searchSeq || key !== `${this.batchId}|${this.show}|${this.q}`) return;
      const records = next && this.found?.key === key ? [...this.found.records, ...res.records] : res.records;
      const nextPage =
        res.nextCursor != null
          ? { cursor: res.nextCursor }
          : res.nextOffset != null
            ? { offset: res.nextOffset }
            : null;
      this.found = { key, records, total: res.total, exact: res.exact !== false, next: nextPage, loading: false };
    } catch (err) {
      if (seq !== this.searchSeq) return;
      this.found = { key, records: [], total: 0, exact: true, next: null, loading: false, error: err.message };
    }
    this.renderGrid();
  }

  scheduleSearch(ms = 150) {
    clearTimeout(this.searchTimer);
    this.found = null;
    if (!this.searching()) {
      this.renderGrid();
      return;
    }
    // Answer the click at once (the pressed filter, "Searching…"); the server's answer follows.
    this.renderGrid();
    this.searchTimer = setTimeout(() => void this.search(), ms);
  }

  /** Show a batch (a new one resets search and expansion; the same one keeps them). */
  render(detail, records, { more = false } = {}) {
    // Another view (the kills, an error message) may have replaced the page's main part since:
    // the same batch then builds its view again, keeping its search.
    const attached = this.grid?.isConnected === true;
    if (detail.id !== this.batchId || !attached) {
      const same = detail.id === this.batchId;
      this.batchId = detail.id;
      if (!same) {
        this.q = '';
        this.show = 'all';
        this.ui.expanded.clear();
        this.widths = null;
      }
      this.build();
      if (same) this.searchInput.value = this.q;
    }
    this.detail = detail;
    this.records = records;
    this.more = more;
    this.renderHead();
    // A search shown stays as it is; a reload of its batch asks the server again.
    if (this.searching() && this.found === null) this.scheduleSearch(0);
    else if (this.searching() && !this.found?.loading && this.found?.key.startsWith(`${detail.id}|`))
      void this.search();
    this.renderGrid();
  }

  build() {
    this.head = h('section', { class: 'batch-section', 'aria-labelledby': 'batch-title' });
    // The tiles' columns follow the head's width (a window resized, the sidebar folded at 900 px).
    this.headObserver?.disconnect();
    this.headObserver = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => this.balanceTiles());
    this.headObserver?.observe(this.head);
    this.searchInput = h('input', {
      id: 'batch-search',
      type: 'search',
      placeholder: 'Search captions, creators, agencies (e.g. agency:AFP)',
      autocomplete: 'off',
      spellcheck: 'false',
      on: {
        input: () => {
          this.q = this.searchInput.value;
          this.scheduleSearch();
        },
      },
    });
    this.filterButtons = ['all', 'failed', 'low'].map((v) =>
      h('button', {
        type: 'button',
        'aria-pressed': String(this.show === v),
        dataset: { show: v },
        on: {
          click: () => {
            this.show = v;
            this.scheduleSearch(0);
          },
        },
      }),
    );
    this.resultCount = h('span', { class: 'result-count', role: 'status', 'aria-live': 'polite' });
    const toolbar = h(
      'div',
      { class: 'toolbar', role: 'search', 'aria-label': 'Search this batch' },
      h(
        'label',
        { class: 'search' },
        h('span', { class: 'visually-hidden', text: 'Search this batch by caption text, creator or agency' }),
        this.searchInput,
      ),
      h('div', { class: 'segmented', role: 'group', 'aria-label': 'Show' }, this.filterButtons),
      this.resultCount,
    );
    this.grid = h('div', {
      class: 'grid',
      id: 'grid',
      'aria-label': 'Items of this batch, grouped by caption cluster',
    });
    setChildren(this.main, this.head, toolbar, this.grid);
  }

  renderHead() {
    const d = this.detail;
    const name = feedName(d.feed);
    const took = tookText(d, true);
    const counts = d.counts ?? {};
    const tile = (value, label, cls = '') =>
      h(
        'li',
        { class: `tile ${cls}` },
        h('div', { class: 'tile-value', text: formatCount(value) }),
        h('div', { class: 'tile-label', text: label }),
      );
    // Only what a retry can change: feed-level failures need the feed fixed and dropped again.
    const failedNow = (d.failures ?? []).filter((f) => !this.ui.retrying.has(f.itemId) && f.retryable !== false).length;
    const { el: bar, widths } = progressBar(d, `Progress of ${name}`, this.widths);
    this.widths = widths;
    setChildren(
      this.head,
      h(
        'div',
        { class: 'batch-head' },
        h(
          'div',
          {},
          h('h1', { id: 'batch-title', title: d.feed, text: name }),
          h(
            'p',
            { class: 'batch-meta' },
            `${formatName(d.format)} · received ${dayLabel(d.createdAt).toLowerCase()} at ${clockTime(d.createdAt)}`,
            d.state === 'done'
              ? took
                ? ` · ${took}`
                : ''
              : ` · ${d.state === 'queued' ? 'queued' : `running: ${formatCount(d.ok + d.failed)} of ${formatCount(d.expected)} items`}`,
            ' · ',
            h('code', { text: d.id }),
          ),
        ),
        failedNow > 0 && !d.archived
          ? h(
              'button',
              { class: 'btn btn-danger', type: 'button', on: { click: () => this.ui.retryAll(d) } },
              `Retry ${plural(failedNow, 'failed item')}`,
            )
          : null,
      ),
      d.archived
        ? h('p', {
            class: 'notice notice-archived',
            role: 'note',
            dataset: { archived: 'true' },
            text: archivedText(d.archivedAt),
          })
        : null,
      h('div', { class: 'batch-progress' }, bar),
      h(
        'ul',
        { class: 'tiles', 'aria-label': 'Batch counts' },
        tile(d.expected, 'items'),
        tile(counts.photos ?? 0, 'photos'),
        tile(counts.captionOnly ?? 0, 'caption only'),
        tile(d.counts?.clusters ?? 0, 'clusters'),
        // An identical caption is said as the cluster card says it ("identical captions"), apart from near ones.
        d.counts?.identical
          ? tile(d.counts.identical, d.counts.identical === 1 ? 'identical duplicate' : 'identical duplicates')
          : null,
        tile((d.counts?.duplicates ?? 0) - (d.counts?.identical ?? 0), 'near-duplicates'),
        d.counts?.joinedEarlier ? tile(d.counts.joinedEarlier, 'joined earlier clusters') : null,
        tile(d.failed, 'failed', d.failed ? 'is-fail' : ''),
        tile(
          d.counts?.lowConfidenceCredits ?? 0,
          'low-confidence credits',
          d.counts?.lowConfidenceCredits ? 'is-warn' : '',
        ),
      ),
      d.warningList.length
        ? h(
            'details',
            { class: 'notice' },
            h('summary', { text: `${plural(d.warningList.length, 'warning')} from the feed` }),
            h(
              'ul',
              {},
              d.warningList.slice(0, 200).map((w) => h('li', { text: w })),
            ),
          )
        : null,
    );
    this.balanceTiles();
  }

  /** The count tiles in even rows: as many columns as fit, or fewer so that no row holds one tile alone. */
  balanceTiles() {
    const tiles = this.head?.querySelector('.tiles');
    if (!tiles) return;
    const width = tiles.clientWidth;
    if (width === 0) return;
    tiles.style.setProperty('--tile-cols', String(tileColumns(tiles.children.length, width)));
    tiles.classList.add('is-balanced');
  }

  renderGrid() {
    const d = this.detail;
    const labels = {
      all: `All ${formatCount(d.expected)}`,
      failed: `Failed ${formatCount(d.failed)}`,
      low: `Low-confidence credit ${formatCount(d.counts?.lowConfidenceCredits ?? 0)}`,
    };
    for (const b of this.filterButtons) {
      b.textContent = labels[b.dataset.show];
      b.setAttribute('aria-pressed', String(b.dataset.show === this.show));
    }
    const searching = this.searching();
    if (searching && !this.found) {
      this.resultCount.textContent = 'Searching…';
      return;
    }
    const shown = searching ? this.found.records : this.records;
    const more = searching ? this.found.next !== null : this.more;
    const groups = groupByCluster(newerFirst(shown));
    const total = searching ? this.found.total : d.expected;
    if (searching) {
      const n = this.found.exact ? plural(total, 'item') : `${plural(shown.length, 'item')} so far,`;
      this.resultCount.textContent = this.found.error
        ? `Search failed: ${this.found.error}`
        : `${n} of ${formatCount(d.expected)} match`;
    } else {
      this.resultCount.textContent = `${plural(groups.length, 'card')} for ${plural(shown.length, 'item')}${more ? ` (of ${formatCount(total)}; more as you scroll)` : ''}`;
    }
    const focusKey = document.activeElement?.closest?.('[data-item-id],[data-cluster-id]');
    const focusSel = focusKey ? focusSelector(focusKey, document.activeElement) : null;
    if (groups.length === 0 && !more) {
      setChildren(
        this.grid,
        h('p', {
          class: 'grid-empty',
          text:
            !searching && this.records.length === 0
              ? d.state === 'done'
                ? 'This batch has no items.'
                : 'Waiting for the first items…'
              : 'Nothing in this batch matches.',
        }),
      );
      return;
    }
    const cards = groups.map((g) => {
      const card = g.kind === 'cluster' ? clusterCard(g, this.ui) : itemCard(g.lead, this.ui);
      builtFrom.set(card, builtFromText(g));
      return card;
    });
    keepUnchanged(this.grid, [...cards, more ? this.sentinel : null].filter(Boolean));
    if (more && this.moreObserver) {
      // Observed again: an observer reports a target's state when it starts observing, so a
      // sentinel still in view after this render asks for the next page (a short first page).
      this.moreObserver.unobserve(this.sentinel);
      this.moreObserver.observe(this.sentinel);
    }
    // A re-render (live update, retry) must not throw the keyboard user back to the top.
    if (focusSel) this.grid.querySelector(focusSel)?.focus();
  }
}

/** desk.css .tiles: a tile is at least this wide, with this gap. */
const TILE_MIN_PX = 130;
const TILE_GAP_PX = 10;

/**
 * Columns for `n` count tiles in `width` px: all in one row when they fit, else the fewest rows
 * they need, filled evenly (8 tiles where 7 fit: 4 + 4, not 7 + 1).
 */
export function tileColumns(n, width) {
  const fit = Math.max(1, Math.floor((width + TILE_GAP_PX) / (TILE_MIN_PX + TILE_GAP_PX)));
  if (n <= fit) return Math.max(1, n);
  return Math.ceil(n / Math.ceil(n / fit));
}

/** What each card was built from (its group's records, as JSON): a card is kept only if that is unchanged. */
const builtFrom = new WeakMap();
/**
 * The group's records as JSON, without their availability: the server works that out on every
 * read and stamps it with the time (`at`, `msLeft`), and what the card shows of it (the state, the
 * reason, the time left) is compared in its markup. Plain JSON.stringify, no replacer: 1,000
 * records of 4 kB in about 14 ms in Node (a replacer made it 41 ms).
 */
const builtFromText = (g) => `${g.kind}|${JSON.stringify(g.records.map(({ availability: _read, ...r }) => r))}`;
const cardKey = (el) => el.dataset?.clusterId ?? el.dataset?.itemId ?? null;

/**
 * Put `fresh` in `grid`, keeping each card already there that is the same: same key, built from the
 * same records, same markup (which also carries the desk's own state: expanded, retrying). A live
 * reload that changed nothing then leaves the page alone (no flicker, no image reloads, nothing
 * a reader or a test holds goes stale), and one that changed a card replaces that card only.
 */
function keepUnchanged(grid, fresh) {
  const before = new Map();
  for (const el of grid.children) {
    const key = cardKey(el);
    if (key) before.set(key, el);
  }
  const next = fresh.map((el) => {
    const key = cardKey(el);
    const old = key ? before.get(key) : undefined;
    return old && builtFrom.get(old) === builtFrom.get(el) && old.outerHTML === el.outerHTML ? old : el;
  });
  const current = [...grid.children];
  if (next.length === current.length && next.every((el, i) => el === current[i])) return;
  setChildren(grid, next);
}

function focusSelector(card, active) {
  const attr = card.dataset.clusterId
    ? `[data-cluster-id="${CSS.escape(card.dataset.clusterId)}"]`
    : `[data-item-id="${CSS.escape(card.dataset.itemId)}"]`;
  const tag = active.tagName.toLowerCase();
  const cls = active.classList[0] ? `.${CSS.escape(active.classList[0])}` : '';
  return `${attr} ${tag}${cls}`;
}

/** "Archived on 5 March 2024: read from storage, read-only" (the retention pass removed it from Redis). */
export function archivedText(archivedAt) {
  const at = archivedAt ? new Date(archivedAt) : null;
  const day =
    at && !Number.isNaN(at.getTime())
      ? ` on ${at.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })}`
      : '';
  return `Archived${day}: read from storage, read-only`;
}
