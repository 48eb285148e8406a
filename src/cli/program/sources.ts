import type { Command } from 'commander';
import { action } from './action';
import { positiveInt, wholeMs } from './options';
import { watchCommand } from '../commands/watch';
import { schedulerCommand } from '../commands/scheduler';
import {
  scheduleAddCommand,
  scheduleListCommand,
  scheduleRemoveCommand,
  scheduleRunCommand,
} from '../commands/schedule';
import { runsCommand } from '../commands/runs';

/** Sources: hot folders, scheduled imports, HTTP feeds (docs/SOURCES.md), and their runs. */
export function registerSourceCommands(program: Command): void {
  program
    .command('watch')
    .description(
      'hot folders: take each file or folder dropped into the folders once it is complete, move it to processed/ or failed/ (until SIGTERM)',
    )
    .argument('<dirs...>', 'folders to watch')
    .option('--with-workers', 'also run item and batch workers in this process')
    .option(
      '--concurrency <n>',
      'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)',
      positiveInt,
    )
    .option('--settle-ms <ms>', 'how long size and mtime must stay unchanged (default PHOTOWIRE_SETTLE_MS)', wholeMs)
    .option('--scan-ms <ms>', 'how often the folders are scanned (default PHOTOWIRE_SCAN_MS)', positiveInt)
    .action(action((dirs: string[], opts) => watchCommand(dirs, opts)));

  const schedule = program
    .command('schedule')
    .description('scheduled imports: named, cron or interval, from a folder or an http(s) feed');
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
    .option(
      '--concurrency <n>',
      'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)',
      positiveInt,
    )
    .action(action((opts) => schedulerCommand(opts)));

  program
    .command('runs')
    .description(
      'recent runs of schedules and hot folders (schedule, source, start, duration, items, ok, duplicates, failed, state) and stale sources',
    )
    .option('--schedule <name>', 'only this schedule (`watch` for hot folders)')
    .option('--limit <n>', 'how many runs (default 30)', positiveInt)
    .option('--json', 'print JSON on stdout')
    .action(action((opts) => runsCommand(opts)));
}
