import { randomBytes } from 'node:crypto';
import { createReadStream, promises as fs, constants as fsConstants, type Stats } from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { assertKey, isStreamBody, StorageConfigError, StorageError } from './storagePort';
import { pipeToNewFile } from './pipeToNewFile';
import type { ObjectInfo, PutBody, PutIfAbsentResult, PutOptions, StoragePort } from './storagePort';

/** Temp files live in `<root>/tmp` (as DataDir's do, so DataDir.sweepTemp clears both); no key may start there. */
const TMP = 'tmp';

/**
 * The local-directory adapter (the default: `photowire run` works with no settings). An object
 * is a file `<root>/<key>`; every write goes to `<root>/tmp` first and is renamed (put) or
 * hard-linked (putIfAbsent: link(2) fails with EEXIST when the name is taken, atomically) into
 * place, so a reader never sees half a file. Content type and cache control are not kept: the
 * desk derives them from the file name (src/server/routes/renditions.ts).
 */
export class LocalDirStorage implements StoragePort {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly describe: string;
  private readonly urlBase: string | undefined;

  get localRoot(): string {
    return this.root;
  }

  constructor(root: string, opts: { urlBase?: string } = {}) {
    this.root = path.resolve(root);
    this.describe = `local folder ${this.root}`;
    this.urlBase = opts.urlBase;
  }

  async open(): Promise<void> {
    try {
      await fs.mkdir(path.join(this.root, TMP), { recursive: true });
      await fs.access(path.join(this.root, TMP), fsConstants.W_OK);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new StorageConfigError(
        'not-writable',
        `PHOTOWIRE_STORAGE: the folder ${this.root} cannot be written (${e.code ?? e.message})`,
      );
    }
  }

  private abs(key: string): string {
    assertKey(key);
    if (key === TMP || key.startsWith(`${TMP}/`))
      throw new Error(`refusing storage key ${JSON.stringify(key)}: tmp/ holds the adapter's temp files`);
    return path.join(this.root, ...key.split('/'));
  }

  /** Write the body to a fresh temp file; the caller moves it into place or removes it. */
  private async writeTemp(body: PutBody): Promise<string> {
    const dir = path.join(this.root, TMP);
    const tmp = path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    await fs.mkdir(dir, { recursive: true });
    try {
      if (isStreamBody(body)) {
        await pipeToNewFile(tmp, body instanceof Readable ? body : Readable.from(body));
      } else {
        await fs.writeFile(tmp, body, { flag: 'wx' });
      }
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw err;
    }
    return tmp;
  }

  async put(key: string, body: PutBody, _opts: PutOptions = {}): Promise<void> {
    const target = this.abs(key);
    let tmp: string | undefined;
    try {
      tmp = await this.writeTemp(body);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(tmp, target);
    } catch (err) {
      if (tmp) await fs.rm(tmp, { force: true }).catch(() => undefined);
      throw fault('write', target, err);
    }
  }

  async putIfAbsent(key: string, body: Buffer | string, opts: PutOptions = {}): Promise<PutIfAbsentResult> {
    const target = this.abs(key);
    let tmp: string | undefined;
    try {
      tmp = await this.writeTemp(body);
      if (opts.beforeCommit) await opts.beforeCommit();
      await fs.mkdir(path.dirname(target), { recursive: true });
      try {
        await fs.link(tmp, target);
        return 'created';
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
        throw err;
      }
    } catch (err) {
      throw fault('write', target, err);
    } finally {
      if (tmp) await fs.rm(tmp, { force: true }).catch(() => undefined);
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const file = this.abs(key);
    try {
      return await fs.readFile(file);
    } catch (err) {
      if (isAbsent(err)) return null;
      throw fault('read', file, err);
    }
  }

  async getStream(key: string): Promise<Readable | null> {
    const file = this.abs(key);
    const st = await this.statFile(file);
    if (!st) return null;
    return createReadStream(file);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const st = await this.statFile(this.abs(key));
    return st ? { key, size: st.size, lastModified: st.mtime } : null;
  }

  private async statFile(file: string): Promise<Stats | null> {
    try {
      const st = await fs.stat(file);
      return st.isFile() ? st : null;
    } catch (err) {
      if (isAbsent(err)) return null;
      throw fault('read', file, err);
    }
  }

  /**
   * Files under the prefix in key order (UTF-8 byte order, as S3 lists). The folder the prefix
   * points into is walked whole (no symlink followed) and sorted before the first key is given.
   */
  async *list(prefix: string): AsyncIterable<ObjectInfo> {
    if (prefix !== '') assertKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
    const cut = prefix.lastIndexOf('/');
    const base = cut < 0 ? '' : prefix.slice(0, cut);
    const found: ObjectInfo[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(rel ? path.join(this.root, ...rel.split('/')) : this.root, { withFileTypes: true });
      } catch (err) {
        if (isAbsent(err)) return;
        throw fault('list', path.join(this.root, rel), err);
      }
      for (const e of entries) {
        const key = rel ? `${rel}/${e.name}` : e.name;
        if (!rel && e.name === TMP) continue;
        if (e.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(key);
        } else if (e.isFile() && key.startsWith(prefix)) {
          const st = await fs.stat(path.join(this.root, ...key.split('/'))).catch(() => null);
          if (st) found.push({ key, size: st.size, lastModified: st.mtime });
        }
      }
    };
    await walk(base);
    found.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
    yield* found;
  }

  async delete(key: string): Promise<void> {
    const file = this.abs(key);
    try {
      await fs.rm(file, { force: true });
    } catch (err) {
      throw fault('delete', file, err);
    }
  }

  async url(key: string): Promise<string> {
    const file = this.abs(key);
    if (this.urlBase !== undefined) return this.urlBase + key.split('/').map(encodeURIComponent).join('/');
    return pathToFileURL(file).href;
  }

  locate(key: string): string {
    return this.abs(key.endsWith('/') ? key.slice(0, -1) : key);
  }

  async close(): Promise<void> {}
}

function isAbsent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

/** The file system's own errors are storage faults (full, read-only, permissions); others pass as they are. */
function fault(op: 'read' | 'write' | 'list' | 'delete', file: string, err: unknown): unknown {
  const e = err as NodeJS.ErrnoException;
  if (!e?.syscall) return err;
  return new StorageError(`cannot ${op} ${file}: ${e.code ?? ''} ${e.message}`, { cause: err });
}
