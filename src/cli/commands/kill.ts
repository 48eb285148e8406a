import { manualKill } from '../../app/kills';
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
