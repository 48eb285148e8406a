import { createHash } from 'node:crypto';
import type { LoadedFeed } from '../../adapters/feeds/loadFeed';
import { loadHttpFeed } from '../../adapters/http/loadHttpFeed';
import { Lease } from '../../adapters/redis/lease';
import { loadFileList } from '../../adapters/feeds/loadFileList';
import { RunLog } from '../../adapters/redis/runLog';
import { shortTime } from '../runs/formatRuns';
import { finishRun, newRun, type RunRecord } from '../../core/runs/runRecord';
import { staleness } from '../../core/runs/stale';
import type { SourceRuntime } from '../runtime';
import { newSinceCursor, prunableKeys, type Keyed } from '../../core/schedules/cursor';
import { httpItemKey } from './httpItemKey';
import { emptyRunNote } from './emptyRunNote';
import { listFolder } from './listFolder';
import { scheduledBatchId, scheduledFeedName } from './runName';
import { isHttpSource } from './scheduleDef';
import type { ScheduleJob } from '../../schemas/scheduleJob';
import { ScheduleStore, type PendingRun } from '../../adapters/redis/scheduleStore';
import { fileSignature, selectFiles } from './selectFiles';

/** Cursor entries of files gone from the source are forgotten after this long. */
const CURSOR_RETENTION_MS = 30 * 86_400_000;

export type RunOutcome =
  { state: 'done' | 'empty' | 'resumed' | 'already-ran'; runId: string } | { state: 'locked'; holder: string | null };

/**
 * One run of a schedule: take what is new in its source since the last successful run, as one
 * batch; wait for the batch; then advance the cursor. A lock keeps two runs of one schedule from
 * overlapping; a run interrupted by a crash is finished (same batch) by the next one.
 */
export class ScheduleRunner {
  readonly store: ScheduleStore;
  readonly runs: RunLog;
  private readonly lockTtlMs: number;
  private readonly active = new Set<AbortController>();

  private readonly nextRunAt: (schedule: string) => Promise<number | null>;

  constructor(
    private readonly rt: SourceRuntime,
    opts: { lockTtlMs?: number; nextRunAt?: (schedule: string) => Promise<number | null> } = {},
  ) {
    this.store = new ScheduleStore(rt.redis, rt.config.prefix);
    this.runs = new RunLog(rt.redis, rt.config.prefix);
    this.lockTtlMs = opts.lockTtlMs ?? 60_000;
    this.nextRunAt = opts.nextRunAt ?? (async () => null);
  }

  async run(job: ScheduleJob, runId: string): Promise<RunOutcome> {
    const lockKey = this.store.lockKey(job.schedule);
    const lease = await Lease.acquire(this.rt.redis, lockKey, runId, this.lockTtlMs);
    if (!lease) return { state: 'locked', holder: await Lease.holder(this.rt.redis, lockKey) };
    const stop = new AbortController();
    this.active.add(stop);
    lease.keepAlive(() => stop.abort(new Error(`lost the lock of schedule ${job.schedule}`)));
    try {
      const pending = await this.store.pending(job.schedule);
      if (pending) {
        this.rt.logger.info(
          { schedule: job.schedule, runId: pending.runId, batchId: pending.feed.batchId },
          'schedule: finishing an interrupted run first',
        );
        await this.complete(job.schedule, pending, stop.signal);
        if (pending.runId === runId) return { state: 'done', runId };
      }
      if (job.trigger === 'resume') return { state: 'resumed', runId: pending?.runId ?? runId };
      // A job that comes back after its run was finished by someone else (a stalled job after a crash) does nothing.
      const previous = await this.runs.get(runId);
      if (previous && previous.state !== 'running') return { state: 'already-ran', runId };
      const next = await this.prepare(job, runId, stop.signal);
      if (!next) return { state: 'empty', runId };
      await this.complete(job.schedule, next, stop.signal);
      return { state: 'done', runId };
    } finally {
      this.active.delete(stop);
      await lease.release().catch(() => undefined);
    }
  }

