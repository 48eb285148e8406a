import { listClusterView, showClusterView } from '../../app/clusters/listClusterView';
import { printable } from '../../core/terminalText';
import { rebuildCaptionIndex } from '../../adapters/redis/captionIndexRebuild';
import { Progress } from '../progress';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';
import { formatCluster, formatClusters } from '../clustersText';

const STORY_ID = /^[0-9a-f]{16}$/;

/**
 * Clusters with their size, canonical caption (once) and members, each with its credit line and
 * its words that differ from the canonical caption. Clusters of 2+ by default;
 * `--min-size 1` shows singletons; `--batch` keeps the clusters touching a batch, `--story` those of
 * one story (every size unless --min-size says otherwise).
 */
export async function clustersCommand(opts: {
  batch?: string;
  story?: string;
  minSize?: number;
  json?: boolean;
}): Promise<number> {
  if (opts.story !== undefined && !STORY_ID.test(opts.story))
    throw new UsageError(
      printable`--story ${opts.story}: a story id is 16 hex digits (photowire clusters shows each cluster's story)`,
    );
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    // With --story, singletons are clusters of the story too: all of them by default.
    const minSize = opts.minSize ?? (opts.story ? 1 : 2);
    const clusters = await listClusterView(rt.ctx, { batch: opts.batch, story: opts.story, minSize });
    if (!clusters) {
      const noBatch = opts.batch !== undefined && !(await rt.ctx.catalog.getBatch(opts.batch));
      process.stderr.write(
        noBatch
          ? printable`no batch ${opts.batch} (photowire status lists recent batches)\n`
          : printable`no story ${opts.story}\n`,
      );
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(clusters, null, 2) + '\n' : formatClusters(clusters, minSize));
    return 0;
  } finally {
    await rt.close();
  }
}

const CLUSTER_ID = /^[0-9a-f]{15}[0-9a-fx]$/;

/** `photowire clusters show <id>`: one cluster, every member with its credit, its word diff and why it joined. */
export async function clustersShowCommand(clusterId: string, opts: { json?: boolean }): Promise<number> {
  if (!CLUSTER_ID.test(clusterId))
    throw new UsageError(printable`${clusterId}: a cluster id is 16 hex digits (photowire clusters lists them)`);
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const cluster = await showClusterView(rt.ctx, clusterId);
    if (!cluster) {
      process.stderr.write(`no cluster ${clusterId}\n`);
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(cluster, null, 2) + '\n' : formatCluster(cluster));
    return 0;
  } finally {
    await rt.close();
  }
}

/**
 * photowire clusters rebuild: a fresh caption-cluster index from the whole catalog, batches oldest
 * first, each record's `cluster` patched to its new answer, with a progress bar on stderr; finalize
 * jobs wait for it (it holds the index's batch lock). The old threshold index's keys are deleted.
 */
export async function clustersRebuildCommand(opts: { json?: boolean }): Promise<number> {
  // The one command that opens a Redis whose index is refused: it is what the refusal asks for.
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn', checkClusterIndex: false });
  try {
    const bar = new Progress('rebuilding caption clusters');
    const out = await rebuildCaptionIndex({
      redis: rt.redis,
      catalog: rt.ctx.catalog,
      prefix: rt.config.prefix,
      onProgress: (done, total) => bar.update(done, total),
    });
    bar.end();
    if (opts.json) {
      process.stdout.write(JSON.stringify(out) + '\n');
      return 0;
    }
    const { created, joined } = out.outcomes;
    process.stdout.write(
      `rebuilt ${out.base} from ${out.batches} batch(es), ${out.records} record(s), ${out.captions} caption(s): ${created} cluster(s), ${joined} caption(s) joined one\n` +
        `patched the cluster of ${out.patched} record(s)\n` +
        (out.oldKeysDeleted > 0 ? `deleted ${out.oldKeysDeleted} key(s) of the old threshold index\n` : ''),
    );
    return 0;
  } finally {
    await rt.close();
  }
}
