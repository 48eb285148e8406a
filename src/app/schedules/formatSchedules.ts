import { formatTime } from '../runs/formatRuns';
import { printable } from '../../core/terminalText';
import type { RunRecord } from '../../core/runs/runRecord';
import { describeTiming, type ScheduleDef } from './scheduleDef';

/** A due time as `schedule add/list` print it, or `-`. */
export const formatAt = (ms: number | null): string => (ms === null ? '-' : formatTime(new Date(ms).toISOString()));

/** `photowire schedule list`: each schedule's timing, next run and source, then its last run. */
export function formatScheduleList(list: Array<ScheduleDef & { next: number | null }>, last: Array<RunRecord | null>): string {
  if (list.length === 0) return 'no schedules (photowire schedule add NAME --cron "0 2 * * *" --source DIR|URL)\n';
  return list
    .map((d, i) => {
      const l = last[i];
      return (
        printable`${d.name}  ${describeTiming(d)}  next ${formatAt(d.next)}  source ${d.source}\n` +
        printable`    last run: ${l ? `${formatTime(l.startedAt)} ${l.state}${l.note ? ` (${l.note})` : ''}` : 'never'}\n`
      );
    })
    .join('');
}
