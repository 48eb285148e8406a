import type { Command } from 'commander';
import { action } from './action';
import { positiveInt } from './options';
import { clustersCommand, clustersRebuildCommand } from '../commands/clusters';

/** Near-duplicate caption clusters and their index (docs/DEDUP.md). */
export function registerClusterCommands(program: Command): void {
  const clusters = program
    .command('clusters')
    .description('near-duplicate caption clusters, with size, canonical caption and members')
    .option('--batch <id>', 'only clusters with members in this batch')
    .option('--story <id>', 'only the clusters of this story (captions sharing an assignment background or slug); every size unless --min-size')
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
}
