import { batchIdFor, itemIdFor, itemIndexOf } from '../../../src/core/ids';

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

  it('itemIndexOf inverts itemIdFor, past 9,999 items too, and refuses another batch\'s ids', () => {
    for (const i of [0, 40, 9998, 9999, 123456]) expect(itemIndexOf('b-1', itemIdFor('b-1', i))).toBe(i);
    expect(itemIndexOf('b-1', 'b-2-0001')).toBeNull();
    expect(itemIndexOf('b-1', 'b-1-0000')).toBeNull();
    expect(itemIndexOf('b-1', 'b-1-12a')).toBeNull();
  });
});
