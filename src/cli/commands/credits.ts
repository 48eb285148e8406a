import { PassThrough } from 'node:stream';
import { loadConfig } from '../../config';
import { runCreditsCommand } from '../creditsCommand';
import { openInputFiles, streamOf } from '../inputFiles';

/** Feed files (or stdin) through the credit rules without Redis: the operator's dry run. */
export async function creditsCliCommand(
  files: string[],
  opts: { rules?: string; boilerplate?: string; json?: boolean },
): Promise<number> {
  const config = opts.rules === undefined || opts.boilerplate === undefined ? loadConfig() : null;
  const rulesPath = opts.rules ?? config?.creditRulesPath;
  const boilerplatePath = opts.boilerplate ?? config?.boilerplateRulesPath;
  let input: NodeJS.ReadableStream = process.stdin;
  // Every file opened before the table's header: a missing one is a usage error alone on stderr.
  const opened = await openInputFiles('credits', files);
  if (opened.length) {
    const joined = new PassThrough();
    (async () => {
      for (const f of opened) {
        await new Promise<void>((resolve, reject) => {
          const s = streamOf('credits', f);
          s.on('error', reject);
          s.on('end', resolve);
          s.pipe(joined, { end: false });
        });
        joined.write('\n');
      }
      joined.end();
    })().catch((err) => joined.destroy(err));
    input = joined;
  }
  // A person at a terminal reads a table; a pipe or --json gets one JSON object per line.
  const table = !opts.json && !!process.stdout.isTTY;
  const low = await runCreditsCommand(input, process.stdout, { rulesPath, boilerplatePath, table });
  if (low > 0) process.stderr.write(`${low} line(s) gave a low-confidence credit\n`);
  return 0;
}
