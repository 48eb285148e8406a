import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { registerBatchCommands } from './batches';
import { registerClusterCommands } from './clusters';
import { registerRulesCommands } from './rules';
import { registerServeCommand } from './serve';
import { registerSourceCommands } from './sources';

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}

/**
 * The photowire command line as commander knows it, not yet parsed: main.ts runs it, and
 * test/unit/cli/commandsDoc.test.ts checks docs/COMMANDS.md's command table against its commands
 * and options.
 */
export function buildProgram(): Command {
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
  return program;
}
