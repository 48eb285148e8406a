// The sidebar: batches (and runs that made no batch) of the last days, by day, with progress.

import { clockTime, feedName, formatDuration, groupByDay, plural, progressOf } from '../lib/format.js';
import { h, setChildren } from './dom.js';

const FORMAT_NAMES = {
  'gallery-text': 'Gallery text',
  'image-folder': 'Photo folder',
  image: 'Photo',
  'manifest-ndjson': 'NDJSON manifest',
  'manifest-json': 'JSON manifest',
  csv: 'CSV manifest',
  'newsml-g2': 'NewsML-G2',
  nitf: 'NITF',
};
export const formatName = (f) => FORMAT_NAMES[f] ?? f;

const STATE_NAMES = { queued: 'Queued', running: 'Running', done: 'Done', empty: 'Empty', failed: 'Failed' };

/** A progress bar: ok part and failed part, with its accessible value. */
export function progressBar(batch, label, previous) {
  const p = progressOf(batch);
  const bar = h('span', { class: 'progress-bar' });
  const fail = h('span', { class: 'progress-fail' });
  const el = h(
    'div',
    {
      class: 'progress',
      role: 'progressbar',
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': p.total,
      'aria-valuenow': p.done,
      'aria-valuetext': `${p.label}${batch.failed ? `, ${batch.failed} failed` : ''}`,
      dataset: { state: batch.state },
    },
    bar,
    fail,
  );
  const okPct = p.total ? Math.floor(((batch.ok ?? 0) / p.total) * 100) : p.pct;
  const failPct = p.total ? Math.ceil(((batch.failed ?? 0) / p.total) * 100) : 0;
  // Start from the width shown before, so a re-render moves the bar instead of redrawing it.
  bar.style.width = `${previous?.ok ?? okPct}%`;
  fail.style.width = `${previous?.fail ?? failPct}%`;
  requestAnimationFrame(() => {
    bar.style.width = `${okPct}%`;
    fail.style.width = `${failPct}%`;
  });
  return { el, widths: { ok: okPct, fail: failPct } };
}

/**
 * How long a done batch took: its processing time (each retry round counted, not the wait before
 * it), and the time since it arrived only when that differs much, as the CLI summary says it
 * (src/cli/printSummary.ts, elapsedDiffers). Batches from before processingMs use finishedAt - createdAt.
 * `long` adds "finished 5 min 42 s after it arrived". Null while the batch is not done.
 */
export function tookText(b, long = false) {
  if (b.state !== 'done' || !b.finishedAt) return null;
  const elapsed = b.elapsedMs ?? Date.parse(b.finishedAt) - Date.parse(b.createdAt);
  const processing = b.processingMs ?? elapsed;
  const took = `took ${formatDuration(processing)}`;
  return long && elapsed - processing >= 2000 && elapsed >= 1.5 * processing
    ? `${took}, finished ${formatDuration(elapsed)} after it arrived`
    : took;
}

export function countsList(b) {
  const c = b.counts;
  const item = (n, one, many, cls) => h('li', { class: cls }, h('b', { text: n }), ` ${n === 1 ? one : many}`);
  return h(
    'ul',
    { class: 'counts', 'aria-label': 'Counts' },
    item(b.expected, 'item', 'items'),
    c ? item(c.clusters, 'cluster', 'clusters') : null,
    c?.identical ? item(c.identical, 'identical duplicate', 'identical duplicates') : null,
    c ? item(c.duplicates - (c.identical ?? 0), 'near-duplicate', 'near-duplicates') : null,
    c?.joinedEarlier ? item(c.joinedEarlier, 'joined earlier cluster', 'joined earlier clusters') : null,
    item(b.failed, 'failed', 'failed', b.failed ? 'is-fail' : ''),
    c
      ? item(
          c.lowConfidenceCredits,
          'low-confidence credit',
          'low-confidence credits',
          c.lowConfidenceCredits ? 'is-warn' : '',
        )
      : null,
  );
}

export class BatchList {
  constructor(container) {
    this.container = container;
    this.widths = new Map();
  }

