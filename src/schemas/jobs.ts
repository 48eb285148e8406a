import { z } from 'zod';
import { feedItemSchema } from './feedItem';

/** One item of a batch: everything the item worker needs, so a retry never re-reads the feed. */
export const itemJobSchema = z.object({
  batchId: z.string().min(1),
  itemId: z.string().min(1),
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
