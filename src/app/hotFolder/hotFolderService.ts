import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import * as path from 'node:path';
import type { LoadedFeed } from '../../adapters/feeds/loadFeed';
import { InputError, isInputError, PhotowireError } from '../../core/errors';
import { hasImageExtension } from '../../core/feeds/sniff';
import { formatDuration } from '../runs/formatRuns';
import { finishRun, newRun, WATCH_SCHEDULE, type RunRecord } from '../../core/runs/runRecord';
import { staleness } from '../../core/runs/stale';
import { pairWaiters, planTakes, type Pairing, type PlannedTake } from './planTakes';
import { localPicture, markMissingPicture } from '../../core/feeds/folderFeed';
import type { HotFolderLogger, HotFolderPorts, HotFolderSettings } from './ports';
import { SCAN_MAX_TOP_LEVEL } from './scanFolder';
import {
  emptySettleState,
  heldMessage,
  settleStep,
  type EntryObservation,
  type HeldEntry,
  type ReadyEntry,
  type ReadyReason,
  type SettleState,
} from './settle';

interface FileRefs {
  signature: string;
  holders: string[];
  needs: string[][];
  picture: boolean;
}

/**
 * Takes in flight per watcher. Each waits for its batch while the workers render, so more would
 * not go faster: it would hold thousands of claims, lease renewals and waits at once when a
 * flood of files is dropped. Entries past it wait in the folder for the next scan (logged).
 */
export const WATCH_MAX_TAKES = 16;

export interface TakeResult {
  dir: string;
  name: string;
  /** Where the file was dropped. */
  file: string;
  reason: ReadyReason;
  outcome: 'processed' | 'failed' | 'already-taken';
  movedTo: string;
  /** Photos named by the feed that were moved along with it. */
  companionsMovedTo: string[];
  batchId: string | null;
  error: { code: string; message: string } | null;
}

/** A hot folder that cannot be watched (missing, not a folder): a usage error, not a crash. */
export class HotFolderError extends PhotowireError {
  constructor(message: string) {
    super('HOT_FOLDER_INVALID', message);
    this.name = 'HotFolderError';
  }
}

const SOURCE_TOUCH_MS = 60_000;
const STALE_WARN_EVERY_MS = 3_600_000;
const CAP_LOG_EVERY_MS = 60_000;

/**
 * Hot folders: scan, wait until a dropped entry is complete (settle.ts), claim it (so two watchers
 * never take the same file), ingest it as one batch through the ingest service, wait for the batch
 * to end, then move it to processed/ or failed/ (with `.error.json`). Events: `scan` (dir) after
 * each scan, `taken` (TakeResult). All I/O is behind the ports passed in (ports.ts).
 *
 * Restart safety: the batch id comes from the file's path and content, and the file is moved only
 * after its batch is done, so a watcher that dies mid-batch leaves the file where it was; the next
 * watcher re-claims it once the claim expires, lands on the same batch and adds nothing twice.
 */
export class HotFolderService extends EventEmitter {
  readonly dirs: string[];
  readonly owner: string;
  readonly settleMs: number;
  readonly scanMs: number;
  scans = 0;
  private readonly states = new Map<string, SettleState>();
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly folderWatches: Array<{ close(): void }> = [];
  private readonly lastTouch = new Map<string, number>();
  private readonly lastStaleWarning = new Map<string, number>();
  private readonly lastCapLog = new Map<string, number>();
  /** Folders waiting too long for temp-named files inside them: their `waiting` run. */
  private readonly heldRuns = new Map<string, RunRecord>();
  /** Per hot folder: file → (its signature, the top-level entries holding the photos it names, what its items wait for, whether it is a picture). */
  private readonly refCache = new Map<string, Map<string, FileRefs>>();
  /** Since when an entry (its path) has waited for its pair: PHOTOWIRE_PAIR_WAIT, read from or written to the pairs port once. */
  private readonly pairSince = new Map<string, number>();
  private loop: Promise<void> | null = null;
  /** Aborted by stop(): a scan or a load walking a big folder ends at once instead of finishing first. */
  private readonly stopping = new AbortController();
  private running = false;
  private wake: (() => void) | null = null;
  private abandon = false;

