import { formatSummary } from '../printSummary';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { archivedBatches } from '../../app/retention/retentionRuntime';
import { archivedSince } from '../../app/retention/archivedBatches';

export async function statusCommand(batchId: string | undefined, opts: { json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    if (!batchId) {
      const ids = await rt.ctx.catalog.listBatches(20);
      const ledgers = (await Promise.all(ids.map((id) => rt.ctx.catalog.getBatch(id)))).filter((l) => l);
      // Batches retention moved out of Redis are listed after the live ones, newest first.
      const archived = (await archivedBatches(rt.ctx).list(20)).map((e) => ({ ...e, state: 'archived' as const }));
      const rows = [...ledgers.map((l) => ({ ...l!, archivedAt: undefined as string | undefined })), ...archived];
      if (opts.json) process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
      else if (rows.length === 0) process.stdout.write('no batches yet\n');
      else
        for (const l of rows) {
          const where = l.archivedAt ? `  (archived on ${l.archivedAt.slice(0, 10)}: read from storage)` : '';
          process.stdout.write(
            printable`${l.id}  ${l.state.padEnd(8)} ${l.ok}/${l.expected} ok, ${l.failed} failed  ${l.createdAt}  ${l.feed}${where}\n`,
          );
        }
      return 0;
    }
    const [live] = await rt.ingest.summarize([batchId]);
    // A batch retention removed from Redis: its summary.json in storage, read-only.
    const archived = live ? null : await archivedBatches(rt.ctx).open(batchId);
    const s = live ?? archived;
    if (!s) {
      process.stderr.write(printable`no batch ${batchId} (photowire status lists recent batches)\n`);
      return 1;
    }
    const note = archived ? printable`  ${archivedSince(archived)}: read from storage, read-only\n` : '';
    process.stdout.write(opts.json ? JSON.stringify(s, null, 2) + '\n' : formatSummary(s) + '\n' + note);
    return 0;
  } finally {
    await rt.close();
  }
}
