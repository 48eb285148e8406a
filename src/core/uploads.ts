import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { storageRef } from './feeds/storageFeed';
import { uploadKey } from './storageKeys';

/**
 * A desk upload's names and identity (src/app/uploads/uploadService.ts stores it). Pure.
 */

/** Keep a plain file name: no folders, no dot-files, nothing a shell or a path could misread. */
export function safeFileName(name: string): string | null {
  const base = path.basename(name.replace(/\\/g, '/'));
  const clean = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._ ()+-]/gu, '_')
    .replace(/^[.\s]+/, '')
    .slice(0, 200)
    .trim();
  return clean === '' ? null : clean;
}

/** `name`, or `name (2).ext`, `name (3).ext`... when an earlier file of the upload took it. */
export function uniqueName(name: string, taken: ReadonlySet<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) out = out.replace(/^(.*?)(?: \(\d+\))?(\.[^.]*)?$/, `$1 (${n})$2`);
  return out;
}

/**
 * The upload's id: a digest of its (name, SHA-256) pairs, in name order. The same files sent
 * again are the same id, so the same objects (`uploads/<id>/<name>`) and the same batch.
 */
export function uploadIdOf(files: Array<{ name: string; sha256: string }>): string {
  return createHash('sha256')
    .update(
      files
        .map((f) => `${f.name}\0${f.sha256}`)
        .sort()
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
}

/**
 * What to ingest of an upload, as storage references: its one file, or its folder
 * (`storage:uploads/<id>/`), read as any folder feed is (src/core/feeds/folderFeed.ts): an
 * agency's delivery of XML items and their pictures uploaded together is one batch, each picture
 * with the item that names it, the same records `run` gives for that folder.
 */
export function uploadFeedRefs(id: string, names: string[]): string[] {
  if (names.length === 1) return [storageRef(uploadKey(id, names[0]!))];
  return [storageRef(`uploads/${id}/`)];
}
