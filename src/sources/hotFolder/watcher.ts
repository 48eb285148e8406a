import { HotFolderService } from '../../app/hotFolder/hotFolderService';
import { hotFolderPorts, hotFolderSettings, type HotFolderOptions } from '../../app/hotFolder/hotFolderPorts';
import type { SourceRuntime } from '../sourceRuntime';

export { HotFolderError, WATCH_MAX_TAKES, type TakeResult } from '../../app/hotFolder/hotFolderService';
export type WatcherOptions = HotFolderOptions;

/**
 * The hot-folder process in one object, for a program that embeds it (the tests, a one-process
 * setup): the hot-folder service (src/app/hotFolder/hotFolderService.ts: what to take, when, and
 * where it goes) on the runtime's real ports (src/app/hotFolder/hotFolderPorts.ts: node:fs and
 * fs.watch, claims in Redis, the run log, the ingest service). `start()` checks the folders and
 * scans every scanMs (and on fs.watch events); `stop()` ends it, leaving files in flight in place.
 * Events: `scan` (dir) after each scan, `taken` (TakeResult). `photowire watch` starts the same
 * service through the app layer (startHotFolders) and stops it on SIGTERM (src/cli/commands/watch.ts).
 */
export class Watcher extends HotFolderService {
  constructor(rt: SourceRuntime, opts: WatcherOptions) {
    super(hotFolderPorts(rt), hotFolderSettings(rt, opts));
  }
}
