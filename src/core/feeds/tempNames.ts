/**
 * Names a sender writes under while a file is still arriving: FTP/SFTP clients, rsync and browsers
 * rename to the final name when done. Such a file is never an item, wherever it is found (a hot
 * folder, a folder feed, a scheduled folder): it is half a photo. docs/SOURCES.md "Hot folders".
 */

// .part (curl, lftp, many FTP servers), .filepart (WinSCP), .partial, .crdownload (browsers), .tmp.
const TEMP_SUFFIX = /\.(tmp|part|partial|filepart|crdownload)$/i;

/** A name still being written: a leading dot (rsync, editors), a `~` at either end, or a temp suffix. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') || name.startsWith('~') || name.endsWith('~') || TEMP_SUFFIX.test(name);
}

/**
 * Inside a folder feed only the unambiguous temp names count: dot files such as `.DS_Store` are
 * left behind by every Mac upload and are listed as hidden files instead.
 */
export function isTempNameInsideFolder(name: string): boolean {
  return !name.startsWith('.') && isTempName(name);
}
