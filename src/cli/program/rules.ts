import type { Command } from 'commander';
import { action } from './action';
import { creditsCliCommand } from '../commands/credits';
import { killCommand, killsCommand } from '../commands/kill';
import { rightsCliCommand } from '../commands/rights';

/** Credits and rights dry-runs, kills (docs/RIGHTS.md). */
export function registerRulesCommands(program: Command): void {
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
}
