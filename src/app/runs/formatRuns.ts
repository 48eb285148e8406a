import { stretchLabel } from '../../core/runs/foldEmptyRun';
import { escapeTerminal, printable } from '../../core/terminalText';
import type { RunRecord } from '../../core/runs/runRecord';
import { OVERDUE_GRACE_MS, type SourceStatus, type Staleness } from '../../core/runs/stale';

// Hand-written, not ms(): the runs table shows two units (`3 min 4 s`); ms() rounds to one (`3m`).
export function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

/** `2026-11-30 02:00:01` in local time: what an operator compares with the wall clock. */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** Columns padded to their widest cell; every cell escaped first (a schedule's source, a batch id named after a feed). */
function table(cells: string[][]): string[] {
  const rows = cells.map((r) => r.map(escapeTerminal));
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd(),
  );
}

/** `02:00` today, `2026-11-30 02:00` another day: a stretch's start as an operator reads it. */
export function shortTime(iso: string, now = Date.now()): string {
  const full = formatTime(iso);
  return full.slice(0, 10) === formatTime(new Date(now).toISOString()).slice(0, 10)
    ? full.slice(11, 16)
    : full.slice(0, 16);
}

/**
 * The `photowire runs` table, with each run's batch id; a run's note (nothing new, why it failed)
 * goes under its line. A row standing for consecutive empty runs says so first: `no new files
 * since 02:00, 57 checks (last 02:57)`.
 */
export function formatRuns(runs: RunRecord[], now = Date.now()): string {
  if (runs.length === 0) return 'no runs yet';
  const head = ['schedule', 'start', 'duration', 'files', 'items', 'ok', 'dup', 'failed', 'state', 'batch', 'source'];
  const lines: string[] = [];
  const rows = [
    head,
    ...runs.map((r) => [
      r.schedule,
      formatTime(r.startedAt),
      formatDuration(r.durationMs),
      String(r.files),
      String(r.items),
      String(r.ok),
      String(r.duplicates),
      String(r.failed),
      r.state,
      r.batchId ?? '-',
      r.source,
    ]),
  ];
  const printed = table(rows);
  lines.push(printed[0]);
  runs.forEach((r, i) => {
    lines.push(printed[i + 1]);
    if ((r.checks ?? 1) > 1)
      lines.push(
        `    ${stretchLabel(r, (iso) => shortTime(iso, now))} (last ${shortTime(r.lastAt ?? r.startedAt, now)})`,
      );
    if (r.note) lines.push(printable`    ${r.note}`);
  });
  return lines.join('\n');
}

/** What `photowire runs` says of a schedule overdue past the grace period (stale.ts, OVERDUE_GRACE_MS). */
export function formatOverdue(o: { schedule: string; next: number }): string {
  return printable`OVERDUE schedule ${o.schedule}: due since ${formatTime(new Date(o.next).toISOString())}, more than ${Math.round(OVERDUE_GRACE_MS / 60_000)} min ago; is photowire scheduler running?`;
}

export function formatStale(list: Array<{ status: SourceStatus; staleness: Staleness }>): string[] {
  return list
    .filter((s) => s.staleness.stale)
    .map(
      (s) =>
        printable`STALE ${s.status.kind === 'watch' ? 'hot folder' : 'schedule'} ${s.status.name}${s.status.kind === 'schedule' ? ` (${s.status.source})` : ''}: ${s.staleness.reason}`,
    );
}
