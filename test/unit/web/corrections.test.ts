import { loadWebModule } from './loadWebModule';

type R = { id: string; status?: string; supersededBy?: string | null };
const { newerFirst, batchOfItem } = loadWebModule<{ newerFirst(r: R[]): R[]; batchOfItem(id: string): string }>(
  'lib/corrections.js',
);
const ids = (rs: R[]) => rs.map((r) => r.id);

describe('newerFirst (the desk puts a correction before what it replaces)', () => {
  it('moves a correction to the place of the first record it supersedes', () => {
    const rs: R[] = [{ id: 'a' }, { id: 'v1', status: 'superseded', supersededBy: 'v2' }, { id: 'b' }, { id: 'v2' }];
    expect(ids(newerFirst(rs))).toEqual(['a', 'v2', 'v1', 'b']);
  });
  it('follows a chain of corrections to the newest, keeping the older ones in feed order after it', () => {
    const rs: R[] = [
      { id: 'v1', status: 'superseded', supersededBy: 'v2' },
      { id: 'v2', status: 'superseded', supersededBy: 'v3' },
      { id: 'x' },
      { id: 'v3' },
    ];
    expect(ids(newerFirst(rs))).toEqual(['v3', 'v1', 'v2', 'x']);
  });
  it('keeps a superseded record in place when its correction is not on the page, and survives a cycle', () => {
    expect(ids(newerFirst([{ id: 'a' }, { id: 'v1', status: 'superseded', supersededBy: 'elsewhere' }]))).toEqual([
      'a',
      'v1',
    ]);
    const cyc = newerFirst([
      { id: 'p', status: 'superseded', supersededBy: 'q' },
      { id: 'q', status: 'superseded', supersededBy: 'p' },
    ]);
    expect(ids(cyc).sort()).toEqual(['p', 'q']);
  });
  it('finds the batch of an item id', () => {
    expect(batchOfItem('fire-64d68b993694-0002')).toBe('fire-64d68b993694');
  });
});
