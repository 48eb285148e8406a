import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../config';
import { NoRedisError } from '../adapters/redis/ensureRedis';
import { maskSecrets } from '../core/secrets';
import { UsageError } from './usageError';
import { runCommand } from './commands/run';
import { ingestCommand } from './commands/ingest';
import { workerCommand } from './commands/worker';
import { statusCommand } from './commands/status';
import { exportCommand } from './commands/export';
import { failedCommand } from './commands/failed';
import { retryCommand } from './commands/retry';
import { creditsCliCommand } from './commands/credits';
import { clustersCommand, clustersRebuildCommand } from './commands/clusters';
import { killCommand, killsCommand } from './commands/kill';
import { rightsCliCommand } from './commands/rights';
import { watchCommand } from './commands/watch';
import { schedulerCommand } from './commands/scheduler';
import { scheduleAddCommand, scheduleListCommand, scheduleRemoveCommand, scheduleRunCommand } from './commands/schedule';
import { runsCommand } from './commands/runs';
import { parsePort, serveCommand } from './commands/serve';

const positiveInt = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of 1 or more');
  return n;
};

/** Exit codes: 0 ok, 1 an item or feed failed (or a bug), 2 configuration, Redis or usage. */
function exitCodeOf(err: unknown): number {
  if (err instanceof ConfigError || err instanceof NoRedisError || err instanceof UsageError) return 2;
  if (err instanceof Error && /^(?:CREDIT|BOILERPLATE|RIGHTS)_RULES/.test((err as { code?: string }).code ?? '')) return 2;
  // A wait that gave up on a vanished ledger or a silent Redis (src/sources/waitForBatch.ts).
  if ((err as { code?: string } | null)?.code === 'LEDGER_LOST') return 2;
  return 1;
}

/** One clear message (secrets masked); the stack only for what is not a known failure, and only at LOG_LEVEL=debug. */
function report(err: unknown): void {
  const known = exitCodeOf(err) === 2;
  const message = err instanceof Error ? err.message : String(err);
  let text = `photowire: ${message}\n`;
  if (err instanceof UsageError && err.hint) text += `hint: ${err.hint}\n`;
  if (!known) {
    const debug = process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace';
    text += debug && err instanceof Error && err.stack ? `${err.stack}\n` : 'this looks like a bug in photowire: run again with LOG_LEVEL=debug for the details, and report them\n';
  }
  process.stderr.write(maskSecrets(text));
}

