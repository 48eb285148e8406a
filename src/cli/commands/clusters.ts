import type { ClusterDiff } from '../../schemas/record';
import { recordsOfItems } from '../../app/clusterMembers';
import { itemIdFor } from '../../core/ids';
import { parseSince } from '../../app/kills';
import { activePointerKey } from '../../adapters/redis/captionIndex';
import { rebuildCaptionIndex } from '../../adapters/redis/captionIndexRebuild';
import { Progress } from '../progress';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';

/** One member's differences on one line: word 2 "supporter" -> "supporters", word 0 -"A", word 9 +"heavily guarded". */
export function formatDiff(d: ClusterDiff): string {
  const runs = d.edits.map((e) => {
    const at = `@${e.at}`;
    if (!e.inserted) return `${at} -"${e.deleted}"`;
    if (!e.deleted) return `${at} +"${e.inserted}"`;
    return `${at} "${e.deleted}" -> "${e.inserted}"`;
  });
  if (d.more > 0) runs.push(`(+${d.more} more)`);
  return runs.length === 0 ? 'same words' : runs.join('; ');
}

/**
 * Clusters with their size, canonical caption (once) and members, each with its credit line and
 * its words that differ from the canonical caption. Clusters of 2+ by default (issue 17);
 * `--min-size 1` shows singletons; `--batch` keeps the clusters touching a batch.
 */
export async function clustersCommand(opts: { batch?: string; minSize?: number; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const minSize = opts.minSize ?? 2;
    let itemIds: string[] | undefined;
    if (opts.batch) {
      const ledger = await rt.ctx.catalog.getBatch(opts.batch);
      if (!ledger) {
        process.stderr.write(`no batch ${opts.batch} (photowire status lists recent batches)\n`);
        return 1;
      }
      // The batch's item ids come from its ledger (ids are made from batch and position): its records are not read (issue 14).
      const batchId = opts.batch;
      itemIds = Array.from({ length: ledger.expected }, (_, i) => itemIdFor(batchId, i));
    }
    const clusters = (await rt.ctx.captions.listClusters({ minSize, itemIds })).filter((c) => c.size >= minSize);
    clusters.sort((a, b) => b.size - a.size || a.canonicalId.localeCompare(b.canonicalId));
    // Members live in their batches' records (credit line, cluster.diff): the members' records only, by batch index.
    const records = await recordsOfItems(
      rt.ctx.catalog,
      clusters.flatMap((c) => c.members.map((m) => m.itemId)),
    );
    if (opts.json) {
      const out = clusters.map((c) => ({
        ...c,
        members: c.members.map((m) => {
          const r = records.get(m.itemId);
          return { ...m, credit: r?.credit.line ?? null, ...(r?.cluster?.diff ? { diff: r.cluster.diff } : {}) };
        }),
      }));
      process.stdout.write(JSON.stringify(out, null, 2) + '\n');
      return 0;
    }
    if (clusters.length === 0) process.stdout.write(minSize > 1 ? `no clusters of ${minSize} or more (--min-size 1 lists single captions)\n` : 'no clusters\n');
    for (const c of clusters) {
      const caption = c.canonicalCaption.length > 160 ? `${c.canonicalCaption.slice(0, 157)}...` : c.canonicalCaption;
      process.stdout.write(`cluster ${c.id}  ${c.size} caption(s)  canonical ${c.canonicalId}\n  "${caption}"\n`);
      for (const m of c.members) {
        const r = records.get(m.itemId);
        const d = r?.cluster?.diff;
        const credit = r?.credit.line ? `  [${r.credit.line}]` : '';
        const kind = m.itemId === c.canonicalId ? 'canonical' : m.exact ? 'exact' : `similarity ${m.similarity.toFixed(2)}`;
        process.stdout.write(`    ${m.itemId}  ${kind}${credit}${d ? `  ${formatDiff(d)}` : ''}\n`);
      }
    }
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
      process.stdout.write(JSON.stringify({ ...out, pointer: activePointerKey(`${rt.config.prefix}:dedup`) }) + '\n');
      return 0;
    }
    const { created, joined, known } = out.outcomes;
    process.stdout.write(
      `rebuilt ${out.base} from ${out.batches} batch(es)${out.resumedAfter ? ` after ${out.resumedAfter}` : ''}, ${out.captions} caption(s): ${created} cluster(s) created, ${joined} joined, ${known} already indexed\n` +
        (out.previous === out.base ? `${activePointerKey(`${rt.config.prefix}:dedup`)} already named it\n` : `${activePointerKey(`${rt.config.prefix}:dedup`)}: ${out.previous} -> ${out.base} (the old keys are kept)\n`) +
        `patched the cluster of ${out.patched} record(s) in ${out.patchedBatches} batch(es) to the new index's\n`,
    );
    return 0;
  } finally {
    await rt.close();
  }
}
