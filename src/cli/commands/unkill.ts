import { liftKill } from '../../app/kills';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';

/** photowire unkill <killId> --reason: lift a kill (kept in the audit trail with who, when and why). */
export async function unkillCommand(killId: string, opts: { reason?: string; json?: boolean }): Promise<number> {
  if (!opts.reason || !opts.reason.trim())
    throw new UsageError('photowire unkill needs --reason "<why>" (it is kept with the kill, who lifted it and when)');
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const out = await liftKill(rt.ctx, killId, opts.reason.trim());
    if (opts.json) {
      process.stdout.write(JSON.stringify(out) + '\n');
      return 0;
    }
    const e = out.event;
    if (out.state === 'already')
      process.stdout.write(
        printable`kill ${e.id} was already lifted (${e.lifted?.at} by ${e.lifted?.by}: ${e.lifted?.reason})\n`,
      );
    else
      process.stdout.write(
        printable`lifted ${e.status} ${e.targets.join(', ')} (kill ${e.id}): ${out.restored} record(s) no longer ${e.status} by it; it stands for nothing more\n`,
      );
    return 0;
  } finally {
    await rt.close();
  }
}
