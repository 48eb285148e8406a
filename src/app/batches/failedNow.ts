import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { Redis } from 'ioredis';
import type { FailedItem } from '../../adapters/redis/catalogStore';
import { DropMoves } from '../../adapters/redis/dropMoves';
import { relocateSource } from '../../core/feeds/relocate';
import { retryCanHelp } from '../../core/errors';
import { CarryingJobs } from '../../queues/itemJobs';
import type { Queues } from '../../queues/queues';
import { isFileNow, whereItIsNow } from './retryItems';

/** A failed item as it stands now: where its file is, and whether a retry can work. */
export interface FailedNow extends FailedItem {
  /** The path the item was read from, when a hot folder has moved it since (`source` is the new place). */
  movedFrom?: string;
  /** Can a retry change the outcome? Not for a feed-level failure, nor while the photo is not where a retry reads it. */
  retryable: boolean;
  /** Why not, when `retryable` is false. */
  retryNote?: string;
}

/**
 * Failed items with their sources where they are now (a hot folder moves a drop to
 * `processed/<day>/` once its batch ends, src/core/feeds/relocate.ts) and, for the first
 * `checkPhotos` of them, whether the photo a retry would read is there: the desk offers a retry
 * only where one can work (a photo that is gone fails the same way again).
 */
export async function failuresNow(
  deps: { redis: Redis; prefix: string; queues?: Queues },
  ledger: { id: string; feed: string; expected: number },
  failures: FailedItem[],
  opts: { checkPhotos?: number } = {},
): Promise<FailedNow[]> {
  const moves = new DropMoves(deps.redis, deps.prefix);
  const found = failures.length
    ? await moves.lookup(
        ledger.id,
        failures.map((f) => f.source),
      )
    : new Map<string, string>();
  const out: FailedNow[] = failures.map((f) => {
    const source = relocateSource(f.source, found);
    const canHelp = retryCanHelp(f.code);
    return {
      ...f,
      ...(source !== null && source !== f.source ? { source, movedFrom: f.source } : {}),
      retryable: canHelp,
      ...(canHelp
        ? {}
        : {
            retryNote:
              'the feed itself is bad at this item: retrying reads the same feed and fails the same way; fix the feed and drop it again',
          }),
    };
  });
  const check = Math.min(opts.checkPhotos ?? 0, out.length);
  if (check === 0 || !deps.queues) return out;
  const carrying = new CarryingJobs(deps.queues);
  for (const f of out.slice(0, check)) {
    if (!f.retryable) continue;
    const job = await carrying.find({
      batchId: ledger.id,
      itemId: f.itemId,
      index: f.index ?? f.position,
      expected: ledger.expected,
    });
    if (!job?.data) continue; // the job is gone: the retry reloads the feed, and says so if it cannot
    const now = await whereItIsNow(moves, ledger.feed, job.data);
    const photo = now.item.image;
    if (photo === null || !path.isAbsolute(photo) || isFileNow(photo)) continue;
    // A server that does not see the feed's folder at all (another machine's disk) cannot tell.
    if (!existsSync(now.root)) continue;
    f.retryable = false;
    f.retryNote = `no photo at ${photo} (where a retry reads it): put the photo there, then retry`;
  }
  return out;
}
