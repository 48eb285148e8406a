import { shortTime } from '../runs/formatRuns';

/** How many names of files still being written a note lists. */
const LISTED = 5;

const files = (n: number) => `${n} ${n === 1 ? 'file' : 'files'}`;

/**
 * What an empty run of a schedule says, and only what is true: the first run of a new schedule
 * has no "last run" to compare with; files still being written are counted and named; the next
 * check is given when the scheduler knows it. `2 files still being written (a.jpg, b.jpg); next
 * check 02:01`.
 */
export function emptyRunNote(p: {
  /** An earlier finished run of this schedule (its start), or null: this is its first run. */
  lastRunAt: string | null;
  /** New files left for a later run because they are still being written (relative paths). */
  young: string[];
  /** Files in the source (taken before or not). */
  sourceFiles: number;
  /** When the scheduler runs it next (ms), or null. */
  next: number | null;
  now?: number;
}): string {
  const now = p.now ?? Date.now();
  const parts: string[] = [];
  if (p.young.length) {
    const names =
      p.young.slice(0, LISTED).join(', ') + (p.young.length > LISTED ? `, ${p.young.length - LISTED} more` : '');
    const what = `${files(p.young.length)} still being written (${names})`;
    parts.push(
      p.lastRunAt === null
        ? `first run: ${what}`
        : `nothing new since the last run (${shortTime(p.lastRunAt, now)}); ${what}`,
    );
  } else if (p.lastRunAt === null) {
    parts.push(
      p.sourceFiles === 0
        ? 'first run: the source holds no files yet'
        : `first run: none of the ${files(p.sourceFiles)} in the source is new`,
    );
  } else {
    parts.push(`nothing new since the last run (${shortTime(p.lastRunAt, now)})`);
  }
  if (p.next !== null) parts.push(`next check ${shortTime(new Date(p.next).toISOString(), now)}`);
  return parts.join('; ');
}
