import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { walkFolder, WALK_YIELD_EVERY, type WalkEntry } from '../../../../src/adapters/feeds/walkFolder';
import { listFolder } from '../../../../src/app/schedules/listFolder';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';
import { scaledMs } from '../../../helpers/deadline';

/** Every folder walk is bounded, never follows a symlink, yields to the event loop and stops when asked (attack 2). */
describe('walkFolder: bounded, symlinks never followed', () => {
  const dirs: string[] = [];
  const tmp = () => {
    const d = makeTmpDir('walk');
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach(removeDir));

  it('a folder holding a -> . and b -> . is walked once: the links are entries, never entered (listFolder too)', async () => {
    const d = tmp();
    writeFileSync(path.join(d, 'photo.jpg'), 'x');
    symlinkSync('.', path.join(d, 'a'));
    symlinkSync('.', path.join(d, 'b'));
    const seen: WalkEntry[] = [];
    await walkFolder(d, (e) => void seen.push(e));
    expect(seen.map((e) => [e.rel, e.kind])).toEqual([
      ['a', 'symlink'],
      ['b', 'symlink'],
      ['photo.jpg', 'file'],
    ]);
    // The scheduled-folder listing: it used to stat() and descend into a/ and b/ (about 2^40 paths).
    const t0 = Date.now();
    const listing = await listFolder(d);
    expect(Date.now() - t0).toBeLessThan(scaledMs(1000)); // scaled by the load (test/helpers/deadline.ts)
    expect(listing.files.map((f) => f.rel).sort()).toEqual(['a', 'b', 'photo.jpg']);
  });

  it('past the entry or depth bound it stops with FEED_TOO_LARGE naming the folder', async () => {
    const wide = tmp();
    for (let i = 0; i < 60; i++) writeFileSync(path.join(wide, `f${i}.jpg`), '');
    await expect(walkFolder(wide, () => undefined, { maxEntries: 50 })).rejects.toMatchObject({
      code: 'FEED_TOO_LARGE',
      message: expect.stringContaining(`${wide}: more than 50 files and folders below it`),
    });
    const deep = tmp();
    mkdirSync(path.join(deep, 'l1/l2/l3/l4/l5'), { recursive: true });
    await expect(walkFolder(deep, () => undefined, { maxDepth: 3 })).rejects.toMatchObject({
      code: 'FEED_TOO_LARGE',
      message: expect.stringContaining(`${deep}: folders nested deeper than 3 levels (at l1/l2/l3)`),
    });
    await expect(walkFolder(deep, () => undefined, { maxDepth: 6 })).resolves.toEqual({ entries: 5 });
  });

  it('gives the event loop a turn while it walks a big folder, and stops at once when its signal aborts', async () => {
    const d = tmp();
    for (let i = 0; i < 2000; i++) writeFileSync(path.join(d, `f${String(i).padStart(4, '0')}.txt`), '');
    let visits = 0;
    let visitsWhenTurnCame = -1;
    setImmediate(() => (visitsWhenTurnCame = visits));
    await walkFolder(d, () => void visits++);
    expect(visits).toBe(2000);
    expect(visitsWhenTurnCame).toBeGreaterThanOrEqual(0);
    expect(visitsWhenTurnCame).toBeLessThanOrEqual(WALK_YIELD_EVERY);

    const stop = new AbortController();
    let after = 0;
    const walk = walkFolder(
      d,
      () => {
        if (++after === 10) stop.abort(new Error('watcher stopping'));
      },
      { signal: stop.signal },
    );
    await expect(walk).rejects.toThrow('watcher stopping');
    expect(after).toBe(10);
  });
});
