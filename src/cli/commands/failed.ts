import { listFailed, RECENT_BATCHES } from '../../app/batches/listFailed';
import { printable } from '../../core/terminalText';
import { plural } from '../plural';
import { Runtime } from '../../app/runtime';

/**
 * Failed items with their code, message, attempts and source: one batch, or the recent ones.
 * Exit 0 when the listing could be made (an empty one included), 1 for an unknown batch.
 */
export async function failedCommand(opts: { batch?: string; json?: boolean }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const listing = await listFailed(rt.ctx, opts.batch);
    if (listing === null) {
      process.stderr.write(printable`no batch ${opts.batch} (photowire status lists recent batches)\n`);
      return 1;
    }
    if (opts.json) {
      process.stdout.write(JSON.stringify(listing, null, 2) + '\n');
      return 0;
    }
    if (listing.length === 0) {
      process.stdout.write(
        opts.batch
          ? printable`batch ${opts.batch}: no failed items\n`
          : `no failed items in the last ${RECENT_BATCHES} batches\n`,
      );
      return 0;
    }
    let current = '';
    for (const f of listing) {
      if (f.batchId !== current) {
        current = f.batchId;
        process.stdout.write(
          printable`batch ${f.batchId}  ${f.expiresAt ? `failed items expire ${f.expiresAt} (retention, ${plural(rt.config.retentionDays, 'day')})` : `still running: its failed items expire ${plural(rt.config.retentionDays, 'day')} after it is done`}\n`,
        );
      }
      // Attempts of every round: a failure retried and failed again adds up ("3 attempts (2 retries)").
      const retries = f.retries ? ` (${plural(f.retries, 'retry', 'retries')})` : '';
      const moved = f.movedFrom ? `  (dropped as ${f.movedFrom})` : '';
      // The source and message name the feed's files: escaped, a newline in a file name starts no line.
      process.stdout.write(
        printable`  ${f.itemId}  ${f.code}  ${plural(f.attempts, 'attempt')}${retries}  ${f.source}${moved}\n      ${f.message}\n`,
      );
    }
    process.stdout.write(
      `${listing.length} failed item${listing.length === 1 ? '' : 's'}; \`photowire retry <batchId|itemId>\` runs them again\n`,
    );
    return 0;
  } finally {
    await rt.close();
  }
}
