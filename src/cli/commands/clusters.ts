import { Runtime } from '../runtime';

/** Clusters with their size, canonical caption and members; `--batch` keeps those touching a batch. */
export async function clustersCommand(opts: { batch?: string; minSize?: number; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    let itemIds: string[] | undefined;
    if (opts.batch) {
      if (!(await rt.ctx.catalog.getBatch(opts.batch))) {
        process.stderr.write(`no batch ${opts.batch} (photowire status lists recent batches)\n`);
        return 1;
      }
      itemIds = (await rt.ctx.catalog.getRecords(opts.batch)).map((r) => r.id);
    }
    const clusters = await rt.ctx.captions.listClusters({ minSize: opts.minSize, itemIds });
    clusters.sort((a, b) => b.size - a.size || a.canonicalId.localeCompare(b.canonicalId));
    if (opts.json) {
      process.stdout.write(JSON.stringify(clusters, null, 2) + '\n');
      return 0;
    }
    if (clusters.length === 0) process.stdout.write('no clusters\n');
    for (const c of clusters) {
      const caption = c.canonicalCaption.length > 160 ? `${c.canonicalCaption.slice(0, 157)}...` : c.canonicalCaption;
      process.stdout.write(`cluster ${c.id}  ${c.size} caption(s)  canonical ${c.canonicalId}\n  "${caption}"\n`);
      for (const m of c.members) {
        process.stdout.write(`    ${m.itemId}  ${m.exact ? 'exact' : `similarity ${m.similarity.toFixed(2)}`}\n`);
      }
    }
    return 0;
  } finally {
    await rt.close();
  }
}
