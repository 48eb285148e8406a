import type { ClusterDiff } from '../../schemas/record';
import { Runtime } from '../runtime';

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

/** Clusters with their size, canonical caption and members; `--batch` keeps those touching a batch. */
export async function clustersCommand(opts: { batch?: string; minSize?: number; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    let itemIds: string[] | undefined;
    // Members' word-level differences from the canonical caption, from the batch's records.
    const diffs = new Map<string, ClusterDiff>();
    if (opts.batch) {
      if (!(await rt.ctx.catalog.getBatch(opts.batch))) {
        process.stderr.write(`no batch ${opts.batch} (photowire status lists recent batches)\n`);
        return 1;
      }
      const records = await rt.ctx.catalog.getRecords(opts.batch);
      itemIds = records.map((r) => r.id);
      for (const r of records) if (r.cluster?.diff) diffs.set(r.id, r.cluster.diff);
    }
    const clusters = await rt.ctx.captions.listClusters({ minSize: opts.minSize, itemIds });
    clusters.sort((a, b) => b.size - a.size || a.canonicalId.localeCompare(b.canonicalId));
    if (opts.json) {
      const withDiffs = clusters.map((c) => ({ ...c, members: c.members.map((m) => (diffs.has(m.itemId) ? { ...m, diff: diffs.get(m.itemId) } : m)) }));
      process.stdout.write(JSON.stringify(withDiffs, null, 2) + '\n');
      return 0;
    }
    if (clusters.length === 0) process.stdout.write('no clusters\n');
    for (const c of clusters) {
      const caption = c.canonicalCaption.length > 160 ? `${c.canonicalCaption.slice(0, 157)}...` : c.canonicalCaption;
      process.stdout.write(`cluster ${c.id}  ${c.size} caption(s)  canonical ${c.canonicalId}\n  "${caption}"\n`);
      for (const m of c.members) {
        const d = diffs.get(m.itemId);
        process.stdout.write(`    ${m.itemId}  ${m.exact ? 'exact' : `similarity ${m.similarity.toFixed(2)}`}${d ? `  ${formatDiff(d)}` : ''}\n`);
      }
    }
    return 0;
  } finally {
    await rt.close();
  }
}
