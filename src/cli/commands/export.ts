import { Runtime } from '../runtime';

/** The batch's records as NDJSON on stdout, in feed order (failed items included, with `error`). */
export async function exportCommand(batchId: string): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    if (!(await rt.ctx.catalog.getBatch(batchId))) {
      process.stderr.write(`no batch ${batchId} (photowire status lists recent batches)\n`);
      return 1;
    }
    for (const r of await rt.ctx.catalog.getRecords(batchId)) {
      if (!process.stdout.write(JSON.stringify(r) + '\n')) await new Promise((res) => process.stdout.once('drain', res));
    }
    return 0;
  } finally {
    await rt.close();
  }
}