  render({ batches, runs, selectedId }) {
    const focusedId = document.activeElement?.closest?.('.batch-item')?.dataset.batchId;
    const runByBatch = new Map(runs.filter((r) => r.batchId).map((r) => [r.batchId, r]));
    // Runs that made no batch (nothing new, refused, failed) still belong on the list.
    const entries = [
      ...batches.map((b) => ({ kind: 'batch', at: b.createdAt, b })),
      ...runs.filter((r) => !r.batchId && r.state !== 'running').map((r) => ({ kind: 'run', at: r.startedAt, r })),
    ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    if (entries.length === 0) {
      setChildren(
        this.container,
        h('p', { class: 'list-empty', text: 'No batches in this period. Import a feed to start.' }),
      );
      return;
    }
    const days = groupByDay(entries, (e) => e.at);
    setChildren(
      this.container,
      days.map((d) => [
        h('h3', { class: 'day-label', text: d.label }),
        d.items.map((e) =>
          e.kind === 'batch' ? this.batchItem(e.b, runByBatch.get(e.b.id), e.b.id === selectedId) : runRow(e.r),
        ),
      ]),
    );
    if (focusedId) this.container.querySelector(`[data-batch-id="${CSS.escape(focusedId)}"]`)?.focus();
  }

  batchItem(b, run, selected) {
    const name = feedName(b.feed);
    const { el: bar, widths } = progressBar(b, `Progress of ${name}`, this.widths.get(b.id));
    this.widths.set(b.id, widths);
    const took = tookText(b);
    return h(
      'a',
      {
        class: 'batch-item',
        href: `#/batch/${encodeURIComponent(b.id)}`,
        'aria-current': selected ? 'page' : null,
        dataset: { batchId: b.id },
      },
      h(
        'div',
        { class: 'batch-row' },
        h('span', { class: 'batch-name', title: b.feed, text: name }),
        h('span', { class: `state state-${b.state}`, text: STATE_NAMES[b.state] ?? b.state }),
      ),
      h(
        'div',
        { class: 'batch-sub' },
        `${clockTime(b.createdAt)} · ${formatName(b.format)}${took ? ` · ${took}` : ''}`,
        run
          ? [
              ' · ',
              h('span', {
                class: 'run-tag',
                title: `${run.trigger} run ${run.id}`,
                text: run.schedule === 'watch' ? 'hot folder' : run.schedule,
              }),
            ]
          : null,
      ),
      bar,
      countsList(b),
    );
  }
}

/** The first line of a run's note, cut to a sidebar's width: the reason, not the whole story. */
export function shortNote(note, max = 90) {
  const first = String(note ?? '')
    .split('\n')[0]
    .trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/**
 * What a run row says after its tag. A row standing for consecutive empty runs of a schedule
 * (src/sources/runs/foldEmptyRun.ts) says `no new files since 02:00, 57 checks`, not one row per check.
 */
export function runText(r) {
  if (r.state === 'empty' && (r.checks ?? 1) > 1) {
    return `no new files since ${clockTime(r.startedAt)}, ${r.checks} checks (last ${clockTime(r.lastAt ?? r.startedAt)})`;
  }
  return `${clockTime(r.startedAt)} · ${RUN_STATE_NAMES[r.state] ?? STATE_NAMES[r.state] ?? r.state}`;
}

const RUN_STATE_NAMES = { waiting: 'Waiting' };

function runRow(r) {
  const tag = h('span', { class: 'run-tag', text: r.schedule === 'watch' ? 'hot folder' : r.schedule });
  const head = [tag, ` ${runText(r)}`];
  if (r.state === 'failed' && r.note) {
    // One line with the reason; the whole note, the source and the run on click.
    return h(
      'details',
      { class: 'run-row is-failed', dataset: { runId: r.id } },
      h('summary', {}, head, `: ${shortNote(r.note)}`),
      h('p', { class: 'run-note', text: r.note }),
      h('p', { class: 'run-source' }, 'Source: ', h('code', { text: r.source })),
    );
  }
  // A stretch of empty checks: its count says it all; the latest check's note is on hover.
  const stretch = (r.checks ?? 1) > 1;
  return h(
    'div',
    { class: 'run-row', title: stretch ? r.note : null, dataset: { runId: r.id } },
    head,
    r.note && !stretch ? `: ${shortNote(r.note)}` : '',
    r.items ? ` · ${plural(r.items, 'item')}` : '',
  );
}
