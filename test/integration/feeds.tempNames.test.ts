import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadFeed } from '../../src/adapters/feeds/loadFeed';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Issue 17: temporary names are never items, whatever else says the folder is ready. A folder
 * feed (`photowire ingest DIR`, a folder dropped into a hot folder) holding `cp.jpg.part`,
 * `x.tmp`, `y.crdownload` or `z.jpg~` lists each in its warnings; before, a `.part` whose head
 * sniffed as a JPEG became an item of half a photo.
 */
describe('temp-named files inside folder feeds', () => {
  const root = makeTmpDir('tempnames');
  afterAll(() => removeDir(root));
  const MAX = 64 << 20;

  it('a folder of photos: .part, .tmp, .crdownload and ~ files are warnings, never items', async () => {
    const dir = path.join(root, 'photos');
    mkdirSync(dir);
    const photo = await syntheticPhoto({ width: 320, height: 240, seed: 1801 });
    writeFileSync(path.join(dir, 'a.jpg'), photo);
    for (const name of ['cp.jpg.part', 'x.tmp', 'y.jpg.crdownload', 'z.jpg~'])
      writeFileSync(path.join(dir, name), photo.subarray(0, 3000));
    const feed = await loadFeed(dir, MAX);
    expect(feed.items.map((i) => path.basename(i.image!))).toEqual(['a.jpg']);
    for (const name of ['cp.jpg.part', 'x.tmp', 'y.jpg.crdownload', 'z.jpg~']) {
      expect(feed.warnings).toContain(
        `${path.join(dir, name)}: skipped, a temporary name (a file still being written is never an item)`,
      );
    }
  });

  it('a folder holding a feed and its photos: a temp-named photo is a warning, never an item', async () => {
    const dir = path.join(root, 'bundle');
    mkdirSync(dir);
    const photo = await syntheticPhoto({ width: 320, height: 240, seed: 1802 });
    writeFileSync(path.join(dir, 'a.jpg'), photo);
    writeFileSync(path.join(dir, 'b.jpg.part'), photo.subarray(0, 3000));
    writeFileSync(
      path.join(dir, 'feed.csv'),
      'ID,Caption,Credit,Image\nX1,"A caption. (Photo: Jane Halloran/Northwind Press)",Jane Halloran/Northwind Press,a.jpg\n',
    );
    const feed = await loadFeed(dir, MAX);
    expect(feed.format).toBe('folder-bundle');
    expect(feed.items.map((i) => path.basename(i.image ?? i.source.file))).toEqual(['a.jpg']);
    expect(feed.warnings).toContain(
      `${path.join(dir, 'b.jpg.part')}: skipped, a temporary name (a file still being written is never an item)`,
    );
  });
});
