import { z } from 'zod';
import { feedItemSchema } from './feedItem';

/** One item of a batch: everything the item worker needs, so a retry never re-reads the feed. */
export const itemJobSchema = z.object({
  batchId: z.string().min(1),
  itemId: z.string().min(1),
  /**
   * The item's index in its batch, 0..expected-1 and dense: the key of its record and of its item
   * id. Not `item.source.position`, the item's place in the feed (a NewsML-G2 picture after a text
   * item is position 1, index 0). Optional for jobs queued before it existed (derived from itemId).
   */
  index: z.number().int().nonnegative().optional(),
  /** Images of this item must resolve inside this folder (the feed's folder). */
  root: z.string().min(1),
  item: feedItemSchema,
});
export type ItemJob = z.infer<typeof itemJobSchema>;

/**
 * Caption-only items of one range of batch indexes [from, to), one job (src/core/itemChunks.ts):
 * each item is run through the same item pipeline as an item job, the chunk's records stored in
 * one step. Item ids are derived from the batch id and index (src/core/ids.ts).
 */
export const itemChunkJobSchema = z
  .object({
    batchId: z.string().min(1),
    root: z.string().min(1),
    from: z.number().int().nonnegative(),
    to: z.number().int().positive(),
    items: z
      .array(z.object({ index: z.number().int().nonnegative(), item: feedItemSchema }))
      .min(1)
      .max(1000),
  })
  .refine(
    (c) =>
      c.from < c.to &&
      c.items.every((x, i) => x.index >= c.from && x.index < c.to && (i === 0 || x.index > c.items[i - 1].index)),
    {
      message: 'items must be in index order, inside [from, to)',
    },
  );
export type ItemChunkJob = z.infer<typeof itemChunkJobSchema>;

/** The parent of a batch's item jobs: runs once, when the last item has ended. */
export const batchJobSchema = z.object({
  batchId: z.string().min(1),
  /** PHOTOWIRE_CHUNK_SIZE when the batch was enqueued (absent: every item was its own job): finds the chunk that carried an item. */
  chunkSize: z.number().int().min(1).max(1000).optional(),
  /**
   * The ledger's round this job closes (absent: 1, the batch as ingested; a retry's finalize job
   * carries the round its reopen began). A job of an earlier round than the ledger's does nothing.
   */
  round: z.number().int().min(1).optional(),
});
export type BatchJob = z.infer<typeof batchJobSchema>;
