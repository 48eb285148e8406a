/**
 * Which items of a batch go as one job each and which in chunks: an item with a photo
 * (a file or a URL) is one job, as it always was (libvips, its own retries); items without one,
 * caption-only, go as one job per chunk of batch indexes [k*size, (k+1)*size), holding the
 * caption-only items of that range. A chunk is named by its range alone, so the job that carried
 * an item is found from the item's index and the size (finalize's lost items, `retry`), and the
 * same feed enqueued twice gives the same chunks (content-derived job ids).
 */

/** The range of batch indexes [from, to) of the chunk holding `index`. */
export function chunkRangeOf(index: number, size: number, expected: number): { from: number; to: number } {
  const from = Math.floor(index / size) * size;
  return { from, to: Math.min(from + size, expected) };
}

/** Whether an item goes in a chunk: it names no photo. */
export function isChunked(item: { image?: string | null }, size: number): boolean {
  return size > 1 && !item.image;
}

export interface JobPlan {
  /** Batch indexes that are one job each (photos; every item when size is 1). */
  single: number[];
  /** Chunks in index order: their range and the batch indexes they carry (never empty). */
  chunks: Array<{ from: number; to: number; indexes: number[] }>;
}

/** The jobs of a batch's items, in index order. */
export function planItemJobs(items: ReadonlyArray<{ image?: string | null }>, size: number): JobPlan {
  const single: number[] = [];
  const chunks: JobPlan['chunks'] = [];
  for (let index = 0; index < items.length; index++) {
    if (!isChunked(items[index], size)) {
      single.push(index);
      continue;
    }
    const { from, to } = chunkRangeOf(index, size, items.length);
    const last = chunks[chunks.length - 1];
    if (last && last.from === from) last.indexes.push(index);
    else chunks.push({ from, to, indexes: [index] });
  }
  return { single, chunks };
}
