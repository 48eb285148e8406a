/**
 * Object keys of photowire's storage (the local data directory or an S3 bucket, see
 * src/adapters/storage/storagePort.ts). Pure: the same names on every machine, so two machines
 * that render the same bytes compute the same keys and store one copy.
 *
 * Keys are `/`-separated and content-addressed below two levels of fan-out (`ab/cd/<sha256>`),
 * the layout of DataDir (src/adapters/storage/dataDir.ts) written with forward slashes.
 */

import { PhotowireError } from './errors';

const SHA256 = /^[0-9a-f]{64}$/;

function shard(sha256: string): string {
  if (!SHA256.test(sha256)) throw new PhotowireError('INTERNAL', `not a sha256 hex digest: ${JSON.stringify(sha256)}`);
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** The original bytes of a photo: `originals/ab/cd/<sha256>.<ext>`. */
export function originalKey(sha256: string, ext: string): string {
  if (!/^[a-z0-9]{1,8}$/.test(ext))
    throw new PhotowireError('INTERNAL', `not a file extension: ${JSON.stringify(ext)}`);
  return `originals/${shard(sha256)}.${ext}`;
}

/** The folder of one photo's renditions: `renditions/ab/cd/<sha256>/`. */
export function renditionPrefix(sha256: string): string {
  return `renditions/${shard(sha256)}/`;
}

/** One rendition file (`thumb.webp`, `preview.jpg`) of a photo. */
export function renditionKey(sha256: string, file: string): string {
  checkName(file);
  return renditionPrefix(sha256) + file;
}

/**
 * The rendition manifest: written last, so a rendition set is whole exactly when this object
 * exists (a reader that finds it may use every rendition it lists; a worker that finds it renders nothing).
 */
export function renditionManifestKey(sha256: string): string {
  return renditionPrefix(sha256) + 'renditions.json';
}

/** A file of a batch's export (`records.ndjson`, `summary.json`): `batches/<batchId>/<name>`. */
export function batchKey(batchId: string, name: string): string {
  checkName(batchId);
  checkName(name);
  return `batches/${batchId}/${name}`;
}

/** A batch's records, one JSON line per item in feed order: `batches/<batchId>/records.ndjson`. */
export function batchRecordsKey(batchId: string): string {
  return batchKey(batchId, 'records.ndjson');
}

/**
 * A batch's summary: `batches/<batchId>/summary.json`. Written last, after records.ndjson, so a
 * batch export is whole exactly when this object exists (as a rendition set and its manifest).
 */
export function batchSummaryKey(batchId: string): string {
  return batchKey(batchId, 'summary.json');
}

/** A file uploaded from the desk: `uploads/<uploadId>/<name>`. */
export function uploadKey(uploadId: string, name: string): string {
  checkName(uploadId);
  checkName(name);
  return `uploads/${uploadId}/${name}`;
}

function checkName(name: string): void {
  const why = nameProblem(name);
  if (why) throw new PhotowireError('INTERNAL', `not a storage key part: ${JSON.stringify(name)} (${why})`);
}

function nameProblem(name: string): string | null {
  if (name.length === 0) return 'empty';
  if (name.length > 255) return 'longer than 255 characters';
  if (name === '.' || name === '..') return 'a dot folder';
  if (/[/\\\u0000-\u001f\u007f]/.test(name)) return 'a slash, backslash or control character';
  return null;
}

/**
 * Why a whole key is refused by both adapters, or null when it is fine: no leading slash, no
 * empty, `.` or `..` segment, no backslash or control character, at most 1024 bytes (S3's limit).
 * A key that passes names the same file under the local root and the same object in a bucket.
 */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return 'empty';
  if (Buffer.byteLength(key, 'utf8') > 1024) return 'longer than 1024 bytes';
  if (key.startsWith('/')) return 'starts with a slash';
  for (const part of key.split('/')) {
    if (part.length === 0) return 'has an empty segment (//, or a trailing slash)';
    const why = nameProblem(part);
    if (why) return `segment ${JSON.stringify(part)} is ${why}`;
  }
  return null;
}

/** Keys a listing may ask for: empty (everything), or key-shaped ending in `/` or not. */
export function prefixProblem(prefix: string): string | null {
  if (prefix === '') return null;
  return keyProblem(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}
