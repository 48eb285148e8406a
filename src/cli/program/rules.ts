import type { Command } from 'commander';
import { action } from './action';
import { creditsCliCommand } from '../commands/credits';
import { killCommand } from '../commands/kill';
import { killsCommand } from '../commands/kills';
import { unkillCommand } from '../commands/unkill';
import { rightsCliCommand } from '../commands/rights';
import { defaultsCliCommand } from '../commands/defaults';

/** Credits and rights dry-runs, kills (docs/RIGHTS.md). */
export function registerRulesCommands(program: Command): void {
  program
    .command('credits')
    .description(
      'dry-run the credit rules: raw credits or whole captions, one per line, from files or stdin; a table on a terminal, one JSON object per line when piped or with --json',
    )
    .argument('[files...]')
    .option('--json', 'one JSON object per line, also on a terminal')
    .option(
      '--rules <file>',
      'credit rules file that extends or overrides the shipped rules (default PHOTOWIRE_CREDIT_RULES)',
    )
    .option(
      '--boilerplate <file>',
      'wire-boilerplate rules file added to the shipped rules (default PHOTOWIRE_BOILERPLATE_RULES)',
    )
    .action(action((files: string[], opts) => creditsCliCommand(files, opts)));

  // Rights, embargoes and kills (docs/RIGHTS.md).
  program
    .command('rights')
    .description(
      'dry-run the rights rules: special instructions, one per line, from files or stdin; a table on a terminal, one JSON object per line when piped or with --json',
    )
    .argument('[files...]')
    .option('--json', 'one JSON object per line, also on a terminal')
    .option('--rules <file>', 'rights rules file added to the shipped rules (default PHOTOWIRE_RIGHTS_RULES)')
    .option('--agency <id>', 'the agency whose time zone a time without one takes (AP, PA, DPA ...)')
    .option('--reference-time <iso>', 'when the item was sent (the year of a date without one, the start of "14 DAYS")')
    .action(action((files: string[], opts) => rightsCliCommand(files, opts)));

  program
    .command('defaults')
    .description(
      'dry-run the camera and software defaults dropped from embedded metadata: images (each IIM, XMP and EXIF text field) or text lines (a value, or field<TAB>value), from files or stdin; a table on a terminal, one JSON object per value when piped or with --json',
    )
    .argument('[files...]')
    .option('--json', 'one JSON object per value, also on a terminal')
    .option(
      '--rules <file>',
      'default-text rules file added to the shipped list (default PHOTOWIRE_DEFAULT_TEXT_RULES)',
    )
    .action(action((files: string[], opts) => defaultsCliCommand(files, opts)));

  program
    .command('kill')
    .description(
      'kill a photo by item id, photo id, stored original or agency id (guid, transmission reference): every copy, version and resend, and any that arrives later',
    )
    .argument(
      '<target>',
      'an item id (<batch>-0001, also while it is still queued), a photo id, originals/..., or an agency id',
    )
    .requiredOption('--reason <text>', 'why: shown on the desk, in photowire kills and sent to PHOTOWIRE_KILL_WEBHOOK')
    .option(
      '--agency <name>',
      'whose id a bare agency id is (AP, DPA, "Getty Images"): needed when photowire has seen that id from more than one agency',
    )
    .option('--withdraw', 'a withdrawal (not to be used) rather than a kill')
    .option('--expect-none', 'a kill for photos not received yet: exit 0 (not 3) when it matches nothing now')
    .option('--json', 'print JSON on stdout')
    .action(action((target: string, opts) => killCommand(target, opts)));

  program
    .command('unkill')
    .description(
      'lift a kill (a mistyped id, a kill sent in error): its records get the status the other kills give them; kept in the audit trail',
    )
    .argument('<killId>', 'the kill id that `photowire kill` printed, or from `photowire kills --all`')
    .requiredOption('--reason <text>', 'why it is lifted: kept with who lifted it and when')
    .option('--json', 'print JSON on stdout')
    .action(action((killId: string, opts) => unkillCommand(killId, opts)));

  program
    .command('kills')
    .description(
      'kills, withdrawals and corrections of the last days, each with the copies it reached and where they are stored',
    )
    .option('--since <when>', 'a duration (3d, 12h, 90m) or an ISO date (default 3d)')
    .option('--all', 'also kills that were lifted, with who lifted them, when and why')
    .option('--json', 'one JSON object per kill')
    .action(action((opts) => killsCommand(opts)));
}
