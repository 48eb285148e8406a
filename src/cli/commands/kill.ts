import { liftKill, listKills, manualKill, parseSince } from '../../app/kills';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';

const KIND_LABEL = { item: 'item id', photo: 'photo id', original: 'stored original', agency: 'agency id' } as const;

/**
 * photowire kill <target> --reason: a manual kill, applied to every copy photowire has and will get.
 * Exit 3 when it reached nothing now (it stands for later arrivals: a typo stays until `unkill`),
 * unless --expect-none says that is what was meant; 3 also when the webhook was refused.
 */
export async function killCommand(
  target: string,
  opts: { reason?: string; withdraw?: boolean; json?: boolean; agency?: string; expectNone?: boolean },
): Promise<number> {
  if (!opts.reason || !opts.reason.trim())
    throw new UsageError('photowire kill needs --reason "<why>" (it is shown on the desk and sent to the webhook)');
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const out = await manualKill(rt.ctx, target.trim(), opts.reason.trim(), {
      kind: opts.withdraw ? 'withdraw' : 'kill',
      agency: opts.agency,
    });
    const e = out.event;
    const count = e.itemCount ?? e.items.length;
    const scope = out.provider === null ? '' : out.provider === '' ? ', any agency' : `, ${out.provider}`;
    if (opts.json) {
      process.stdout.write(JSON.stringify(out) + '\n');
    } else if (!out.matched) {
      process.stdout.write(
        printable`nothing matched now; standing for later arrivals: ${e.status} on arrival, any record with ${KIND_LABEL[out.targetKind]} ${target}${scope}\n`,
      );
      process.stdout.write(printable`kill id ${e.id} (a mistyped id: photowire unkill ${e.id} --reason "typo")\n`);
    } else {
      process.stdout.write(
        printable`${e.status} ${target} (${KIND_LABEL[out.targetKind]}${scope}): ${count} record(s)${e.items.length ? `: ${e.items.join(', ')}${count > e.items.length ? `, and ${count - e.items.length} more (photowire kills --json)` : ''}` : ''}\n`,
      );
      if (e.review.length)
        process.stdout.write(
          printable`to review (near-identical captions, not killed): ${e.review.join(', ')}${(e.reviewCount ?? 0) > e.review.length ? ` and ${(e.reviewCount ?? 0) - e.review.length} more` : ''}\n`,
        );
      process.stdout.write(
        printable`records arriving later with these ids are ${e.status} on arrival; kill id ${e.id}\n`,
      );
    }
    if (out.webhook && !opts.json)
      process.stdout.write(
        printable`webhook: ${out.webhook.state === 'queued' ? `queued as job ${out.webhook.jobId} (the workers deliver it, retried with backoff)` : `not sent: ${out.webhook.error}`}\n`,
      );
    if (out.webhook && out.webhook.state === 'refused') return 3;
    return out.matched || opts.expectNone ? 0 : 3;
  } finally {
    await rt.close();
  }
}

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

/** photowire kills [--since 3d] [--all]: kills, withdrawals and corrections, each with the copies it reached and where they are stored. */
export async function killsCommand(opts: {
  since?: string;
  json?: boolean;
  all?: boolean;
  id?: string;
}): Promise<number> {
  const since = parseSince(opts.since);
  if (since === null)
    throw new UsageError(`--since ${opts.since}: give a duration such as 3d, 12h, 90m, or an ISO date`);
  const rt = await Runtime.open({ allowPrivateRedis: false, defaultLogLevel: 'warn' });
  try {
    const kills = await listKills(rt.ctx, since, { all: opts.all });
    if (opts.json || !process.stdout.isTTY) {
      for (const k of kills) process.stdout.write(JSON.stringify(k) + '\n');
      return 0;
    }
    if (kills.length === 0)
      process.stdout.write(
        printable`no kills since ${new Date(since).toISOString()}${opts.all ? '' : ' (lifted ones: --all)'}\n`,
      );
    for (const k of kills) {
      const count = k.itemCount ?? k.copies.length;
      process.stdout.write(
        printable`${k.createdAt}  ${k.status.toUpperCase()}${k.lifted ? ' (LIFTED)' : ''}  ${k.targets.join(', ')}  ${k.reason ?? ''}  [${k.id}]\n`,
      );
      process.stdout.write(
        printable`  ${k.notice.kind === 'manual' ? 'manual' : `notice ${k.notice.itemId} (${k.notice.source})`}${k.by ? `, by ${k.by}` : ''}; ${count} record(s)\n`,
      );
      if (k.lifted) process.stdout.write(printable`  lifted ${k.lifted.at} by ${k.lifted.by}: ${k.lifted.reason}\n`);
      for (const c of k.copies)
        process.stdout.write(
          printable`  ${c.itemId}  batch ${c.batchId ?? '?'}  ${'file' in c ? c.file : ''}${'original' in c && c.original ? `  stored ${c.original}` : ''}\n`,
        );
      if (count > k.copies.length)
        process.stdout.write(
          printable`  ... and ${count - k.copies.length} more (photowire kills --json, or the desk's Kills view)\n`,
        );
      for (const c of k.reviewCopies)
        process.stdout.write(printable`  review ${c.itemId}  batch ${c.batchId ?? '?'}\n`);
    }
    return 0;
  } finally {
    await rt.close();
  }
}
