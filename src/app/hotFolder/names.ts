/**
 * Naming conventions of a drop folder. Senders write under a temporary name and rename when
 * done (FTP/SFTP clients, rsync, browsers), or write the file and then an empty `<name>.done`
 * marker. Both are documented in docs/SOURCES.md.
 */
import { isTempName } from '../../core/feeds/tempNames';

export { isTempName, isTempNameInsideFolder } from '../../core/feeds/tempNames';

export type EntryRole = 'candidate' | 'temp' | 'marker' | 'reserved';

/** Folders photowire itself writes into a hot folder; never taken as feeds. */
export const RESERVED_DIRS = ['processed', 'failed'] as const;

export const MARKER_SUFFIX = '.done';

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
