import { once } from 'node:events';
import { escapeTerminal } from '../../core/terminalText';
import { createInterface } from 'node:readline';
import { loadConfig } from '../../config';
import { dryRun, type DryRun } from '../../core/rights/dryRun';
import { loadRightsRules } from '../../core/rights/rules';
import { openInputFiles, streamOf } from '../inputFiles';

const cut = (s: string, w: number) => (s.length > w ? s.slice(0, w - 1) + '…' : s);

/** One readable block per line: the input, then what was read from it. */
export function rightsTableRow(text: string, r: DryRun): string {
  // The input and what was read from it are the operator's files: escaped, so a control in them is seen, not obeyed.
  const out = [cut(escapeTerminal(text), 100)];
  const rows: Array<[string, string]> = [
    ['restrictions', r.rights.restrictions.join(', ')],
    ['out', r.rights.outMarkets.map((m) => m.name).join(', ')],
    ['only', r.rights.onlyMarkets.map((m) => m.name).join(', ')],
    ['advisories', r.rights.advisories.join(', ')],
    ['embargo', r.release.embargoUntil ? (r.release.embargoUntil.at ?? 'until further notice') : ''],
    ['expires', r.release.expires?.at ?? ''],
    [
      'notice',
      r.notice ? `${r.notice.kind}${r.notice.targets.length ? ` of ${r.notice.targets.join(', ')}` : ''}` : '',
    ],
    ['unread', r.rights.unread.join(' | ')],
  ];
  for (const [k, v] of rows) if (v) out.push(`  ${k.padEnd(13)}${escapeTerminal(v)}`);
  out.push(`  ${'confidence'.padEnd(13)}${r.rights.confidence} (rules ${r.rights.rulesVersion})`);
  return out.join('\n') + '\n';
}

/**
 * The rights rules' dry run (docs/RIGHTS.md): each line of the files (or stdin) read as Special
 * Instructions, without Redis. A table on a terminal, one JSON object per line otherwise.
 */
export async function rightsCliCommand(
  files: string[],
  opts: { rules?: string; agency?: string; referenceTime?: string; json?: boolean },
): Promise<number> {
  const rulesPath = opts.rules ?? loadConfig().rightsRulesPath;
  const rules = loadRightsRules(rulesPath);
  const table = !opts.json && !!process.stdout.isTTY;
  const write = async (s: string) => {
    if (!process.stdout.write(s)) await once(process.stdout, 'drain');
  };
  // Every file opened before the first row: a missing one is a usage error alone on stderr.
  const opened = await openInputFiles('rights', files);
  const inputs: NodeJS.ReadableStream[] = opened.length ? opened.map((f) => streamOf('rights', f)) : [process.stdin];
  for (const input of inputs) {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      const text = line.replace(/^\uFEFF/, '');
      if (!text.trim() || text.trimStart().startsWith('#')) continue;
      const r = dryRun(text, { rules, agency: opts.agency, referenceTime: opts.referenceTime });
      await write(table ? rightsTableRow(text, r) : JSON.stringify({ input: text, ...r }) + '\n');
    }
  }
  return 0;
}
