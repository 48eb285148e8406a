import { createReadStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import type { StoragePort } from '../adapters/storage/storagePort';
import { RENDITIONS } from '../core/images/planRenditions';
import { renditionKey } from '../core/storageKeys';

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', jpeg: 'image/jpeg', png: 'image/png' };
const FILES = new Map(RENDITIONS.map((r) => [r.file, CONTENT_TYPES[r.format] ?? 'application/octet-stream']));

/** A rendition's bytes never change under its URL (content-addressed): browsers may keep them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * A rendition of a photo that is embargoed, expired, killed or withdrawn (src/app/renditions/renditionAccess.ts):
 * no cache may keep it, so the answer follows the photo's state (a kill, the end of an embargo).
 */
export const NO_STORE = 'private, no-store';

/** The one shape served: `ab/cd/<sha256>/<thumb.webp|preview.jpg>`, the first four hex digits repeated. */
export function isRenditionShape(p: RenditionParams): boolean {
  return (
    FILES.has(p.file) && /^[0-9a-f]{64}$/.test(p.sha256) && p.a === p.sha256.slice(0, 2) && p.b === p.sha256.slice(2, 4)
  );
}
/** A presigned URL lives this long; the redirect to it is cached for less, so a cached redirect never leads to an expired URL. */
export const PRESIGNED_SECONDS = 900;
export const REDIRECT_MAX_AGE_SECONDS = 300;
/** Objects known to exist (HEAD answered), kept as long as a redirect is cached: content-addressed, they do not change. */
const KNOWN_MAX = 10_000;

export interface RenditionParams {
  a: string;
  b: string;
  sha256: string;
  file: string;
}

export type RenditionAnswer =
  | { kind: 'stream'; body: Readable; contentType: string; size: number; etag: string }
  | { kind: 'redirect'; location: string };

/**
 * Where the desk finds a rendition, through the storage port that PHOTOWIRE_STORAGE
 * names. Only the exact shape `ab/cd/<sha256>/<thumb.webp|preview.jpg>` is served; anything else
 * is null (the route's 404).
 * - local folder: streamed, and the real path must stay inside the folder (a symlink planted
 *   there leads nowhere);
 * - S3: a redirect to a presigned GET that answers with the immutable Cache-Control and the
 *   rendition's type, or (`proxy`, PHOTOWIRE_STORAGE_PROXY=1) streamed through the server.
 */
export class RenditionSource {
  private readonly known = new Map<string, { size: number; until: number }>();
  private origin: Promise<string | null> | null = null;

  constructor(
    private readonly storage: StoragePort,
    private readonly opts: { proxy: boolean },
  ) {}

  /** `proxy`: stream it even when the storage answers by redirect (a guarded photo gets no presigned URL: anyone holding one could fetch it for 15 minutes, and the store answers it immutable). */
  async open(p: RenditionParams, opts: { proxy?: boolean } = {}): Promise<RenditionAnswer | null> {
    const contentType = FILES.get(p.file);
    if (!contentType || !isRenditionShape(p)) return null;
    const etag = `"${p.sha256.slice(0, 16)}-${p.file}"`;
    const root = this.storage.localRoot;
    if (root !== null) return openConfined(root, p, contentType, etag);

    const key = renditionKey(p.sha256, p.file);
    const size = await this.sizeOf(key);
    if (size === null) return null;
    if (!this.opts.proxy && !opts.proxy) {
      return {
        kind: 'redirect',
        location: await this.storage.url(key, {
          expiresInSeconds: PRESIGNED_SECONDS,
          cacheControl: IMMUTABLE,
          contentType,
        }),
      };
    }
    const body = await this.storage.getStream(key);
    if (!body) {
      this.known.delete(key);
      return null;
    }
    return { kind: 'stream', body, contentType, size, etag };
  }

  /** Whether renditions are answered by a redirect to the storage (S3 without the proxy). */
  get redirects(): boolean {
    return this.storage.localRoot === null && !this.opts.proxy;
  }

  /**
   * The origin the presigned URLs lead to (for the page's img-src), or null when renditions are
   * streamed by this server. Computed once, from a presigned URL of a key that need not exist
   * (signing asks nothing of the store); a failure is not kept, so the next page asks again.
   */
  storageOrigin(): Promise<string | null> {
    if (!this.redirects) return Promise.resolve(null);
    this.origin ??= this.storage
      .url(renditionKey('0'.repeat(64), 'thumb.webp'), { expiresInSeconds: 60 })
      .then((u) => new URL(u).origin)
      .catch((err: unknown) => {
        this.origin = null;
        throw err;
      });
    return this.origin;
  }

  /** The object's size, or null when there is none; a HEAD at most every few minutes per object. */
  private async sizeOf(key: string): Promise<number | null> {
    const now = Date.now();
    const hit = this.known.get(key);
    if (hit && hit.until > now) return hit.size;
    const info = await this.storage.head(key);
    if (!info) return null;
    if (this.known.size >= KNOWN_MAX) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, { size: info.size, until: now + REDIRECT_MAX_AGE_SECONDS * 1000 });
    return info.size;
  }
}

async function openConfined(
  dataDir: string,
  p: RenditionParams,
  contentType: string,
  etag: string,
): Promise<RenditionAnswer | null> {
  const root = await fs.realpath(dataDir);
  let real: string;
  try {
    real = await fs.realpath(path.join(root, 'renditions', p.a, p.b, p.sha256, p.file));
  } catch {
    return null;
  }
  if (!real.startsWith(root + path.sep)) return null;
  const st = await fs.stat(real);
  return { kind: 'stream', body: createReadStream(real), contentType, size: st.size, etag };
}
