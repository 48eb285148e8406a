import type { Command } from 'commander';
import { action } from './action';
import { positiveInt } from './options';
import { clustersCommand, clustersRebuildCommand, clustersShowCommand } from '../commands/clusters';

/** Caption clusters (one subject about one picture, however resent) and their index (docs/DEDUP.md). */
export function registerClusterCommands(program: Command): void {
  const clusters = program
    .command('clusters')
    .description(
      'caption clusters (one subject about one picture, however resent), with size, canonical caption and members',
    )
    .option('--batch <id>', 'only clusters with members in this batch')
    .option(
      '--story <id>',
      'only the clusters of this story (captions sharing an assignment background or slug); every size unless --min-size',
    )
    .option('--min-size <n>', 'only clusters with at least n members', positiveInt)
    .option('--json', 'print JSON on stdout')
    .action(action((opts) => clustersCommand(opts)));
  clusters
    .command('show <clusterId>')
    .description('one cluster: every member with its credit, its word diff and why it joined')
    .option('--json', 'print JSON on stdout')
    .action(
      action((clusterId: string, opts, cmd: Command) =>
        clustersShowCommand(clusterId, { json: opts.json ?? cmd.parent?.opts().json }),
      ),
    );
  clusters
    .command('rebuild')
    .description(
      "build the caption-cluster index afresh from the catalog and patch every record's cluster (docs/DEDUP.md)",
    )
    .option('--json', 'print the result as JSON on stdout')
    // --json is also the listing's option: Commander gives it to `clusters`, so read it from there too.
    .action(
      action((opts, cmd: Command) => clustersRebuildCommand({ ...opts, json: opts.json ?? cmd.parent?.opts().json })),
    );
}
