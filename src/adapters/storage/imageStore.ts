import { InputError, isInputError } from '../../core/errors';
import { originalKey, renditionKey, renditionManifestKey } from '../../core/storageKeys';
import type { Rendition } from '../../schemas/record';
import { StorageConfigError, StorageError, type StoragePort } from './storagePort';

/**
 * A photo kept in storage (a desk upload's `uploads/<id>/<name>`), read whole through the port:
 * no object is IMAGE_NOT_FOUND naming the key; more than `maxBytes` is IMAGE_TOO_LARGE, found
 * while streaming (never more than the cap held in memory).
 */
export async function readStoredPhoto(
  storage: Pick<StoragePort, 'getStream' | 'locate'>,
  key: string,
  maxBytes: number,
): Promise<Buffer> {
  const stream = await storage.getStream(key);
  if (!stream) throw new InputError('IMAGE_NOT_FOUND', `storage key ${key} (${storage.locate(key)}): no such object`);
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) {
        throw new InputError(
          'IMAGE_TOO_LARGE',
          `storage key ${key}: over the file-size cap of ${(maxBytes / 1048576).toFixed(0)} MB (PHOTOWIRE_MAX_FILE_MB)`,
        );
      }
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (isInputError(err)) throw err;
    throw new StorageError(`cannot read ${storage.locate(key)}: ${(err as Error).message}`, { cause: err });
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, total);
}

/** What `renditions.json` says: the photo and every rendition stored for it. */
export interface RenditionManifest {
  sha256: string;
  width: number;
  height: number;
  format: string;
  phash: string;
  /** `path` is the storage key (`renditions/ab/cd/<sha256>/thumb.webp`), as in the records. */
  renditions: Rendition[];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  gif: 'image/gif',
  heif: 'image/heif',
  avif: 'image/avif',
};
const typeOf = (name: string): string =>
  TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/**
 * Originals, renditions and rendition manifests over the storage port (the local folder or S3,
 * PHOTOWIRE_STORAGE), content-addressed (src/core/storageKeys.ts), every object created with
 * put-if-absent: two machines rendering the same bytes at once store one copy (412 = already there).
 * The manifest is created last, so a rendition set is whole exactly when its manifest exists.
 *
 * S3 storage is opened (the bucket checked) on first use, once; a fault there is STORAGE_FAILED like
 * any other. A local folder needs no opening.
 */
export class StorageImageStore {
  private opened: Promise<void> | null = null;

  constructor(readonly storage: StoragePort) {}

  private async ready(): Promise<void> {
    // A local folder is made as it is written, and a write that fails says which file and why.
    if (this.storage.kind === 'local') return;
    if (!this.opened) {
      this.opened = this.storage.open().catch((err: unknown) => {
        this.opened = null;
        // At start the runtime reports this as a configuration error; seen by an item it is a storage fault.
        if (err instanceof StorageConfigError) throw new StorageError(err.problems.join('; '), { cause: err });
        throw err;
      });
    }
    await this.opened;
  }

  /** The stored manifest of a photo's renditions, or null while the set is not whole. */
  async readManifest(sha256: string): Promise<RenditionManifest | null> {
    await this.ready();
    const key = renditionManifestKey(sha256);
    const raw = await this.storage.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw.toString('utf8')) as RenditionManifest;
    } catch (err) {
      throw new StorageError(`${this.storage.describe}: ${key} is not JSON (${(err as Error).message})`, {
        cause: err,
      });
    }
  }

  /**
   * Store the original unless it is there. Returns its key. One request: put-if-absent alone
   * (`If-None-Match: *` on S3), no HEAD first. It is only called when the photo's manifest is
   * missing, i.e. nearly always for a photo never stored, where a HEAD was one more round trip per
   * photo (docs/SCALING.md, "S3 against the local directory"); the rare original that is there
   * without its manifest (a crash between the two, two machines on the same bytes) costs its
   * bytes sent once more and a 412. The key is the body's SHA-256, signed as the payload hash
   * (`PutOptions.sha256`): S3 does not hash 1 MB+ again on our side, and the server still checks it.
   *
   * Not done (measured, docs/SCALING.md): putting the original first and reading the manifest only
   * when it was there already (412) would save the GET of a new photo's manifest, but the original's
   * upload would then come before the render instead of beside it.
   */
  async putOriginal(sha256: string, ext: string, bytes: Buffer): Promise<string> {
    await this.ready();
    const key = originalKey(sha256, ext);
    await this.storage.putIfAbsent(key, bytes, { contentType: typeOf(key), cacheControl: IMMUTABLE, sha256 });
    return key;
  }

  /**
   * Store one rendition unless it is there. Returns its key and the size of what is stored: when
   * another machine's copy won the race (same bytes rendered for an item with another credit line,
   * say), the manifest must describe that copy.
   */
  async putRendition(sha256: string, file: string, data: Buffer): Promise<{ key: string; bytes: number }> {
    await this.ready();
    const key = renditionKey(sha256, file);
    const put = await this.storage.putIfAbsent(key, data, { contentType: typeOf(file), cacheControl: IMMUTABLE });
    if (put === 'created') return { key, bytes: data.length };
    const info = await this.storage.head(key);
    return { key, bytes: info?.size ?? data.length };
  }

  /**
   * Create the manifest, last. When another machine created it first, theirs is the one kept and
   * returned (`created: false`), so every record of those bytes names the same renditions.
   */
  async putManifest(
    manifest: RenditionManifest,
    opts: { beforeCommit?: () => Promise<void> } = {},
  ): Promise<{ manifest: RenditionManifest; created: boolean }> {
    await this.ready();
    const key = renditionManifestKey(manifest.sha256);
    const put = await this.storage.putIfAbsent(key, JSON.stringify(manifest, null, 2), {
      contentType: 'application/json',
      cacheControl: IMMUTABLE,
      beforeCommit: opts.beforeCommit,
    });
    if (put === 'created') return { manifest, created: true };
    return { manifest: (await this.readManifest(manifest.sha256)) ?? manifest, created: false };
  }
}
