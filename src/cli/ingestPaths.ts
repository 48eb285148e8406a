import { loadFeed } from '../adapters/feeds/loadFeed';
import { isInputError } from '../core/errors';
import { enqueueFeed } from '../queues/enqueueFeed';
import type { Runtime } from '../app/runtime';

export interface IngestOutcome {
  path: string;
  batchId: string | null;
  created: boolean;
  expected: number;
  /** A feed that could not be read at all: the CLI shows it, the other feeds go on. */
  error: { code: string; message: string } | null;
}

export async function ingestPaths(rt: Runtime, paths: string[]): Promise<IngestOutcome[]> {
  const out: IngestOutcome[] = [];
  for (const p of paths) {
    try {
      const feed = await loadFeed(p, rt.config.maxFeedBytes);
      const r = await enqueueFeed({ catalog: rt.ctx.catalog, flow: rt.flow, prefix: rt.config.prefix, attempts: rt.config.attempts }, feed);
      rt.logger.info({ batchId: r.batchId, feed: feed.feedPath, format: feed.format, items: r.expected, created: r.created }, 'feed enqueued');
      out.push({ path: p, batchId: r.batchId, created: r.created, expected: r.expected, error: null });
    } catch (err) {
      if (!isInputError(err)) throw err;
      out.push({ path: p, batchId: null, created: false, expected: 0, error: { code: err.code, message: err.message } });
    }
  }
  return out;
}
