import type { Command } from 'commander';
import { action } from './action';
import { positiveInt } from './options';
import { runCommand } from '../commands/run';
import { ingestCommand } from '../commands/ingest';
import { workerCommand } from '../commands/worker';
import { statusCommand } from '../commands/status';
import { exportCommand } from '../commands/export';
import { failedCommand } from '../commands/failed';
import { retryCommand } from '../commands/retry';
import { retentionCommand } from '../commands/retention';

/** Ingest and batches: run, ingest, worker, status, export, failed, retry. */
export function registerBatchCommands(program: Command): void {
  program
    .command('run')
    .description(
      'ingest feeds with workers in this process, wait, print a summary and exit (the single-machine main job)',
    )
    .argument(
      '[paths...]',
      'feeds: a JPEG, a folder of images, a manifest (NDJSON/JSON/CSV), NewsML-G2/NITF XML, or gallery text',
    )
    .option('--sample', 'also generate (once) and run the bundled sample feed under the data directory')
    .option('--concurrency <n>', 'items processed at once (default PHOTOWIRE_CONCURRENCY)', positiveInt)
    .option('--json', 'print one JSON summary on stdout')
    .action(action((paths: string[], opts) => runCommand(paths, opts)));

  program
    .command('ingest')
    .description('enqueue feeds for running workers')
    .argument('<paths...>', 'feeds to enqueue')
    .option('--wait', 'wait for the batches to finish and print their summaries')
    .option(
      '--wait-for-workers',
      'with --wait: when no worker consumes the queue, keep waiting for one (without it, --wait says so and exits 2)',
    )
    .option(
      '--recreate',
      'with --wait: re-create a batch from its feed if its ledger vanishes (Redis restarted without its data)',
    )
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
    .option('--include-embargoed', 'also write records still under embargo (killed records are never written)')
    .option('--json', 'one JSON document: {batchId, archived, records: [...], leftOut: {killed, withdrawn, embargoed}}')
    .action(
      action((batchId: string, opts: { includeEmbargoed?: boolean; json?: boolean }) => exportCommand(batchId, opts)),
    );

  program
    .command('retention')
    .description(
      'remove batches finished more than PHOTOWIRE_RETENTION_DAYS ago from Redis (their export stays in storage); the worker runs it daily',
    )
    .option('--dry-run', 'print what would be removed, remove nothing')
    .option('--json', 'print the report as JSON on stdout')
    .option('--now <iso>', 'the time the window is counted back from (default: now)')
    .action(action((opts: { dryRun?: boolean; json?: boolean; now?: string }) => retentionCommand(opts)));

  // Operators see and replay failures (docs/RELIABILITY.md).
  program
    .command('failed')
    .description('failed items with code, message, attempts and source: one batch, or the recent batches')
    .option('--batch <id>', 'only this batch')
    .option('--json', 'print JSON on stdout')
    .action(action((opts) => failedCommand(opts)));

  program
    .command('retry')
    .description(
      "run a batch's failed items (or one failed item) again; the ledger and records.ndjson update when they end",
    )
    .argument('<batchIdOrItemId>')
    .option('--wait', 'wait for the retried items and print the batch summary')
    .option('--with-workers', 'also run workers in this process until the retried items end (implies --wait)')
    .option(
      '--concurrency <n>',
      'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)',
      positiveInt,
    )
    .option('--json', 'print JSON on stdout')
    .action(action((id: string, opts) => retryCommand(id, opts)));
}
