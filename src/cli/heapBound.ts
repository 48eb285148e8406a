import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Keeps a long streaming loop's JavaScript heap near `limitMb` (export).
 *
 * Why: `export` of a 100,000-item batch holds about 37 MB live (the CLI's modules and one page),
 * yet V8, left alone, lets the old generation fill with dead pages up to ~160 MB before its next
 * full collection (it sizes the heap from the allocation rate, not from what is live), so the
 * process peaked at 251-265 MB RSS. `--max-old-space-size` would cap it but can only be given at
 * start-up; this asks for a full collection, between pages, once the heap passes the limit.
 * With an 80 MB limit a 100k export peaks near 175 MB for ~10% more CPU (docs/BENCHMARKS.md).
 */
export interface HeapBound {
  /** Collect when the heap is over the limit; true when it did. Call between units of work. */
  check(): boolean;
  /** Full collections asked for so far. */
  readonly collections: number;
}

let gcFn: (() => void) | null = null;

function gcFunction(): () => void {
  if (!gcFn) {
    // `--expose-gc` set at run time is seen by contexts created after it: a new one hands back `gc`.
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  return gcFn;
}

export function heapBound(limitMb: number): HeapBound {
  const gc = gcFunction();
  const limit = limitMb * 2 ** 20;
  let collections = 0;
  return {
    check() {
      if (getHeapStatistics().used_heap_size <= limit) return false;
      gc();
      collections++;
      return true;
    },
    get collections() {
      return collections;
    },
  };
}
