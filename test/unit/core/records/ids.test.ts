import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { batchIdFor, itemIdFor, itemIndexOf, parseItemId } from '../../../../src/core/ids';

describe('content-derived ids', () => {
  it('gives the same feed the same batch id, and a changed feed a new one', () => {
    const a = batchIdFor('/drop/wire-gallery-2012.txt', 'abc');
    expect(batchIdFor('/drop/wire-gallery-2012.txt', 'abc')).toBe(a);
    expect(batchIdFor('/drop/wire-gallery-2012.txt', 'abd')).not.toBe(a);
    expect(batchIdFor('/other/wire-gallery-2012.txt', 'abc')).not.toBe(a);
    expect(a).toMatch(/^wire-gallery-2012-[0-9a-f]{12}$/);
  });
  it('numbers items from 1 in feed order, safe as BullMQ job ids', () => {
    expect(itemIdFor('b-1', 0)).toBe('b-1-0001');
    expect(itemIdFor('b-1', 40)).toBe('b-1-0041');
    expect(itemIdFor('b-1', 0)).not.toContain(':');
  });

  it("itemIndexOf inverts itemIdFor, past 9,999 items too, and refuses another batch's ids", () => {
    for (const i of [0, 40, 9998, 9999, 123456]) expect(itemIndexOf('b-1', itemIdFor('b-1', i))).toBe(i);
    expect(itemIndexOf('b-1', 'b-2-0001')).toBeNull();
    expect(itemIndexOf('b-1', 'b-1-0000')).toBeNull();
    expect(itemIndexOf('b-1', 'b-1-12a')).toBeNull();
  });

  it('parseItemId reads an item id by grammar alone, or as an id of a batch it is given', () => {
    const batch = batchIdFor('/drop/afp-0912.xml', 'abc');
    for (const i of [0, 6, 9999, 123456])
      expect(parseItemId(itemIdFor(batch, i))).toEqual({ batchId: batch, index: i });
    // a batch id is not an item id, even when its 12 hex digits are all decimal
    expect(parseItemId('feed-123456789012')).toBeNull();
    expect(parseItemId(`${batch}-0000`)).toBeNull();
    expect(parseItemId(`${batch}-12`)).toBeNull();
    expect(parseItemId(`${batch}-0001x`)).toBeNull();
    // with its batch: any batch id, and only that batch's (`a-b-0001` is not an item of `a`)
    expect(parseItemId('a-b-0001', 'a-b')).toEqual({ batchId: 'a-b', index: 0 });
    expect(parseItemId('a-b-0001', 'a')).toBeNull();
    expect(parseItemId(itemIdFor(batch, 3), 'other')).toBeNull();
  });

  it('no other file under src/ spells the item-id grammar (`-0007` suffix) as a regex of its own', () => {
    const src = path.resolve(__dirname, '../../../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
      );
    const offenders = files(src)
      .filter((f) => path.relative(src, f) !== path.join('core', 'ids.ts'))
      .filter((f) => /-\(?\\d\{4,\d*\}\)?\$/.test(readFileSync(f, 'utf8')))
      .map((f) => path.relative(src, f));
    expect(offenders).toEqual([]);
  });
});
