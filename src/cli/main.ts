import { Command, InvalidArgumentError } from 'commander';
import { ConfigError } from '../config';
import { NoRedisError } from '../adapters/redis/ensureRedis';
import { runCommand } from './commands/run';
import { ingestCommand } from './commands/ingest';
import { workerCommand } from './commands/worker';
import { statusCommand } from './commands/status';
import { exportCommand } from './commands/export';
import { creditsCliCommand } from './commands/credits';
import { clustersCommand } from './commands/clusters';

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of 1 or more');
  return n;
};

/** Run a command and exit with its code; known failures print one clear message, not a stack. */
function action<A extends unknown[]>(fn: (...args: A) => Promise<number>) {
  return async (...args: A) => {
    try {
      process.exitCode = await fn(...args);
    } catch (err) {
      if (err instanceof ConfigError || err instanceof NoRedisError) {
        process.stderr.write(`photowire: ${err.message}\n`);
        process.exitCode = 2;
      } else if (err instanceof Error && (err as { code?: string }).code?.startsWith('CREDIT_RULES')) {
        process.stderr.write(`photowire: ${err.message}\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`photowire: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
        process.exitCode = 1;
      }
    }
  };
}

const program = new Command();
program
  .name('photowire')
  .description('Press-photo wire ingestion: feeds in, normalized catalog records and renditions out.')
  .showHelpAfterError();

program
  .command('run')
  .description('ingest feeds with workers in this process, wait, print a summary and exit (the single-machine main job)')
  .argument('[paths...]', 'feeds: a JPEG, a folder of images, a manifest (NDJSON/JSON/CSV), NewsML-G2/NITF XML, or gallery text')
  .option('--sample', 'also generate (once) and run the bundled sample feed under the data directory')
  .option('--concurrency <n>', 'items processed at once (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .option('--json', 'print one JSON summary on stdout')
  .action(action((paths: string[], opts) => runCommand(paths, opts)));

program
  .command('ingest')
  .description('enqueue feeds for running workers')
  .argument('<paths...>', 'feeds to enqueue')
  .option('--wait', 'wait for the batches to finish and print their summaries')
  .option('--json', 'print JSON on stdout')
  .action(action((paths: string[], opts) => ingestCommand(paths, opts)));

program
  .command('worker')
  .description('run item and batch workers until SIGTERM')
  .option('--concurrency <n>', 'items processed at once (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .action(action((opts) => workerCommand(opts)));

program
  .command('status')
  .description("a batch's ledger and failures; without an id, the recent batches")
  .argument('[batchId]')
  .option('--json', 'print JSON on stdout')
  .action(action((batchId: string | undefined, opts) => statusCommand(batchId, opts)));

program
  .command('export')
  .description("a batch's records as NDJSON on stdout")
  .argument('<batchId>')
  .action(action((batchId: string) => exportCommand(batchId)));

program
  .command('credits')
  .description('dry-run the credit rules: raw credits or whole captions, one per line, from files or stdin; one JSON object per line out')
  .argument('[files...]')
  .option('--rules <file>', 'credit rules file that extends or overrides the shipped rules (default PHOTOWIRE_CREDIT_RULES)')
  .action(action((files: string[], opts) => creditsCliCommand(files, opts)));

program
  .command('clusters')
  .description('near-duplicate caption clusters, with size, canonical caption and members')
  .option('--batch <id>', 'only clusters with members in this batch')
  .option('--min-size <n>', 'only clusters with at least n members', positiveInt)
  .option('--json', 'print JSON on stdout')
  .action(action((opts) => clustersCommand(opts)));

program.parseAsync(process.argv).catch((err) => {
  process.stderr.write(`photowire: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
});
