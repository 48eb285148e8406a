import { listKills, manualKill, parseSince } from '../../app/kills';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';

/** photowire kill <itemId|agencyId> --reason: a manual kill, applied to every copy photowire has and will get. */
export async function killCommand(target: string, opts: { reason?: string; withdraw?: boolean; json?: boolean }): Promise<number> {
  if (!opts.reason || !opts.reason.trim()) throw new UsageError('photowire kill needs --reason "<why>" (it is shown on the desk and sent to the webhook)');
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const out = await manualKill(rt.ctx, target.trim(), opts.reason.trim(), { kind: opts.withdraw ? 'withdraw' : 'kill' });
    if (opts.json) {
      process.stdout.write(JSON.stringify(out) + '\n');
    } else {
      const e = out.event;
      process.stdout.write(printable`${e.status} ${target} (${out.targetKind === 'item' ? 'item id' : 'agency id'}): ${e.items.length} record(s)${e.items.length ? `: ${e.items.join(', ')}` : ''}\n`);
      if (e.review.length) process.stdout.write(printable`to review (near-identical captions, not killed): ${e.review.join(', ')}\n`);
      process.stdout.write(printable`items arriving later with these ids are ${e.status} on arrival; kill id ${e.id}\n`);
      if (out.webhook) process.stdout.write(printable`webhook: ${out.webhook.state === 'queued' ? `queued as job ${out.webhook.jobId} (the workers deliver it, retried with backoff)` : `not sent: ${out.webhook.error}`}\n`);
    }
    return out.webhook && out.webhook.state === 'refused' ? 3 : 0;
  } finally {
    await rt.close();
  }
}

/** photowire kills [--since 3d]: kills, withdrawals and corrections, each with every copy and where it is stored. */
export async function killsCommand(opts: { since?: string; json?: boolean }): Promise<number> {
  const since = parseSince(opts.since);
  if (since === null) throw new UsageError(`--since ${opts.since}: give a duration such as 3d, 12h, 90m, or an ISO date`);
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const kills = await listKills(rt.ctx, since);
    if (opts.json || !process.stdout.isTTY) {
      for (const k of kills) process.stdout.write(JSON.stringify(k) + '\n');
      return 0;
    }
    if (kills.length === 0) process.stdout.write(printable`no kills since ${new Date(since).toISOString()}\n`);
    for (const k of kills) {
      // Targets, reason, notice source and file names come from feeds: escaped (src/core/terminalText.ts).
      process.stdout.write(printable`${k.createdAt}  ${k.status.toUpperCase()}  ${k.targets.join(', ')}  ${k.reason ?? ''}\n`);
      process.stdout.write(printable`  notice: ${k.notice.kind === 'manual' ? 'manual' : `${k.notice.itemId} (${k.notice.source})`}\n`);
      for (const c of k.copies) process.stdout.write(printable`  ${c.itemId}  batch ${c.batchId ?? '?'}  ${'file' in c ? c.file : ''}${'original' in c && c.original ? `  stored ${c.original}` : ''}\n`);
      for (const c of k.reviewCopies) process.stdout.write(printable`  review ${c.itemId}  batch ${c.batchId ?? '?'}\n`);
    }
    return 0;
  } finally {
    await rt.close();
  }
}
