import { promises as fs, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { LocalDirStorage } from '../../src/adapters/storage/localStorage';
import { openStorage } from '../../src/adapters/storage/openStorage';
import { StorageConfigError, StorageError } from '../../src/adapters/storage/storagePort';
import { parseStorageConfig } from '../../src/config';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * The local-directory adapter beyond the shared contract: a put is atomic (temp file in
 * `<root>/tmp`, then rename), a failed write is STORAGE_FAILED and leaves nothing behind, a
 * folder that cannot be written is a configuration error at open, and no settings = ./data.
 */
describe('local-directory storage', () => {
  let dir: string;
  let s: LocalDirStorage;
  beforeEach(async () => {
    dir = makeTmpDir('storage-local');
    s = new LocalDirStorage(dir);
    await s.open();
  });
  afterEach(() => removeDir(dir));

  it('a streamed put is invisible until its last byte is written (temp + rename), then whole', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* body(): AsyncGenerator<Uint8Array> {
      yield Buffer.alloc(1 << 20, 1);
      await gate;
      yield Buffer.alloc(1 << 20, 2);
    }
    const key = 'originals/ab/cd/photo.jpg';
    const writing = s.put(key, body());
    // Wait (up to 10 s: a loaded CI box can take well over 100 ms to open and fill the temp
    // file) until the first half is on disk; the gate holds the second half back meanwhile.
    const tmpDir = path.join(dir, 'tmp');
    let temps: string[] = [];
    for (let waited = 0; waited < 10_000; waited += 20) {
      temps = await fs.readdir(tmpDir).catch(() => []);
      if (temps.length === 1 && (await fs.stat(path.join(tmpDir, temps[0]!))).size === 1 << 20) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    // Half the bytes are on disk, in tmp/, not under the key.
    expect(await s.head(key)).toBeNull();
    expect(temps).toHaveLength(1);
    expect((await fs.stat(path.join(tmpDir, temps[0]!))).size).toBe(1 << 20);
    release();
    await writing;
    expect((await s.head(key))!.size).toBe(2 << 20);
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('a body that fails mid-stream leaves neither the object nor a temp file, and the old bytes stay', async () => {
    const key = 'batches/b1/records.ndjson';
    await s.put(key, 'old');
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('new partial');
      throw new Error('the source went away');
    }
    await expect(s.put(key, broken())).rejects.toThrow('the source went away');
    expect((await s.get(key))!.toString()).toBe('old');
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('a target the file system refuses: STORAGE_FAILED naming the path, no temp file left', async () => {
    writeFileSync(path.join(dir, 'renditions'), 'a file where a folder should be');
    const err = (await s
      .put('renditions/ab/thumb.webp', Readable.from([Buffer.from('x')]))
      .catch((e: unknown) => e)) as StorageError;
    expect(err).toBeInstanceOf(StorageError);
    expect(err.code).toBe('STORAGE_FAILED');
    expect(err.message).toContain(path.join(dir, 'renditions', 'ab', 'thumb.webp'));
    const err2 = (await s.putIfAbsent('renditions/ab/renditions.json', '{}').catch((e: unknown) => e)) as StorageError;
    expect(err2.code).toBe('STORAGE_FAILED');
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
  });

  it("keys under tmp/ are the adapter's own: refused, and never listed", async () => {
    await expect(s.put('tmp/x', 'y')).rejects.toThrow(/tmp\//);
    await s.put('a/b', 'c');
    await fs.writeFile(path.join(dir, 'tmp', '123-stale.tmp'), 'half');
    const keys: string[] = [];
    for await (const o of s.list('')) keys.push(o.key);
    expect(keys).toEqual(['a/b']);
  });

  it('url() with a urlBase gives the desk route (keys percent-encoded per segment)', async () => {
    const desk = new LocalDirStorage(dir, { urlBase: '/api/' });
    expect(await desk.url('batches/b 1/summary.json')).toBe('/api/batches/b%201/summary.json');
  });

  it('a folder that cannot be made or written: a configuration error at open naming it', async () => {
    const file = path.join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const err = (await openStorage({ kind: 'local', root: path.join(file, 'data') }).catch(
      (e: unknown) => e,
    )) as StorageConfigError;
    expect(err).toBeInstanceOf(StorageConfigError);
    expect(err.reason).toBe('not-writable');
    expect(err.message).toContain(path.join(file, 'data'));
  });

  it('no settings: the local folder ./data (photowire run keeps working as before)', async () => {
    const cfg = parseStorageConfig({});
    expect(cfg).toEqual({ kind: 'local', root: path.resolve('./data') });
    const port = await openStorage({ kind: 'local', root: dir });
    expect(port.kind).toBe('local');
  });
});
