// The batch view: head, counts, search and the grid of cards grouped by caption cluster.

import { clockTime, dayLabel, feedName, formatCount, plural } from '../lib/format.js';
import { groupByCluster, recordStats } from '../lib/group.js';
import { filterRecords } from '../lib/search.js';
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
    this.widths = null;
  }

  /** Show a batch (a new one resets search and expansion; the same one keeps them). */
  render(detail, records) {
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
    this.renderHead();
    this.renderGrid();
  }

  build() {
    this.head = h('section', { class: 'batch-section', 'aria-labelledby': 'batch-title' });
    this.searchInput = h('input', {
      id: 'batch-search',
      type: 'search',
      placeholder: 'Search captions, creators, agencies (e.g. agency:AFP)',
      autocomplete: 'off',
      spellcheck: 'false',
      on: {
        input: () => {
          this.q = this.searchInput.value;
          this.renderGrid();
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
            this.renderGrid();
          },
        },
      }),
    );
    this.resultCount = h('span', { class: 'result-count', role: 'status', 'aria-live': 'polite' });
    const toolbar = h(
      'div',
      { class: 'toolbar', role: 'search', 'aria-label': 'Search this batch' },
      h('label', { class: 'search' }, h('span', { class: 'visually-hidden', text: 'Search this batch by caption text, creator or agency' }), this.searchInput),
      h('div', { class: 'segmented', role: 'group', 'aria-label': 'Show' }, this.filterButtons),
      this.resultCount,
    );
    this.grid = h('div', { class: 'grid', id: 'grid', 'aria-label': 'Items of this batch, grouped by caption cluster' });
    setChildren(this.main, this.head, toolbar, this.grid);
  }

  renderHead() {
    const d = this.detail;
    const name = feedName(d.feed);
    const took = tookText(d, true);
    const stats = recordStats(this.records);
    const tile = (value, label, cls = '') => h('li', { class: `tile ${cls}` }, h('div', { class: 'tile-value', text: formatCount(value) }), h('div', { class: 'tile-label', text: label }));
    // Only what a retry can change: feed-level failures need the feed fixed and dropped again.
    const failedNow = this.records.filter((r) => r.error && !this.ui.retrying.has(r.id) && (!this.ui.retryable || this.ui.retryable(r))).length;
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
            d.state === 'done' ? (took ? ` · ${took}` : '') : ` · ${d.state === 'queued' ? 'queued' : `running: ${formatCount(d.ok + d.failed)} of ${formatCount(d.expected)} items`}`,
            ' · ',
            h('code', { text: d.id }),
          ),
        ),
        failedNow > 0 ? h('button', { class: 'btn btn-danger', type: 'button', on: { click: () => this.ui.retryAll(d) } }, `Retry ${plural(failedNow, 'failed item')}`) : null,
      ),
      h('div', { class: 'batch-progress' }, bar),
      h(
        'ul',
        { class: 'tiles', 'aria-label': 'Batch counts' },
        tile(d.expected, 'items'),
        tile(stats.photos, 'photos'),
        tile(stats.captionOnly, 'caption only'),
        tile(d.counts?.clusters ?? 0, 'clusters'),
        tile(d.counts?.duplicates ?? 0, 'near-duplicates'),
        d.counts?.joinedEarlier ? tile(d.counts.joinedEarlier, 'joined earlier clusters') : null,
        tile(d.failed, 'failed', d.failed ? 'is-fail' : ''),
        tile(d.counts?.lowConfidenceCredits ?? 0, 'low-confidence credits', d.counts?.lowConfidenceCredits ? 'is-warn' : ''),
      ),
      d.warningList.length
        ? h('details', { class: 'notice' }, h('summary', { text: `${plural(d.warningList.length, 'warning')} from the feed` }), h('ul', {}, d.warningList.slice(0, 200).map((w) => h('li', { text: w }))))
        : null,
    );
  }

  renderGrid() {
    const stats = recordStats(this.records);
    const labels = { all: `All ${formatCount(stats.items)}`, failed: `Failed ${formatCount(stats.failed)}`, low: `Low-confidence credit ${formatCount(stats.lowConfidence)}` };
    for (const b of this.filterButtons) {
      b.textContent = labels[b.dataset.show];
      b.setAttribute('aria-pressed', String(b.dataset.show === this.show));
    }
    const shown = filterRecords(this.records, { q: this.q, show: this.show });
    const groups = groupByCluster(newerFirst(shown));
    this.resultCount.textContent =
      shown.length === this.records.length ? `${plural(groups.length, 'card')} for ${plural(shown.length, 'item')}` : `${plural(shown.length, 'item')} of ${formatCount(this.records.length)} match`;
    const focusKey = document.activeElement?.closest?.('[data-item-id],[data-cluster-id]');
    const focusSel = focusKey ? focusSelector(focusKey, document.activeElement) : null;
    if (groups.length === 0) {
      setChildren(
        this.grid,
        h('p', { class: 'grid-empty', text: this.records.length === 0 ? (this.detail.state === 'done' ? 'This batch has no items.' : 'Waiting for the first items…') : 'Nothing in this batch matches.' }),
      );
      return;
    }
    setChildren(
      this.grid,
      groups.map((g) => (g.kind === 'cluster' ? clusterCard(g, this.ui) : itemCard(g.lead, this.ui))),
    );
    // A re-render (live update, retry) must not throw the keyboard user back to the top.
    if (focusSel) this.grid.querySelector(focusSel)?.focus();
  }
}

function focusSelector(card, active) {
  const attr = card.dataset.clusterId ? `[data-cluster-id="${CSS.escape(card.dataset.clusterId)}"]` : `[data-item-id="${CSS.escape(card.dataset.itemId)}"]`;
  const tag = active.tagName.toLowerCase();
  const cls = active.classList[0] ? `.${CSS.escape(active.classList[0])}` : '';
  return `${attr} ${tag}${cls}`;
}
