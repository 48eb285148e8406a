import * as path from 'node:path';

export type Outcome = 'processed' | 'failed';

/** `YYYY-MM-DD` in local time (set TZ for the newsroom's day): the folder a taken file moves to. */
export function dayFolder(at: Date): string {
  const y = at.getFullYear();
  const m = String(at.getMonth() + 1).padStart(2, '0');
  const d = String(at.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** `<hot folder>/processed/2026-11-30` */
export function outcomeDir(hotFolder: string, outcome: Outcome, at: Date): string {
  return path.join(hotFolder, outcome, dayFolder(at));
}

/**
 * A name that does not overwrite an earlier file of the same name moved the same day: agencies
 * reuse names (`photo.jpg`, `feed.xml`) all the time. `photo.jpg` → `photo-2.jpg`, `-3`...
 */
export function freeName(name: string, exists: (candidate: string) => boolean): string {
  if (!exists(name)) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; ; n++) {
    const candidate = `${stem}-${n}${ext}`;
    if (!exists(candidate)) return candidate;
  }
}

/** What `failed/<day>/<name>.error.json` says about a file that could not be read at all. */
export function errorReport(file: string, movedTo: string, error: { code: string; message: string }, at: Date): string {
  return (
    JSON.stringify({ file, movedTo, code: error.code, message: error.message, at: at.toISOString() }, null, 2) + '\n'
  );
}
