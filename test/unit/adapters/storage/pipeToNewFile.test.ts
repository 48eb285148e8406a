import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeToNewFile } from '../../../../src/adapters/storage/pipeToNewFile';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';

/**
 * A source that fails while the file's open is still pending: the put's caller removes its temp
 * file when the write rejects, so the file must exist (and be closed) by then, not appear a moment
 * later. CI once found a `tmp/*.tmp` left after a failed put on a loaded machine; here the open is
 * slowed on purpose so the order is the same every time.
 */
describe('pipeToNewFile', () => {
  let dir: string;
  beforeEach(() => (dir = makeTmpDir('pipe-to-file')));
  afterEach(() => removeDir(dir));

  async function* broken(): AsyncGenerator<Buffer> {
    yield Buffer.from('new partial');
    throw new Error('the source went away');
  }

  it('rejects only once the file is closed, so removing it on the rejection leaves nothing behind', async () => {
    // The module object the file streams call (the namespace import's properties are read-only).
    const nodeFs = require('node:fs') as { open: (...a: unknown[]) => void };
    const open = nodeFs.open;
    nodeFs.open = (...args: unknown[]) => void setTimeout(() => open(...args), 150);
    const file = path.join(dir, 'a.tmp');
    try {
      await expect(pipeToNewFile(file, Readable.from(broken()))).rejects.toThrow('the source went away');
    } finally {
      nodeFs.open = open;
    }
    await fs.promises.rm(file, { force: true });
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('writes every byte of a good source, and never over an existing file', async () => {
    const file = path.join(dir, 'b.tmp');
    await pipeToNewFile(file, Readable.from([Buffer.from('one '), Buffer.from('two')]));
    expect(fs.readFileSync(file, 'utf8')).toBe('one two');
    await expect(pipeToNewFile(file, Readable.from([Buffer.from('three')]))).rejects.toMatchObject({ code: 'EEXIST' });
    expect(fs.readFileSync(file, 'utf8')).toBe('one two');
  });
});
