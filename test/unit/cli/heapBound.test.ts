import { getHeapStatistics } from 'node:v8';
import { heapBound } from '../../../src/cli/heapBound';

describe('heapBound (export keeps its heap near a limit)', () => {
  it('leaves the heap alone under the limit', () => {
    const bound = heapBound(64 * 1024);
    expect(bound.check()).toBe(false);
    expect(bound.collections).toBe(0);
  });

  it('runs a full collection over the limit, which frees dead objects', () => {
    let garbage: string[] | null = Array.from({ length: 20_000 }, (_, i) => `${'x'.repeat(1000)}${i}`);
    expect(garbage.length).toBe(20_000);
    garbage = null;
    const before = getHeapStatistics().used_heap_size;
    const bound = heapBound(0);
    expect(bound.check()).toBe(true);
    expect(bound.collections).toBe(1);
    // ~20 MB of unreachable strings are gone after the collection.
    expect(getHeapStatistics().used_heap_size).toBeLessThan(before - 10 * 2 ** 20);
  });
});
