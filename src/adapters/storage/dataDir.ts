import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { InputError } from '../../core/errors';
import { StorageError } from './storagePort';

/**
 * The data directory: content-addressed originals and renditions, per-batch exports.
 * Every write goes to data/tmp first and is renamed into place, so a killed worker never
 * leaves a half-written file where a reader could find it.
 */
export class DataDir {
  readonly root: string;
  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** `ab/cd/<sha256>`: two levels of fan-out keep directories small at millions of photos. */
  static shard(sha256: string): string {
    return path.join(sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  renditionDir(sha256: string): string {
    return path.join('renditions', DataDir.shard(sha256));
  }

  originalPath(sha256: string, ext: string): string {
    return path.join('originals', `${DataDir.shard(sha256)}.${ext}`);
  }

  batchDir(batchId: string): string {
    return path.join('batches', batchId);
  }

  abs(rel: string): string {
    const p = path.resolve(this.root, rel);
    if (p !== this.root && !p.startsWith(this.root + path.sep)) {
      throw new Error(`refusing a path outside the data directory: ${rel}`);
    }
    return p;
  }

  async exists(rel: string): Promise<boolean> {
    try {
      await fs.access(this.abs(rel));
      return true;
    } catch {
      return false;
    }
  }

  async readJson<T>(rel: string): Promise<T | null> {
    try {
      return JSON.parse(await fs.readFile(this.abs(rel), 'utf8')) as T;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /**
   * Write via a temp file in data/tmp and rename: readers see the old file or the whole new one.
   * `data` may be an async iterable of chunks (a large export written as it is read).
   * `beforeRename` runs with the temp file written and not yet renamed (a test hook for that window).
   */
  async writeAtomic(
    rel: string,
    data: Buffer | string | AsyncIterable<string>,
    opts: { beforeRename?: () => Promise<void> } = {},
  ): Promise<void> {
    const target = this.abs(rel);
    const tmpDir = path.join(this.root, 'tmp');
    const tmp = path.join(tmpDir, `${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
    try {
      await fs.mkdir(tmpDir, { recursive: true });
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(tmp, data);
      if (opts.beforeRename) await opts.beforeRename();
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      const e = err as NodeJS.ErrnoException;
      // Only the file system's own errors are storage failures; one from the data being written (a
      // Redis read behind an iterable, a test hook) is passed on as it is.
      if (!e?.syscall) throw err;
      // A full or read-only disk is transient from the item's point of view: retried with backoff.
      throw new StorageError(`cannot write ${target}: ${e.code ?? ''} ${e.message}`, { cause: err });
    }
  }

  /**
   * Remove temp files left by processes that are gone (a worker killed mid-write).
   * Files of live processes are kept: they may be mid-rename.
   */
  async sweepTemp(): Promise<number> {
    const tmpDir = path.join(this.root, 'tmp');
    let names: string[];
    try {
      names = await fs.readdir(tmpDir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const pid = Number(name.split('-')[0]);
      if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) continue;
      await fs.rm(path.join(tmpDir, name), { force: true });
      removed++;
    }
    return removed;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Read an image named by a feed: its real path (symlinks followed) must stay inside the feed's
 * real root, and its size must be under the cap before a byte is read.
 */
export async function readConfinedFile(root: string, file: string, maxBytes: number): Promise<Buffer> {
  let real: string;
  let realRoot: string;
  try {
    realRoot = await fs.realpath(root);
    real = await fs.realpath(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new InputError('IMAGE_NOT_FOUND', `${file}: no such file`);
    }
    throw err;
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new InputError(
      'PATH_OUTSIDE_FEED',
      `${file} resolves (through a symlink) to ${real}, outside the feed folder ${realRoot}`,
    );
  }
  const st = await fs.stat(real);
  if (!st.isFile()) throw new InputError('IMAGE_NOT_FOUND', `${file}: not a regular file`);
  if (st.size > maxBytes) {
    throw new InputError(
      'IMAGE_TOO_LARGE',
      `${file}: ${(st.size / 1048576).toFixed(1)} MB is over the file-size cap of ${(maxBytes / 1048576).toFixed(0)} MB (PHOTOWIRE_MAX_FILE_MB)`,
    );
  }
  return fs.readFile(real);
}