  /** Stop waiting in every run of this process; their pending runs are finished by the next start. */
  abortAll(reason = 'scheduler stopping'): void {
    for (const c of this.active) c.abort(new Error(reason));
  }

  /**
   * Choose what is new and record it as the pending run (null when there is nothing: the run is
   * recorded as empty). Only call with the schedule's lock held.
   */
  async prepare(job: ScheduleJob, runId: string, signal?: AbortSignal): Promise<PendingRun | null> {
    const { config, logger } = this.rt;
    const name = job.schedule;
    const run = newRun({
      id: runId,
      schedule: name,
      source: job.source,
      trigger: runTrigger(job.trigger),
      startedAt: new Date(),
    });
    await this.runs.save(run);
    try {
      const cursor = await this.store.cursor(name);
      const now = Date.now();
      let feed: LoadedFeed;
      let commit: Keyed[];
      let prune: string[];
      let nothing: string | null = null;
      let leftover: string | null = null;
      if (isHttpSource(job.source)) {
        const http = await loadHttpFeed(job.source, config);
        const keyed = http.items.map((item) => ({ item, ...httpItemKey(item) }));
        const fresh = newSinceCursor(keyed, cursor);
        prune = prunableKeys(cursor, new Set(keyed.map((k) => k.key)), now, CURSOR_RETENTION_MS);
        commit = fresh.map(({ key, signature }) => ({ key, signature }));
        if (fresh.length === 0) {
          const last = await this.lastRunAt(name, runId);
          const what =
            http.items.length === 0
              ? 'the feed has no items yet'
              : last === null
                ? `first run: none of the feed's ${http.items.length} item(s) is new`
                : `nothing new: the feed's ${http.items.length} item(s) were all taken before`;
          const next = await this.nextRunAt(name).catch(() => null);
          nothing = next === null ? what : `${what}; next check ${shortTime(new Date(next).toISOString())}`;
        }
        const batchId = scheduledBatchId(name, job.source, runDigest(name, runId, commit));
        feed = {
          batchId,
          feedPath: scheduledFeedName(name, job.source),
          root: http.url,
          format: http.format,
          items: fresh.map((f) => f.item),
          article: http.article,
          warnings: http.warnings,
        };
      } else {
        const listing = await listFolder(job.source, { signal });
        const sel = selectFiles(listing.files, listing.marked, cursor, now, config.settleMs);
        prune = prunableKeys(cursor, new Set(listing.files.map((f) => f.abs)), now, CURSOR_RETENTION_MS);
        commit = sel.take.map((f) => ({ key: f.abs, signature: fileSignature(f) }));
        if (sel.young.length)
          leftover = `${sel.young.length} file(s) still being written, left for the next run: ${sel.young.map((f) => f.rel).join(', ')}`;
        if (sel.take.length === 0) {
          nothing = emptyRunNote({
            lastRunAt: await this.lastRunAt(name, runId),
            young: sel.young.map((f) => f.rel),
            sourceFiles: listing.files.length,
            next: await this.nextRunAt(name).catch(() => null),
          });
        }
        const batchId = scheduledBatchId(name, job.source, runDigest(name, runId, commit));
        const loaded = sel.take.length
          ? await loadFileList(
              job.source,
              sel.take.map((f) => f.abs),
              config.maxFeedBytes,
              batchId,
              { signal },
            )
          : emptyFeed(batchId, job.source);
        feed = { ...loaded, feedPath: scheduledFeedName(name, job.source), format: 'scheduled-folder' };
      }
      if (nothing !== null) {
        await this.runs.save(finishRun(run, 'empty', new Date(), { note: nothing }));
        await this.runs.touchSource('schedule', name, { checkedAt: now });
        await this.warnIfStale(name);
        logger.info({ schedule: name, runId }, `schedule: ${nothing}`);
        return null;
      }
      const pending: PendingRun = {
        runId,
        trigger: runTrigger(job.trigger),
        startedAt: run.startedAt,
        source: job.source,
        feed,
        commit,
        prune,
      };
      await this.store.setPending(name, pending);
      await this.runs.save({
        ...run,
        batchId: feed.batchId,
        files: commit.length,
        items: feed.items.length,
        note: leftover,
      });
      return pending;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await this.runs.save(finishRun(run, 'failed', new Date(), { note: message }));
      await this.runs.touchSource('schedule', name, { checkedAt: Date.now() });
      throw err;
    }
  }

