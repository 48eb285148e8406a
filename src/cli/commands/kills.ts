import { listKills, parseSince } from '../../app/kills';
import { printable } from '../../core/terminalText';
import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';

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