/** Run a command and exit with its code; known failures print one clear message, not a stack. */
function action<A extends unknown[]>(fn: (...args: A) => Promise<number>) {
  return async (...args: A) => {
    try {
      process.exitCode = await fn(...args);
    } catch (err) {
      report(err);
      process.exitCode = exitCodeOf(err);
    }
  };
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const program = new Command();
program
  .name('photowire')
  .description('Press-photo wire ingestion: feeds in, normalized catalog records and renditions out.')
  .version(packageVersion(), '-V, --version', 'print the version')
  // Usage mistakes (an unknown option, `--concurrency abc`) exit 2, like a bad setting, with one hint line.
  .exitOverride()
  .showHelpAfterError('hint: `photowire --help` lists the commands, `photowire <command> --help` its options');

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
  .option('--recreate', 'with --wait: re-create a batch from its feed if its ledger vanishes (Redis restarted without its data)')
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
  .action(action((batchId: string, opts: { includeEmbargoed?: boolean }) => exportCommand(batchId, opts)));

// Operators see and replay failures (docs/RELIABILITY.md).
program
  .command('failed')
  .description('failed items with code, message, attempts and source: one batch, or the recent batches')
  .option('--batch <id>', 'only this batch')
  .option('--json', 'print JSON on stdout')
  .action(action((opts) => failedCommand(opts)));

program
  .command('retry')
  .description("run a batch's failed items (or one failed item) again; the ledger and records.ndjson update when they end")
  .argument('<batchIdOrItemId>')
  .option('--wait', 'wait for the retried items and print the batch summary')
  .option('--with-workers', 'also run workers in this process until the retried items end (implies --wait)')
  .option('--concurrency <n>', 'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .option('--json', 'print JSON on stdout')
  .action(action((id: string, opts) => retryCommand(id, opts)));

program
  .command('credits')
  .description('dry-run the credit rules: raw credits or whole captions, one per line, from files or stdin; a table on a terminal, one JSON object per line when piped or with --json')
  .argument('[files...]')
  .option('--json', 'one JSON object per line, also on a terminal')
  .option('--rules <file>', 'credit rules file that extends or overrides the shipped rules (default PHOTOWIRE_CREDIT_RULES)')
  .option('--boilerplate <file>', 'wire-boilerplate rules file added to the shipped rules (default PHOTOWIRE_BOILERPLATE_RULES)')
  .action(action((files: string[], opts) => creditsCliCommand(files, opts)));

// Rights, embargoes and kills (docs/RIGHTS.md).
program
  .command('rights')
  .description('dry-run the rights rules: special instructions, one per line, from files or stdin; a table on a terminal, one JSON object per line when piped or with --json')
  .argument('[files...]')
  .option('--json', 'one JSON object per line, also on a terminal')
  .option('--rules <file>', 'rights rules file added to the shipped rules (default PHOTOWIRE_RIGHTS_RULES)')
  .option('--agency <id>', "the agency whose time zone a time without one takes (AP, PA, DPA ...)")
  .option('--reference-time <iso>', 'when the item was sent (the year of a date without one, the start of "14 DAYS")')
  .action(action((files: string[], opts) => rightsCliCommand(files, opts)));

program
  .command('kill')
  .description('kill a photo by item id or agency id (guid, transmission reference): every copy, version and resend, and any that arrives later')
  .argument('<target>', 'an item id, or an agency id')
  .requiredOption('--reason <text>', 'why: shown on the desk, in photowire kills and sent to PHOTOWIRE_KILL_WEBHOOK')
  .option('--withdraw', 'a withdrawal (not to be used) rather than a kill')
  .option('--json', 'print JSON on stdout')
  .action(action((target: string, opts) => killCommand(target, opts)));

program
  .command('kills')
  .description('kills, withdrawals and corrections of the last days, each with every copy it reached and where it is stored')
  .option('--since <when>', 'a duration (3d, 12h, 90m) or an ISO date (default 3d)')
  .option('--json', 'one JSON object per kill')
  .action(action((opts) => killsCommand(opts)));

const clusters = program
  .command('clusters')
  .description('near-duplicate caption clusters, with size, canonical caption and members')
  .option('--batch <id>', 'only clusters with members in this batch')
  .option('--min-size <n>', 'only clusters with at least n members', positiveInt)
  .option('--json', 'print JSON on stdout')
  .action(action((opts) => clustersCommand(opts)));
clusters
  .command('rebuild')
  .description('build the index of PHOTOWIRE_DEDUP_THRESHOLD from the catalog, then make it the active one (docs/DEDUP.md)')
  .option('--since <when>', 'only batches created since: an ISO date or a duration (30d, 12h)')
  .option('--json', 'print the result as JSON on stdout')
  // --json is also the listing's option: Commander gives it to `clusters`, so read it from there too.
  .action(action((opts, cmd: Command) => clustersRebuildCommand({ ...opts, json: opts.json ?? cmd.parent?.opts().json })));

// Sources: hot folders, scheduled imports, HTTP feeds (README "Sources").
const wholeMs = (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of milliseconds');
  return n;
};

program
  .command('watch')
  .description('hot folders: take each file or folder dropped into the folders once it is complete, move it to processed/ or failed/ (until SIGTERM)')
  .argument('<dirs...>', 'folders to watch')
  .option('--with-workers', 'also run item and batch workers in this process')
  .option('--concurrency <n>', 'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .option('--settle-ms <ms>', 'how long size and mtime must stay unchanged (default PHOTOWIRE_SETTLE_MS)', wholeMs)
  .option('--scan-ms <ms>', 'how often the folders are scanned (default PHOTOWIRE_SCAN_MS)', positiveInt)
  .action(action((dirs: string[], opts) => watchCommand(dirs, opts)));

const schedule = program.command('schedule').description('scheduled imports: named, cron or interval, from a folder or an http(s) feed');
schedule
  .command('add')
  .description('create or update a schedule')
  .argument('<name>')
  .option('--cron <expr>', 'cron expression, e.g. "0 2 * * *" (a sixth leading field is seconds)')
  .option('--every <duration>', 'an interval instead of cron: 90s, 15m, 2h, 1d')
  .option('--tz <zone>', 'time zone of the cron expression, e.g. Europe/London')
  .requiredOption('--source <dir|url>', 'a folder, or the http(s) URL of a NewsML-G2/NITF/CSV feed')
  .option('--json', 'print JSON on stdout')
  .action(action((name: string, opts) => scheduleAddCommand(name, opts)));
schedule
  .command('list')
  .description('schedules with their next and last run')
  .option('--json', 'print JSON on stdout')
  .action(action((opts) => scheduleListCommand(opts)));
schedule
  .command('remove')
  .description('remove a schedule (its cursor and runs are kept unless --reset)')
  .argument('<name>')
  .option('--reset', 'also forget what it has taken')
  .action(action((name: string, opts) => scheduleRemoveCommand(name, opts)));
schedule
  .command('run')
  .description('run a schedule now (in the `photowire scheduler` process)')
  .argument('<name>')
  .option('--wait', 'wait for the run to end and print it')
  .option('--json', 'print JSON on stdout')
  .action(action((name: string, opts) => scheduleRunCommand(name, opts)));

program
  .command('scheduler')
  .description('run scheduled imports until SIGTERM; applies PHOTOWIRE_SCHEDULES at start')
  .option('--with-workers', 'also run item and batch workers in this process')
  .option('--concurrency <n>', 'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .action(action((opts) => schedulerCommand(opts)));

program
  .command('runs')
  .description('recent runs of schedules and hot folders (schedule, source, start, duration, items, ok, duplicates, failed, state) and stale sources')
  .option('--schedule <name>', 'only this schedule (`watch` for hot folders)')
  .option('--limit <n>', 'how many runs (default 30)', positiveInt)
  .option('--json', 'print JSON on stdout')
  .action(action((opts) => runsCommand(opts)));

program
  .command('serve')
  .description('the desk: HTTP API, web page and queue board (PHOTOWIRE_API_TOKEN required off loopback)')
  .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 8080)
  .option('--host <address>', 'address to bind (anything but loopback needs PHOTOWIRE_API_TOKEN)', '127.0.0.1')
  .option('--with-workers', 'also run item and batch workers in this process')
  .option('--concurrency <n>', 'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)', positiveInt)
  .action(action((opts) => serveCommand({ host: opts.host, port: opts.port, workers: opts.withWorkers, concurrency: opts.concurrency })));

program.parseAsync(process.argv).catch((err) => {
  if (err instanceof CommanderError) {
    // Commander has printed its message (and the hint); help and --version are not failures.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
    return;
  }
  report(err);
  process.exitCode = exitCodeOf(err);
});
