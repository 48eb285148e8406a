import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadFeed } from '../../../../src/adapters/feeds/loadFeed';
import { syntheticPhoto } from '../../../../src/sample/syntheticPhoto';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';

const MB = 1 << 20;

/** Folder feeds and single photos as loadFeed reads them (attack 2 and the two "Also" items). */
describe('loadFeed: folders and single photos', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = makeTmpDir('loadfolder');
    dirs.push(d);
    return d;
  };
  let photo: Buffer;
  beforeAll(async () => {
    photo = await syntheticPhoto({ width: 320, height: 240, seed: 77 });
  });
  afterAll(() => dirs.forEach(removeDir));

  const later = (file: string) => {
    const t = Date.now() / 1000 + 7200;
    utimesSync(file, t, t);
  };

  it('the same photo bytes with a new mtime land on the same batch; other bytes do not', async () => {
    const d = tmp();
    const file = path.join(d, 'photo.jpg');
    writeFileSync(file, photo);
    const first = await loadFeed(file, 64 * MB);
    later(file);
    expect((await loadFeed(file, 64 * MB)).batchId).toBe(first.batchId);
    writeFileSync(file, await syntheticPhoto({ width: 320, height: 240, seed: 78 }));
    expect((await loadFeed(file, 64 * MB)).batchId).not.toBe(first.batchId);
  });

  it('a folder copied again with new mtimes lands on the same batch; a renamed or changed photo makes a new one', async () => {
    const d = path.join(tmp(), 'set');
    mkdirSync(path.join(d, 'sub'), { recursive: true });
    writeFileSync(path.join(d, 'a.jpg'), photo);
    writeFileSync(path.join(d, 'sub', 'b.jpg'), photo);
    const first = await loadFeed(d, 64 * MB);
    later(path.join(d, 'a.jpg'));
    later(path.join(d, 'sub', 'b.jpg'));
    expect((await loadFeed(d, 64 * MB)).batchId).toBe(first.batchId);
    copyFileSync(path.join(d, 'a.jpg'), path.join(d, 'c.jpg'));
    expect((await loadFeed(d, 64 * MB)).batchId).not.toBe(first.batchId);
  });

  it('dot files, special files, symlinked folders and links leaving the folder are named in the warnings or refused, never skipped without a word', async () => {
    const outside = tmp();
    writeFileSync(path.join(outside, 'secret.jpg'), photo);
    const d = path.join(tmp(), 'gallery');
    mkdirSync(path.join(d, '.cache'), { recursive: true });
    writeFileSync(path.join(d, 'ok.jpg'), photo);
    writeFileSync(path.join(d, '..jpg'), photo);
    writeFileSync(path.join(d, '.cache', 'x.jpg'), photo);
    expect(spawnSync('mkfifo', [path.join(d, 'pipe.jpg')]).status).toBe(0);
    symlinkSync('.', path.join(d, 'loop'));
    symlinkSync(path.join(outside, 'secret.jpg'), path.join(d, 'sneaky.jpg'));
    symlinkSync('ok.jpg', path.join(d, 'alias.jpg'));
    const feed = await loadFeed(d, 64 * MB);
    expect(feed.items.map((i) => [path.basename(i.source.file), i.error?.code ?? null])).toEqual([
      ['alias.jpg', null],
      ['ok.jpg', null],
      ['sneaky.jpg', 'PATH_OUTSIDE_FEED'],
    ]);
    expect(feed.items[2]).toMatchObject({
      image: null,
      error: { message: expect.stringContaining(`${d}/sneaky.jpg is a symlink to`) },
    });
    expect(feed.warnings.sort()).toEqual([
      `${d}/..jpg: skipped, a hidden file (its name starts with a dot)`,
      `${d}/.cache: skipped, a hidden folder (its name starts with a dot)`,
      `${d}/loop: skipped, a symlinked folder (to .) is never followed`,
      `${d}/pipe.jpg: skipped, not a regular file (a FIFO)`,
    ]);
  });
});
