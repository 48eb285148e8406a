import {
  ancestorsOf,
  besideMovedFeed,
  moveKeysFor,
  relocateItem,
  relocatePath,
  relocateSource,
} from '../../../src/core/feeds/relocate';

const moves = new Map([
  ['/hot/night2', '/hot/processed/2026-12-04/night2-2'],
  ['/hot/wire.csv', '/hot/processed/2026-12-04/wire.csv'],
  ['/hot/a.jpg', '/hot/processed/2026-12-04/a-2.jpg'],
]);

describe('where a batch’s files are now (hot-folder moves)', () => {
  it('maps a moved entry, and anything inside a moved folder, to the new place; the rest stays', () => {
    expect(relocatePath('/hot/night2/sub/empty.jpg', moves)).toBe('/hot/processed/2026-12-04/night2-2/sub/empty.jpg');
    expect(relocatePath('/hot/night2', moves)).toBe('/hot/processed/2026-12-04/night2-2');
    expect(relocatePath('/hot/a.jpg', moves)).toBe('/hot/processed/2026-12-04/a-2.jpg');
    expect(relocatePath('/hot/night22/x.jpg', moves)).toBeNull();
    expect(relocatePath('relative/x.jpg', moves)).toBeNull();
    expect(ancestorsOf('/hot/a/b.jpg')).toEqual(['/hot/a/b.jpg', '/hot/a', '/hot', '/']);
  });

  it('keeps the line of a failure source, and looks up the file and its folders', () => {
    expect(relocateSource('/hot/wire.csv:3', moves)).toBe('/hot/processed/2026-12-04/wire.csv:3');
    expect(relocateSource('/hot/night2/empty.jpg', moves)).toBe('/hot/processed/2026-12-04/night2-2/empty.jpg');
    expect(relocateSource('https://wire.example/x.jpg', moves)).toBeNull();
    expect(moveKeysFor(['/hot/wire.csv:3'])).toEqual(
      expect.arrayContaining(['/hot/wire.csv:3', '/hot/wire.csv', '/hot', '/']),
    );
  });

  it('a photo the feed named that never arrived is looked for beside the moved feed, unless it is still in the hot folder', () => {
    expect(besideMovedFeed('/hot/late.jpg', '/hot/wire.csv', moves)).toBe('/hot/processed/2026-12-04/late.jpg');
    expect(besideMovedFeed('/elsewhere/late.jpg', '/hot/wire.csv', moves)).toBeNull();
    const item = { image: '/hot/late.jpg', source: { file: '/hot/wire.csv', position: 1 } };
    expect(relocateItem(item, '/hot/wire.csv', moves, () => false)).toEqual({
      image: '/hot/processed/2026-12-04/late.jpg',
      source: { file: '/hot/processed/2026-12-04/wire.csv', position: 1 },
    });
    // Still in the hot folder (another feed there names it and moves it later): read from there.
    expect(relocateItem(item, '/hot/wire.csv', moves, (p) => p === '/hot/late.jpg').image).toBe('/hot/late.jpg');
    const url = { image: 'https://wire.example/x.jpg', source: { file: '/feeds/x.xml' } };
    expect(relocateItem(url, '/feeds/x.xml', moves, () => true)).toBe(url);
  });
});