  constructor(
    private readonly ports: HotFolderPorts,
    private readonly settings: HotFolderSettings,
  ) {
    super();
    this.dirs = settings.dirs;
    this.owner = settings.owner;
    this.settleMs = settings.settleMs;
    this.scanMs = settings.scanMs;
  }

  claimKey(file: string): string {
    return this.ports.claims.key(file);
  }

  /** Check every folder (HotFolderError when one cannot be watched), register it as a source, start scanning. */
  async start(): Promise<void> {
    for (const dir of this.dirs) {
      const kind = await this.ports.files.kindOf(dir);
      if (kind === 'missing') throw new HotFolderError(`hot folder ${dir}: no such folder`);
      if (kind !== 'folder') throw new HotFolderError(`hot folder ${dir}: not a folder`);
      await this.ports.runs.registerSource('watch', dir, dir, this.ports.now());
    }
    this.running = true;
    if (this.settings.fsWatch) {
      for (const dir of this.dirs) {
        const w = this.ports.files.watch(dir, () => this.nudge());
        if (w) this.folderWatches.push(w);
      }
    }
    this.loop = this.run();
  }

  /** Scan soon instead of at the next tick. */
  nudge(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.scanOnce();
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.scanMs);
        this.wake = () => {
          clearTimeout(t);
          // A burst of events (a file written in chunks) makes one scan, shortly after.
          setTimeout(resolve, 50);
        };
      });
      this.wake = null;
    }
  }

  /** Scan every hot folder once and start taking what is complete. */
  async scanOnce(): Promise<void> {
    for (const dir of this.dirs) {
      try {
        const listing = await this.ports.files.scan(dir, this.stopping.signal);
        const step = settleStep(this.states.get(dir) ?? emptySettleState(), listing, this.ports.now(), this.settleMs);
        this.states.set(dir, step.state);
        await this.reportHeld(dir, step.held);
        const refs = await this.references(dir, listing.candidates);
        const present = new Set(listing.candidates.map((c) => c.name));
        const pairing = await this.pairing(dir, step.ready, present, refs);
        let heldBack = 0;
        for (const planned of planTakes(step.ready, present, refs.holders, pairing)) {
          const file = path.join(dir, planned.entry.name);
          if (this.inFlight.has(file) || !this.running) continue;
          if (this.inFlight.size >= this.settings.maxTakes) {
            heldBack++;
            continue;
          }
          const abort = new AbortController();
          const done = this.take(dir, planned, abort.signal)
            .catch((err) =>
              this.ports.logger.error({ err, file }, 'hot folder: taking a file failed; it stays for the next scan'),
            )
            .finally(() => this.inFlight.delete(file));
          this.inFlight.set(file, { abort, done });
        }
        this.reportCapped(dir, heldBack, listing.truncated === true);
        await this.touchSource(dir, null);
      } catch (err) {
        if (this.stopping.signal.aborted) break;
        this.ports.logger.warn({ err, dir }, 'hot folder: scan failed; trying again at the next scan');
      }
      this.emit('scan', dir);
    }
    this.scans++;
  }

  /** Say (at most once a minute per folder) that complete entries wait for a free take, or that the folder holds more than a scan looks at. */
  private reportCapped(dir: string, heldBack: number, truncated: boolean): void {
    if (heldBack === 0 && !truncated) return;
    const now = this.ports.now();
    if (now - (this.lastCapLog.get(dir) ?? 0) < CAP_LOG_EVERY_MS) return;
    this.lastCapLog.set(dir, now);
    const { maxTakes } = this.settings;
    this.ports.logger.info(
      {
        hotFolder: dir,
        heldBack,
        inFlight: this.inFlight.size,
        maxTakes,
        truncated,
        scanMaxTopLevel: SCAN_MAX_TOP_LEVEL,
      },
      `hot folder: ${heldBack} complete entries wait for a free take (${this.inFlight.size} in flight, at most ${maxTakes} per watcher)${truncated ? `; the folder holds more than ${SCAN_MAX_TOP_LEVEL} entries, a scan looks at that many` : ''}`,
    );
  }

  /**
   * Folders held back by temp-named files inside them (settle.ts): past holdWarnMs the watcher
   * says so, once in the log and as a `waiting` run in `photowire runs` (its note updated as the
   * minutes pass); when the folder stops waiting the run is closed.
   */
  private async reportHeld(dir: string, held: HeldEntry[]): Promise<void> {
    const now = this.ports.now();
    const still = new Set<string>();
    for (const h of held) {
      const file = path.join(dir, h.entry.name);
      still.add(file);
      if (now - h.since < this.settings.holdWarnMs) continue;
      const note = heldMessage(h, now);
      const prev = this.heldRuns.get(file);
      if (prev?.note === note) continue;
      if (!prev)
        this.ports.logger.warn(
          { hotFolder: dir, file: h.entry.name, tempNames: h.entry.tempNames ?? [], waitingMs: now - h.since },
          `hot folder: ${note}`,
        );
      const id = `drop-waiting-${createHash('sha256').update(`${file}\0${h.since}`).digest('hex').slice(0, 16)}`;
      const run: RunRecord = {
        ...(prev ??
          newRun({ id, schedule: WATCH_SCHEDULE, source: file, trigger: 'drop', startedAt: new Date(h.since) })),
        state: 'waiting',
        note,
      };
      this.heldRuns.set(file, run);
      await this.ports.runs.save(run);
    }
    for (const [file, run] of this.heldRuns) {
      if (still.has(file) || path.dirname(file) !== dir) continue;
      this.heldRuns.delete(file);
      const waited = formatDuration(this.ports.now() - Date.parse(run.startedAt));
      await this.ports.runs.save(
        finishRun(run, 'done', this.date(), {
          note: `${path.basename(file)}/ waited ${waited} for its temp-named files; no longer waiting`,
        }),
      );
    }
  }

  private async touchSource(dir: string, newAt: number | null): Promise<void> {
    const now = this.ports.now();
    if (newAt === null && now - (this.lastTouch.get(dir) ?? 0) < SOURCE_TOUCH_MS) return;
    this.lastTouch.set(dir, now);
    await this.ports.runs.touchSource('watch', dir, { checkedAt: now, ...(newAt !== null ? { newAt } : {}) });
    if (newAt !== null) return;
    const status = (await this.ports.runs.sources()).find((s) => s.kind === 'watch' && s.name === dir);
    const st = status && staleness(status, now, this.settings.staleHours);
    if (st?.stale && now - (this.lastStaleWarning.get(dir) ?? 0) >= STALE_WARN_EVERY_MS) {
      this.lastStaleWarning.set(dir, now);
      this.ports.logger.warn({ dir, silentHours: st.silentHours }, `hot folder ${dir} is stale: ${st.reason}`);
    }
  }

  /**
   * Which photos in the hot folder each feed file names (parsed once per version of the feed):
   * its items' pictures and every other picture its XML names (renditions, residrefs), as the
   * top-level entries holding them; what each item waits for (PHOTOWIRE_PAIR_WAIT: its picture,
   * or any of the names its XML gives when the item names no file beside it, as Reuters' residrefs);
   * and which files are pictures without an image extension (Reuters' `..-BASEIMAGE`).
   * A feed that does not parse (yet) names nothing; it is reported when it is taken.
   */
  private async references(
    dir: string,
    candidates: EntryObservation[],
  ): Promise<{ holders: Map<string, string[]>; needs: Map<string, string[][]>; pictures: Set<string> }> {
    const cache = this.refCache.get(dir) ?? new Map<string, FileRefs>();
    const next = new Map<string, FileRefs>();
    const holders = new Map<string, string[]>();
    const needs = new Map<string, string[][]>();
    const pictures = new Set<string>();
    const top = (p: string): string | null =>
      p.startsWith(dir + path.sep) ? path.relative(dir, p).split(path.sep)[0]! : null;
    for (const c of candidates) {
      if (c.kind !== 'file') continue;
      if (hasImageExtension(c.name)) {
        pictures.add(c.name);
        continue;
      }
      let hit = cache.get(c.name);
      if (!hit || hit.signature !== c.signature) {
        hit = { signature: c.signature, holders: [], needs: [], picture: false };
        try {
          const feed = await this.ports.ingest.load(path.join(dir, c.name));
          if (feed.format === 'image') hit.picture = true;
          else {
            const named = (feed.names ?? []).map(top).filter((n): n is string => n !== null && n !== c.name);
            const own = feed.items.map((i) => localPicture(i)).map((p) => (p === null ? null : top(p)));
            hit.holders = [...new Set([...own.filter((n): n is string => n !== null && n !== c.name), ...named])];
            hit.needs = feed.items.flatMap((i, k) =>
              i.error ? [] : own[k] ? [[own[k]!]] : named.length ? [named] : [],
            );
          }
        } catch {
          // not readable yet: named nothing
        }
      }
      next.set(c.name, hit);
      if (hit.picture) pictures.add(c.name);
      if (hit.holders.length) holders.set(c.name, hit.holders);
      if (hit.needs.length) needs.set(c.name, hit.needs);
    }
    this.refCache.set(dir, next);
    return { holders, needs, pictures };
  }

  /**
   * PHOTOWIRE_PAIR_WAIT (planTakes.ts): which ready entries wait for their pair, and since when.
   * A lone picture waits only in a folder known to receive deliveries (one whose XML named
   * pictures; kept in Redis), so a folder of plain photos is taken as soon as they settle.
   */
  private async pairing(
    dir: string,
    ready: ReadyEntry[],
    present: Set<string>,
    refs: { holders: Map<string, string[]>; needs: Map<string, string[][]>; pictures: Set<string> },
  ): Promise<Pairing | undefined> {
    const waitMs = this.settings.pairWaitMs;
    if (waitMs <= 0) return undefined;
    const base = {
      waitMs,
      needs: refs.needs,
      isPicture: (n: string) => refs.pictures.has(n),
      picturesWait: refs.needs.size > 0 || (await this.ports.pairs.isDelivery(dir)),
    };
    const now = this.ports.now();
    const since = new Map<string, number>();
    for (const name of pairWaiters(ready, present, refs.holders, base)) {
      const file = path.join(dir, name);
      let at = this.pairSince.get(file);
      if (at === undefined) {
        at = await this.ports.pairs.since(dir, name, now);
        this.pairSince.set(file, at);
        this.ports.logger.info(
          { hotFolder: dir, file: name, waitMs, waitedMs: now - at },
          `hot folder: ${name} waits for its ${refs.needs.has(name) ? 'picture' : 'item'} (at most ${formatDuration(waitMs)})`,
        );
      }
      since.set(name, at);
    }
    return { ...base, now, since };
  }

  /**
   * Read a taken entry as a feed. A symlink is refused (PATH_OUTSIDE_FEED), wherever it points: a
   * hot folder takes what was dropped into it, never what a link names (`ln -s /elsewhere
   * hot/innocent-folder` would otherwise pass every check made against the link's own real path).
   * An entry whose real path is not directly in the hot folder's real path (swapped for a link
   * since the scan) is refused the same way, and the items of every entry are confined to the hot
   * folder's real path, not the entry's. A special file (FIFO, socket, device) is never opened.
   */
  private async loadEntry(dir: string, entry: EntryObservation, signal: AbortSignal): Promise<LoadedFeed> {
    const { files, ingest } = this.ports;
    const file = path.join(dir, entry.name);
    const refuse = (why: string) =>
      new InputError(
        'PATH_OUTSIDE_FEED',
        `${file}: ${why}; a hot folder takes only the files and folders dropped into it, never what a symlink points to`,
      );
    if (entry.kind === 'link') {
      const target = await files.readLink(file);
      throw refuse(`a symlink${target !== null ? ` to ${target}` : ''}`);
    }
    if (entry.kind === 'special') {
      throw new InputError(
        'FEED_UNREADABLE',
        `${file}: not a regular file or folder (${await files.specialKind(file)}); never opened`,
      );
    }
    const realDir = await files.realPath(dir);
    const real = await files.realPath(file);
    if (real !== path.join(realDir, entry.name))
      throw refuse(`resolves to ${real}, not an entry of the hot folder ${realDir} (a symlink)`);
    const feed = entry.kind === 'dir' ? await files.loadFolder(file, { signal }) : await ingest.load(file, { signal });
    return { ...feed, root: realDir };
  }

  /** Is `holder` also named by another feed still in the hot folder? */
  private async namedByAnotherFeed(dir: string, holder: string, feed: string): Promise<boolean> {
    for (const [name, ref] of this.refCache.get(dir) ?? []) {
      if (name !== feed && ref.holders.includes(holder) && (await this.ports.files.exists(path.join(dir, name))))
        return true;
    }
    return false;
  }

  /**
   * A feed file taken on its own: an item whose picture is not in the hot folder keeps its
   * metadata and fails PICTURE_MISSING (after PHOTOWIRE_PAIR_WAIT when `waited`), the same record
   * a delivery folder read whole gives (src/core/feeds/folderFeed.ts).
   */
  private async withMissingPictures(feed: LoadedFeed, waited: boolean): Promise<LoadedFeed> {
    const absent = new Set<string>();
    for (const i of feed.items) {
      const pic = localPicture(i);
      if (pic !== null && !i.error && !(await this.ports.files.exists(pic))) absent.add(pic);
    }
    if (absent.size === 0) return feed;
    const why = waited
      ? `did not arrive in the hot folder within PHOTOWIRE_PAIR_WAIT (${formatDuration(this.settings.pairWaitMs)})`
      : 'is not in the hot folder';
    return { ...feed, items: feed.items.map((i) => markMissingPicture(i, (p) => !absent.has(p), why)) };
  }

  /** Taken entries no longer wait for their pair. */
  private async pairDone(dir: string, names: string[]): Promise<void> {
    for (const n of names) this.pairSince.delete(path.join(dir, n));
    if (this.settings.pairWaitMs > 0) await this.ports.pairs.clear(dir, names);
  }

  private date(): Date {
    return new Date(this.ports.now());
  }

  /** An entry that cannot be read as a feed at all: to failed/ with its `.error.json`, and a failed run. */
  private async refuseEntry(dir: string, ready: PlannedTake, err: InputError, log: HotFolderLogger): Promise<void> {
    const { entry, reason } = ready;
    const file = path.join(dir, entry.name);
    const error = { code: err.code, message: err.message };
    const at = this.date();
    const movedTo = await this.ports.files.move(dir, entry.name, 'failed', at, error);
    const run = newRun({
      id: `drop-failed-${at.getTime()}-${this.ports.nonce()}`,
      schedule: WATCH_SCHEDULE,
      source: file,
      trigger: 'drop',
      startedAt: at,
    });
    await this.ports.runs.save(
      finishRun(run, 'failed', at, { files: 1, note: `${error.code}: ${error.message} (moved to ${movedTo})` }),
    );
    log.warn({ code: error.code, movedTo }, `hot folder: could not read ${entry.name}: ${error.message}`);
    this.emit('taken', {
      dir,
      name: entry.name,
      file,
      reason,
      outcome: 'failed',
      movedTo,
      companionsMovedTo: [],
      batchId: null,
      error,
    } satisfies TakeResult);
  }

  private async take(dir: string, ready: PlannedTake, signal: AbortSignal): Promise<void> {
    const { entry, reason, companions } = ready;
    const file = path.join(dir, entry.name);
    const log = this.ports.logger.child({ hotFolder: dir, file: entry.name });
    const claim = await this.ports.claims.acquire(
      file,
      `${this.owner}:${this.ports.nonce()}`,
      this.settings.claimTtlMs,
    );
    if (!claim) return; // another watcher has it
    let release = true;
    try {
      // Seen complete before the claim: still the same now? (Another watcher may have moved it, or it changed.)
      const now = await this.ports.files.observe(dir, entry.name, signal);
      if (!now || now.signature !== entry.signature) return;
      const lost = new AbortController();
      claim.keepAlive(() => {
        log.warn({}, 'hot folder: lost the claim on a file; leaving it to whoever holds it now');
        lost.abort(new Error('claim lost'));
      });
      let feed;
      try {
        feed = await this.loadEntry(dir, entry, signal);
      } catch (err) {
        if (!isInputError(err)) throw err;
        await this.refuseEntry(dir, ready, err, log);
        await this.pairDone(dir, [entry.name]);
        return;
      }
      if (entry.kind === 'file') feed = await this.withMissingPictures(feed, ready.unpaired === true);
      // A delivery (XML naming its pictures): from now on a picture dropped first waits for its item.
      if (this.settings.pairWaitMs > 0 && companions.length > 0)
        await this.ports.pairs.markDelivery(dir, this.ports.now());
      let run!: RunRecord;
      let again = false;
      const { summary } = await this.ports.ingest.take(feed, {
        signal: AbortSignal.any([signal, lost.signal]),
        logger: log,
        onEnqueued: async (enq) => {
          const runId = `drop-${feed.batchId}`;
          const previous = await this.ports.runs.get(runId);
          // Same path, same content as a feed taken before: nothing new is ingested, the file is cleared away.
          again = !enq.created && previous?.state === 'done';
          run = again
            ? newRun({
                id: `${runId}-${this.ports.now()}`,
                schedule: WATCH_SCHEDULE,
                source: file,
                trigger: 'drop',
                startedAt: this.date(),
              })
            : (previous ??
              newRun({ id: runId, schedule: WATCH_SCHEDULE, source: file, trigger: 'drop', startedAt: this.date() }));
          run = { ...run, batchId: feed.batchId, files: 1, items: enq.expected };
          await this.ports.runs.save(run);
          if (!again) await this.touchSource(dir, this.ports.now());
          log.info(
            { batchId: feed.batchId, format: feed.format, items: enq.expected, reason, created: enq.created },
            'hot folder: file taken',
          );
        },
      });
      // Photos first: while the feed is still in place, no watcher takes them on their own.
      const companionsMovedTo: string[] = [];
      const moves: Array<{ from: string; to: string }> = [];
      for (const c of companions) {
        if (await this.namedByAnotherFeed(dir, c, entry.name)) continue; // that feed moves it when it is done
        try {
          const to = await this.ports.files.move(dir, c, 'processed', this.date());
          companionsMovedTo.push(to);
          moves.push({ from: path.join(dir, c), to });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      const movedTo = await this.ports.files.move(dir, entry.name, 'processed', this.date());
      moves.push({ from: file, to: movedTo });
      // With the batch: a retry of a failed item reads it from processed/ (where a corrected file goes), not from the drop path.
      await this.ports.moves.record(feed.batchId, moves);
      await this.pairDone(dir, [entry.name, ...companions]);
      const counts = { ok: summary?.ok ?? 0, failed: summary?.failed ?? 0, duplicates: summary?.duplicates ?? 0 };
      await this.ports.runs.save(
        again
          ? finishRun(run, 'empty', this.date(), {
              ...counts,
              note: `the same file was taken before as batch ${feed.batchId}; nothing taken twice`,
            })
          : finishRun(run, 'done', this.date(), counts),
      );
      log.info(
        { batchId: feed.batchId, movedTo, companions: companionsMovedTo.length, ...counts },
        'hot folder: batch done, file moved',
      );
      const outcome = again ? 'already-taken' : 'processed';
      this.emit('taken', {
        dir,
        name: entry.name,
        file,
        reason,
        outcome,
        movedTo,
        companionsMovedTo,
        batchId: feed.batchId,
        error: null,
      } satisfies TakeResult);
    } catch (err) {
      if (signal.aborted || claim.isLost) {
        // Stopping (or the claim is gone): the file stays; whoever takes it next lands on the same batch.
        release = !this.abandon && !claim.isLost;
        return;
      }
      throw err;
    } finally {
      if (release) await claim.release().catch(() => undefined);
      else claim.stopRenewing();
    }
  }

  /**
   * Stop scanning. In-flight files stay in the hot folder with their batches queued; their claims
   * are released so the next watcher takes them over at once. `abandon` leaves the claims to expire
   * instead, as a watcher killed outright would.
   */
  async stop(opts: { abandon?: boolean } = {}): Promise<void> {
    this.running = false;
    this.abandon = opts.abandon ?? false;
    this.stopping.abort(new Error('watcher stopping'));
    this.wake?.();
    for (const w of this.folderWatches) w.close();
    this.folderWatches.length = 0;
    for (const f of this.inFlight.values()) f.abort.abort(new Error('watcher stopping'));
    await this.loop;
    await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }

  /** Resolves when every file in flight is done (for tests and `--once`-style callers). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
  }
}
