import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { isHttpSource } from './scheduleDef';

/** Lower-case, dash-separated: batch ids are typed by people at the CLI. */
function slug(s: string, max: number): string {
  return s
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, max)
    .replace(/-+$/, '');
}

/** `/import/afp` → `afp`; `https://feeds.example.com/ap/pictures.xml` → `pictures` (the host when the path has no name). */
export function sourceBasename(source: string): string {
  if (isHttpSource(source)) {
    const u = new URL(source);
    const last = u.pathname.split('/').filter(Boolean).pop() ?? '';
    return last.replace(/\.[a-z0-9]{1,8}$/i, '') || u.hostname;
  }
  return path.basename(path.resolve(source));
}

/**
 * What a scheduled run's batch is called: `<schedule>-<source basename>` (`afp-nightly-afp`), so
 * the desk and `photowire status` tell the runs of two schedules apart, instead of every run
 * showing as `file-list` or as the URL's `manifest.ndjson`. It is the batch's `feed` (a name, not
 * a path: the run's files are listed in its records and its source in its run).
 */
export function scheduledFeedName(schedule: string, source: string): string {
  return slug(`${schedule}-${sourceBasename(source)}`, 60) || 'scheduled-run';
}

/**
 * A scheduled run's batch id: its name and 12 hex digits of a hash of the schedule, the source
 * and the run's content digest (the schedule, the run id and each file or item taken: runDigest in
 * runSchedule.ts). Content-derived: a run retried or finished after a crash keeps its pending
 * batch, and the same run chosen again lands on the same id.
 */
export function scheduledBatchId(schedule: string, source: string, contentDigest: string): string {
  const h = createHash('sha256').update(`scheduled\0${schedule}\0${source}\0${contentDigest}`).digest('hex');
  return `${scheduledFeedName(schedule, source)}-${h.slice(0, 12)}`;
}
