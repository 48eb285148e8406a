import { Runtime } from '../../app/runtime';
import { retentionOnRuntime } from '../../app/retention/retentionRuntime';
import { formatReport } from '../../core/retention/plan';

/**
 * `photowire retention [--dry-run] [--json]`: one retention pass by hand (the worker process runs
 * it daily): batches finished more than PHOTOWIRE_RETENTION_DAYS ago leave Redis, their export
 * staying in storage; prints what it removed (or would remove). Exit 0; 1 when a batch past the
 * window was kept because its export is missing.
 */
export async function retentionCommand(opts: { dryRun?: boolean; json?: boolean; now?: string }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const now = opts.now ? new Date(opts.now) : new Date();
    if (Number.isNaN(now.getTime())) {
      process.stderr.write(`--now: not a date: ${opts.now}\n`);
      return 2;
    }
    const report = await retentionOnRuntime(rt, { now, dryRun: opts.dryRun ?? false });
    process.stdout.write(opts.json ? JSON.stringify(report, null, 2) + '\n' : formatReport(report) + '\n');
    return report.keptNoExport.length > 0 ? 1 : 0;
  } finally {
    await rt.close();
  }
}
