import { activeIndexKey, listClusterView } from '../../app/clusters/listClusterView';
import { printable } from '../../core/terminalText';
import { parseSince } from '../../app/kills';
import { rebuildCaptionIndex } from '../../adapters/redis/captionIndexRebuild';
import { Progress } from '../progress';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';
import { formatClusters } from '../clustersText';

const STORY_ID = /^[0-9a-f]{16}$/;

/**
 * Clusters with their size, canonical caption (once) and members, each with its credit line and
 * its words that differ from the canonical caption. Clusters of 2+ by default (issue 17);
 * `--min-size 1` shows singletons; `--batch` keeps the clusters touching a batch, `--story` those of
 * one story (issue 27; every size unless --min-size says otherwise).
 */
export async function clustersCommand(opts: { batch?: string; story?: string; minSize?: number; json?: boolean }): Promise<number> {
  if (opts.story !== undefined && !STORY_ID.test(opts.story)) throw new UsageError(printable`--story ${opts.story}: a story id is 16 hex digits (photowire clusters shows each cluster's story)`);
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    // With --story, singletons are clusters of the story too: all of them by default.
    const minSize = opts.minSize ?? (opts.story ? 1 : 2);
    const clusters = await listClusterView(rt.ctx, { batch: opts.batch, story: opts.story, minSize });
    if (!clusters) {
      const noBatch = opts.batch !== undefined && !(await rt.ctx.catalog.getBatch(opts.batch));
      process.stderr.write(noBatch ? printable`no batch ${opts.batch} (photowire status lists recent batches)\n` : printable`no story ${opts.story}\n`);
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(clusters, null, 2) + '\n' : formatClusters(clusters, minSize));
    return 0;
  } finally {
    await rt.close();
  }
}

/**
 * photowire clusters rebuild [--since DATE]: the index of PHOTOWIRE_DEDUP_THRESHOLD (and this
 * code's signature version) built from the catalog, batches oldest first, with a progress bar on
 * stderr; the active index keeps serving until the swap of `<prefix>:dedup:active` at the end.
 */
export async function clustersRebuildCommand(opts: { since?: string; json?: boolean }): Promise<number> {
  let since: Date | undefined;
  if (opts.since !== undefined) {
    const t = parseSince(opts.since);
    if (t === null) throw new UsageError(`--since ${opts.since}: give an ISO date such as 2026-11-01, or a duration such as 30d, 12h`);
    since = new Date(t);
  }
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const bar = new Progress('rebuilding caption index');
    const out = await rebuildCaptionIndex({
      redis: rt.redis,
      catalog: rt.ctx.catalog,
      prefix: rt.config.prefix,
      threshold: rt.config.dedupThreshold,
      since,
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.end();
    if (opts.json) {
      process.stdout.write(JSON.stringify({ ...out, pointer: activeIndexKey(rt.config.prefix) }) + '\n');
      return 0;
    }
    const { created, joined, known } = out.outcomes;
    process.stdout.write(
      `rebuilt ${out.base} from ${out.batches} batch(es)${out.resumedAfter ? ` after ${out.resumedAfter}` : ''}, ${out.captions} caption(s): ${created} cluster(s) created, ${joined} joined, ${known} already indexed\n` +
        (out.previous === out.base ? `${activeIndexKey(rt.config.prefix)} already named it\n` : `${activeIndexKey(rt.config.prefix)}: ${out.previous} -> ${out.base} (the old keys are kept)\n`) +
        `patched the cluster of ${out.patched} record(s) in ${out.patchedBatches} batch(es) to the new index's\n`,
    );
    return 0;
  } finally {
    await rt.close();
  }
}
