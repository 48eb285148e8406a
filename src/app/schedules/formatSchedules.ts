import { formatTime } from '../runs/formatRuns';
import { printable } from '../../core/terminalText';
import type { RunRecord } from '../../core/runs/runRecord';
import { describeTiming, type ScheduleDef } from './scheduleDef';

/** The machine's UTC offset at that moment, `+01:00`: a schedule's times are read across machines and zones. */
export function utcOffset(ms: number): string {
  const m = -new Date(ms).getTimezoneOffset();
  const a = Math.abs(m);
  return `${m < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** A due time as `schedule add/list` print it, local time with its offset (`2026-12-05 02:00:00 +01:00`), or `-`. */
export const formatAt = (ms: number | null): string =>
  ms === null ? '-' : `${formatTime(new Date(ms).toISOString())} ${utcOffset(ms)}`;

/** `photowire schedule list`: each schedule's timing, next run and source, then its last run. */
export function formatScheduleList(
  list: Array<ScheduleDef & { next: number | null }>,
  last: Array<RunRecord | null>,
): string {
  if (list.length === 0) return 'no schedules (photowire schedule add NAME --cron "0 2 * * *" --source DIR|URL)\n';
  return list
    .map((d, i) => {
      const l = last[i];
      return (
        printable`${d.name}  ${describeTiming(d)}  next ${formatAt(d.next)}  source ${d.source}\n` +
        printable`    last run: ${l ? `${formatAt(Date.parse(l.startedAt))} ${l.state}${l.note ? ` (${l.note})` : ''}` : 'never'}\n`
      );
    })
    .join('');
}
