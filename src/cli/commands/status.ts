import { formatSummary } from '../printSummary';
import { Runtime } from '../../app/runtime';

export async function statusCommand(batchId: string | undefined, opts: { json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    if (!batchId) {
      const ids = await rt.ctx.catalog.listBatches(20);
      const ledgers = (await Promise.all(ids.map((id) => rt.ctx.catalog.getBatch(id)))).filter((l) => l);
      if (opts.json) process.stdout.write(JSON.stringify(ledgers, null, 2) + '\n');
      else if (ledgers.length === 0) process.stdout.write('no batches yet\n');
      else for (const l of ledgers) process.stdout.write(`${l!.id}  ${l!.state.padEnd(7)} ${l!.ok}/${l!.expected} ok, ${l!.failed} failed  ${l!.createdAt}  ${l!.feed}\n`);
      return 0;
    }
    const [s] = await rt.ingest.summarize([batchId]);
    if (!s) {
      process.stderr.write(`no batch ${batchId} (photowire status lists recent batches)\n`);
      return 1;
    }
    process.stdout.write(opts.json ? JSON.stringify(s, null, 2) + '\n' : formatSummary(s) + '\n');
    return 0;
  } finally {
    await rt.close();
  }
}
