import {
  decodeCursor,
  encodeCursorEntry,
  newSinceCursor,
  prunableKeys,
  type Cursor,
} from '../../../../src/core/schedules/cursor';
import { selectFiles, type ListedFile } from '../../../../src/app/schedules/selectFiles';

const DAY = 86_400_000;

describe('the cursor of a scheduled import', () => {
  it('round-trips through its Redis encoding, ignoring garbage', () => {
    const c = decodeCursor({
      '/in/a.jpg': encodeCursorEntry({ signature: '10:5', takenAt: 1000 }),
      '/in/b.jpg': 'junk',
    });
    expect([...c]).toEqual([['/in/a.jpg', { signature: '10:5', takenAt: 1000 }]]);
  });

  it('what is new: unseen keys, and seen keys whose signature changed (a file rewritten in place)', () => {
    const cursor: Cursor = new Map([
      ['a', { signature: '1', takenAt: 0 }],
      ['b', { signature: '1', takenAt: 0 }],
    ]);
    const fresh = newSinceCursor(
      [
        { key: 'a', signature: '1' },
        { key: 'b', signature: '2' },
        { key: 'c', signature: '1' },
      ],
      cursor,
    );
    expect(fresh.map((e) => e.key)).toEqual(['b', 'c']);
  });

  it('forgets entries gone from the source only after the retention, and never on an empty listing', () => {
    const cursor: Cursor = new Map([
      ['old-gone', { signature: '', takenAt: 0 }],
      ['new-gone', { signature: '', takenAt: 40 * DAY }],
      ['present', { signature: '', takenAt: 0 }],
    ]);
    expect(prunableKeys(cursor, new Set(['present']), 45 * DAY, 30 * DAY)).toEqual(['old-gone']);
    expect(prunableKeys(cursor, new Set(), 45 * DAY, 30 * DAY)).toEqual([]);
  });
});

describe('which files a scheduled run takes', () => {
  const f = (rel: string, size: number, mtimeMs: number): ListedFile => ({ abs: `/in/${rel}`, rel, size, mtimeMs });
  const now = 1_000_000;

  it('new files untouched for the settle time; files still being written wait for the next run', () => {
    const listed = [f('b.jpg', 10, now - 60_000), f('a.xml', 5, now - 60_000), f('c.jpg', 10, now - 100)];
    const sel = selectFiles(listed, new Set(), new Map(), now, 5000);
    expect(sel.take.map((x) => x.rel)).toEqual(['a.xml', 'b.jpg']);
    expect(sel.young.map((x) => x.rel)).toEqual(['c.jpg']);
  });

  it('a marker makes a young file ready', () => {
    const sel = selectFiles([f('c.jpg', 10, now - 100)], new Set(['/in/c.jpg']), new Map(), now, 5000);
    expect(sel.take.map((x) => x.rel)).toEqual(['c.jpg']);
  });

  it('files taken before are left out; a file with a new size or mtime is a new version', () => {
    const cursor: Cursor = new Map([
      ['/in/a.jpg', { signature: `10:${now - 60_000}`, takenAt: 0 }],
      ['/in/b.jpg', { signature: `10:${now - 90_000}`, takenAt: 0 }],
    ]);
    const sel = selectFiles([f('a.jpg', 10, now - 60_000), f('b.jpg', 12, now - 60_000)], new Set(), cursor, now, 5000);
    expect(sel.take.map((x) => x.rel)).toEqual(['b.jpg']);
  });
});
