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

/** The parent of a batch's item jobs: runs once, when the last item has ended. */
export const batchJobSchema = z.object({
  batchId: z.string().min(1),
});
export type BatchJob = z.infer<typeof batchJobSchema>;