  /** Enqueue the pending run's batch (again, harmlessly, after a crash), wait for it, commit the cursor. */
  async complete(name: string, pending: PendingRun, signal?: AbortSignal): Promise<RunRecord> {
    const { logger } = this.rt;
    let run!: RunRecord;
    const { summary } = await this.rt.ingest.take(pending.feed, {
      signal,
      logger: logger.child({ schedule: name, runId: pending.runId }),
      onEnqueued: async (enq) => {
        await this.runs.touchSource('schedule', name, { checkedAt: Date.now(), newAt: Date.now() });
        run = (await this.runs.get(pending.runId)) ?? {
          ...newRun({
            id: pending.runId,
            schedule: name,
            source: pending.source,
            trigger: pending.trigger,
            startedAt: new Date(pending.startedAt),
          }),
          batchId: pending.feed.batchId,
          files: pending.commit.length,
          items: pending.feed.items.length,
        };
        logger.info(
          {
            schedule: name,
            runId: pending.runId,
            batchId: enq.batchId,
            items: enq.expected,
            files: pending.commit.length,
          },
          'schedule: run enqueued',
        );
      },
    });
    await this.store.commit(name, pending, Date.now());
    const done = finishRun(run, 'done', new Date(), {
      batchId: pending.feed.batchId,
      files: pending.commit.length,
      items: summary?.items ?? pending.feed.items.length,
      ok: summary?.ok ?? 0,
      failed: summary?.failed ?? 0,
      duplicates: summary?.duplicates ?? 0,
    });
    await this.runs.save(done);
    logger.info(
      {
        schedule: name,
        runId: run.id,
        batchId: done.batchId,
        ok: done.ok,
        failed: done.failed,
        durationMs: done.durationMs,
      },
      'schedule: run done',
    );
    return done;
  }

  /** The start of this schedule's last finished run before `runId` (a folded stretch counts by its last check); null for its first run. */
  private async lastRunAt(name: string, runId: string): Promise<string | null> {
    const prev = (await this.runs.list({ schedule: name, limit: 3 })).find(
      (r) => r.id !== runId && r.state !== 'running',
    );
    return prev ? (prev.lastAt ?? prev.startedAt) : null;
  }

  private async warnIfStale(name: string): Promise<void> {
    const status = (await this.runs.sources()).find((s) => s.kind === 'schedule' && s.name === name);
    if (!status) return;
    const st = staleness(status, Date.now(), this.rt.config.staleHours);
    if (st.stale)
      this.rt.logger.warn(
        { schedule: name, source: status.source, silentHours: st.silentHours },
        `schedule ${name} is stale: ${st.reason}`,
      );
  }
}

function runDigest(name: string, runId: string, commit: Keyed[]): string {
  const h = createHash('sha256').update(`schedule\0${name}\0${runId}\n`);
  for (const e of commit) h.update(`${e.key}\0${e.signature}\n`);
  return h.digest('hex');
}

function emptyFeed(batchId: string, source: string): LoadedFeed {
  return { batchId, feedPath: source, root: source, format: 'file-list', items: [], article: null, warnings: [] };
}

const runTrigger = (t: ScheduleJob['trigger']): RunRecord['trigger'] => (t === 'resume' ? 'catch-up' : t);
