import type { LoadedFeed, LoadOptions } from '../../adapters/feeds/loadFeed';
import type { BatchLedger } from '../../adapters/redis/catalogStore';
import { isInputError } from '../../core/errors';
import type { EnqueueResult } from '../../queues/enqueueFeed';
import type { BatchQueue, BatchSummaries, Clock, FeedLoader, IngestLogger, LedgerSource } from './ports';
import { LedgerLostError, waitForBatches, type WaitOptions } from './waitForBatches';

export interface IngestOutcome {
  path: string;
  batchId: string | null;
  created: boolean;
  expected: number;
  /** A feed that could not be read at all: the CLI shows it, the other feeds go on. */
  error: { code: string; message: string } | null;
}

export interface IngestPorts<S> {
  loader: FeedLoader;
  queue: BatchQueue;
  ledgers: LedgerSource;
  summaries: BatchSummaries<S>;
  logger: IngestLogger;
  /** config.ledgerLostMs (PHOTOWIRE_LEDGER_LOST_MS): the waits' bound on a missing ledger or a silent Redis. */
  lostMs: number;
  clock?: Clock;
}

export interface TakeResult<S> {
  enqueued: EnqueueResult;
  ledger: BatchLedger;
  summary: S | null;
}

/**
 * Load a feed, enqueue it, wait for it, summarize it: written once, for `ingest`, `run`, `retry`,
 * the hot-folder watcher, the scheduler and the server's feed route. All I/O is behind the ports
 * passed in (src/app/ingest/ports.ts); the service never touches BullMQ or Redis itself.
 */
export class IngestService<S = unknown> {
  constructor(private readonly ports: IngestPorts<S>) {}

  /** Read one feed (a file or folder) as a batch to be; an unreadable feed throws an InputError. */
  load(feedPath: string, opts?: LoadOptions): Promise<LoadedFeed> {
    return this.ports.loader.load(feedPath, opts);
  }

  /** Put a loaded feed on the queues. The same feed again adds nothing (`created: false`). */
  enqueue(feed: LoadedFeed): Promise<EnqueueResult> {
    return this.ports.queue.enqueue(feed);
  }

  /**
   * Load and enqueue each feed, one batch each. A feed that cannot be read at all (an InputError:
   * unknown format, too big, a path outside the feed) is an outcome with its error, and the other
   * feeds go on; anything else (Redis gone) throws.
   */
  async ingest(paths: string[]): Promise<IngestOutcome[]> {
    const out: IngestOutcome[] = [];
    for (const p of paths) {
      try {
        const feed = await this.load(p);
        const r = await this.enqueue(feed);
        this.ports.logger.info(
          { batchId: r.batchId, feed: feed.feedPath, format: feed.format, items: r.expected, created: r.created },
          'feed enqueued',
        );
        out.push({ path: p, batchId: r.batchId, created: r.created, expected: r.expected, error: null });
      } catch (err) {
        if (!isInputError(err)) throw err;
        out.push({
          path: p,
          batchId: null,
          created: false,
          expected: 0,
          error: { code: err.code, message: err.message },
        });
      }
    }
    return out;
  }

  /** Wait until every batch is done (src/app/ingest/waitForBatches.ts: survives a Redis restart, can be aborted). */
  wait(batchIds: string[], opts: WaitOptions = {}): Promise<BatchLedger[]> {
    return waitForBatches(this.ports.ledgers, batchIds, {
      logger: this.ports.logger,
      clock: this.ports.clock,
      ...opts,
      lostMs: opts.lostMs ?? this.ports.lostMs,
    });
  }

  /** The summaries of the batches, in order, each knowing the others as the same run's; null for a batch without a ledger. */
  summarize(batchIds: string[]): Promise<Array<S | null>> {
    return Promise.all(batchIds.map((id) => this.ports.summaries.summarize(id, batchIds)));
  }

  /**
   * One feed from start to end: enqueue, `onEnqueued` (the watcher and scheduler record their run),
   * wait, summarize. The wait is aborted by `signal`.
   */
  async take(
    feed: LoadedFeed,
    opts: Omit<WaitOptions, 'recreate'> & { onEnqueued?: (r: EnqueueResult) => Promise<void> } = {},
  ): Promise<TakeResult<S>> {
    const { onEnqueued, ...wait } = opts;
    const enqueued = await this.enqueue(feed);
    await onEnqueued?.(enqueued);
    const [ledger] = await this.wait([feed.batchId], wait);
    const [summary] = await this.summarize([feed.batchId]);
    return { enqueued, ledger, summary };
  }

  /**
   * Re-create a batch whose ledger vanished (Redis restarted without its data) from its feed: the
   * same feed (same content, so the same batch id) is enqueued again; items already recorded are
   * counted, not run twice into the counts. A feed changed since is a LedgerLostError.
   */
  async recreate(feedPath: string, batchId: string): Promise<string> {
    const feed = await this.load(feedPath);
    if (feed.batchId !== batchId) {
      throw new LedgerLostError(
        `batch ${batchId}: its ledger is gone from Redis and ${feedPath} has changed since (it is now batch ${feed.batchId}): ingest it again as a new batch`,
        [batchId],
      );
    }
    const r = await this.enqueue(feed);
    const ledger = await this.ports.ledgers.getBatch(batchId);
    return `batch ${batchId}: re-created from ${feedPath} (${r.expected} items, ${ledger ? ledger.ok + ledger.failed : 0} already recorded)`;
  }
}
