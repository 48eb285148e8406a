/**
 * Naming conventions of a drop folder. Senders write under a temporary name and rename when
 * done (FTP/SFTP clients, rsync, browsers), or write the file and then an empty `<name>.done`
 * marker. Both are documented in the README ("Sources").
 */

export type EntryRole = 'candidate' | 'temp' | 'marker' | 'reserved';

/** Folders photowire itself writes into a hot folder; never taken as feeds. */
export const RESERVED_DIRS = ['processed', 'failed'] as const;

export const MARKER_SUFFIX = '.done';

// .part (curl, lftp, many FTP servers), .filepart (WinSCP), .partial, .crdownload (browsers), .tmp.
const TEMP_SUFFIX = /\.(tmp|part|partial|filepart|crdownload)$/i;

/** A name still being written: a leading dot (rsync, editors), a `~` at either end, or a temp suffix. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || name.endsWith('~') || TEMP_SUFFIX.test(name);
}

/**
 * Inside a folder feed only the unambiguous temp names hold the folder back: dot files such as
 * `.DS_Store` are left behind by every Mac upload and are skipped when the folder is read.
 */
export function isTempNameInsideFolder(name: string): boolean {
  return !name.startsWith('.') && isTempName(name);
}

export function roleOf(name: string, isDirectory: boolean): EntryRole {
  if (isDirectory && (RESERVED_DIRS as readonly string[]).includes(name)) return 'reserved';
  if (isTempName(name)) return 'temp';
  if (!isDirectory && name.length > MARKER_SUFFIX.length && name.toLowerCase().endsWith(MARKER_SUFFIX)) return 'marker';
  return 'candidate';
}

export function markerName(name: string): string {
  return name + MARKER_SUFFIX;
}

/** The entry a marker announces: `photo.jpg.done` → `photo.jpg`. */
export function markedName(marker: string): string {
  return marker.slice(0, -MARKER_SUFFIX.length);
}
