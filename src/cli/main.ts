import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { fail } from './program/action';
import { registerBatchCommands } from './program/batches';
import { registerClusterCommands } from './program/clusters';
import { registerRulesCommands } from './program/rules';
import { registerServeCommand } from './program/serve';
import { registerSourceCommands } from './program/sources';

/**
 * The photowire command line. Exit codes (one mapping, src/core/errors.ts `exitCodeOf`): 0 ok,
 * 1 an item or feed failed (or a bug), 2 configuration, Redis, rules files or usage.
 */
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

// The order of `photowire --help`.
registerBatchCommands(program);
registerRulesCommands(program);
registerClusterCommands(program);
registerSourceCommands(program);
registerServeCommand(program);

program.parseAsync(process.argv).catch((err) => {
  if (err instanceof CommanderError) {
    // Commander has printed its message (and the hint); help and --version are not failures.
    process.exitCode = err.exitCode === 0 ? 0 : 2;
    return;
  }
  fail(err);
});
