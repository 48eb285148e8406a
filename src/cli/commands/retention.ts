import { Runtime } from '../../app/runtime';
import { escapeTerminalLines, printable } from '../../core/terminalText';
import { retentionService } from '../../app/retention/retentionRuntime';
import { formatReport } from '../../core/retention/plan';

/**
 * `photowire retention [--dry-run] [--json]`: one retention pass by hand (the worker process runs
 * it every PHOTOWIRE_RETENTION_EVERY, a day by default): batches finished more than
 * PHOTOWIRE_RETENTION_DAYS ago leave Redis, their export staying in storage; prints what it removed
 * (or would remove). One pass at a time: while another holds the lock, nothing is done (exit 0).
 * Exit 0; 1 when a batch past the window was kept because its export is missing.
 */
export async function retentionCommand(opts: { dryRun?: boolean; json?: boolean; now?: string }): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const now = opts.now ? new Date(opts.now) : new Date();
    if (Number.isNaN(now.getTime())) {
      process.stderr.write(printable`--now: not a date: ${opts.now}\n`);
      return 2;
    }
    const run = await retentionService(rt).run({ trigger: 'cli', now, dryRun: opts.dryRun ?? false });
    if (!run.ran) {
      process.stdout.write(
        opts.json
          ? JSON.stringify(run, null, 2) + '\n'
          : `retention: another pass is running (${run.holder ?? 'its lease just ended'}); it removes what this one would: nothing done\n`,
      );
      return 0;
    }
    const { report, bytesFreed } = run;
    if (opts.json) process.stdout.write(JSON.stringify({ ...report, bytesFreed }, null, 2) + '\n');
    else
      process.stdout.write(
        escapeTerminalLines(formatReport(report)) +
          (bytesFreed !== null && !report.dryRun
            ? `\n  Redis memory freed ${bytesFreed} bytes (INFO used_memory)`
            : '') +
          '\n',
      );
    return report.keptNoExport.length > 0 ? 1 : 0;
  } finally {
    await rt.close();
  }
}
