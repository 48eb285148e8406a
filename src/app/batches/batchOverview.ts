import type { BatchLedger } from '../../adapters/redis/catalogStore';
import { RunLog } from '../../adapters/redis/runLog';
import type { RunRecord } from '../../core/runs/runRecord';
import type { PipelineContext } from '../pipelineContext';
import { summarizeBatch } from './summarizeBatch';
import type { ArchivedBatches, ArchivedSummary } from '../retention/archivedBatches';
import { archivedBatches } from '../retention/retentionRuntime';
import { expiresAt } from '../../core/retention/plan';
import type { BatchOverview } from '../../schemas/api';

type Counts = NonNullable<BatchOverview['counts']>;

/** Processing and elapsed time of a done batch (src/app/batches/summarizeBatch.ts says which is which). */
function times(l: BatchLedger): Pick<BatchOverview, 'processingMs' | 'elapsedMs'> {
  if (l.state !== 'done' || !l.finishedAt) return { processingMs: null, elapsedMs: null };
  const elapsedMs = Date.parse(l.finishedAt) - Date.parse(l.createdAt);
  return { processingMs: l.processingMs ?? elapsedMs, elapsedMs };
}

/**
 * Ledger counts are cheap (one hash) and always live; the record-derived counts (clusters,
 * duplicates, low-confidence credits) read every record, so they are cached per ledger state and,
 * for a running batch, recomputed at most every `runningTtlMs`.
 */
export class BatchOverviews {
  private readonly cache = new Map<string, { sig: string; at: number; counts: Counts }>();
  private readonly runLog: RunLog;
  /** Archived batches' summaries (summary.json never changes once a batch is archived). */
  private readonly archivedCache = new Map<string, ArchivedSummary>();
  readonly archive: ArchivedBatches;
  constructor(
    private readonly ctx: PipelineContext,
    private readonly runningTtlMs = 2000,
    private readonly maxCached = 2000,
  ) {
    this.runLog = new RunLog(ctx.redis, ctx.config.prefix);
    this.archive = archivedBatches(ctx);
  }

  /** Batches and the runs (schedules, hot folders) that made them, of the last days. */
  async listWithRuns(opts: {
    days: number;
    limit: number;
  }): Promise<{ batches: BatchOverview[]; runs: Array<RunRecord & Record<string, unknown>> }> {
    const since = Date.now() - opts.days * 86_400_000;
    const [batches, runs] = await Promise.all([this.list(opts), this.runLog.list({ limit: opts.limit })]);
    return { batches, runs: runs.filter((r) => Date.parse(r.startedAt) >= since).map((r) => ({ ...r })) };
  }

  /** Batches of the last `days`, newest first: those in Redis, then archived ones (retention removed them; `archived: true`). */
  async list(opts: { days: number; limit: number }): Promise<BatchOverview[]> {
    const since = Date.now() - opts.days * 86_400_000;
    const ids = await this.ctx.catalog.listBatches(opts.limit);
    const ledgers = await Promise.all(ids.map((id) => this.ctx.catalog.getBatch(id)));
    const recent = ledgers.filter((l): l is BatchLedger => !!l && Date.parse(l.createdAt) >= since);
    const live = await Promise.all(recent.map((l) => this.overview(l)));
    // Archived batches are older than the retention window: only a list reaching back that far reads them.
    const room = opts.limit - live.length;
    if (room <= 0 || since >= Date.now() - this.ctx.config.retentionDays * 86_400_000) return live;
    const entries = (await this.archive.list(room)).filter(
      (e) => Date.parse(e.createdAt) >= since && !ids.includes(e.id),
    );
    const archived = (await Promise.all(entries.map((e) => this.archivedSummary(e.id)))).filter(
      (a): a is ArchivedSummary => a !== null,
    );
    return [...live, ...archived.map((a) => archivedOverview(a))].sort(
      (a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt),
    );
  }

  async get(
    batchId: string,
  ): Promise<
    | { ledger: BatchLedger; overview: BatchOverview; archived?: undefined }
    | { ledger: null; overview: BatchOverview; archived: ArchivedSummary }
    | null
  > {
    const ledger = await this.ctx.catalog.getBatch(batchId);
    if (ledger) return { ledger, overview: await this.overview(ledger) };
    const archived = await this.archivedSummary(batchId);
    return archived ? { ledger: null, overview: archivedOverview(archived), archived } : null;
  }

  /** An archived batch's summary.json (cached), or null when the batch is not archived. */
  async archivedSummary(batchId: string): Promise<ArchivedSummary | null> {
    const hit = this.archivedCache.get(batchId);
    if (hit) return hit;
    const s = await this.archive.open(batchId);
    if (!s) return null;
    if (this.archivedCache.size >= this.maxCached) this.archivedCache.delete(this.archivedCache.keys().next().value!);
    this.archivedCache.set(batchId, s);
    return s;
  }

  private async overview(l: BatchLedger): Promise<BatchOverview> {
    return {
      id: l.id,
      feed: l.feed,
      format: l.format,
      state: l.state,
      createdAt: l.createdAt,
      finishedAt: l.finishedAt,
      expected: l.expected,
      ok: l.ok,
      failed: l.failed,
      pending: Math.max(0, l.expected - l.ok - l.failed),
      warnings: l.warnings.length,
      skipped: l.skipped,
      ...times(l),
      counts: l.ok + l.failed === 0 ? null : await this.counts(l),
      archived: false,
      expiresAt: expiresAt(l.state === 'done' ? l.finishedAt : null, this.ctx.config.retentionDays),
    };
  }

  private async counts(l: BatchLedger): Promise<Counts | null> {
    const sig = `${l.state}|${l.ok}|${l.failed}|${l.finishedAt ?? ''}`;
    const hit = this.cache.get(l.id);
    if (hit && (hit.sig === sig || (l.state !== 'done' && Date.now() - hit.at < this.runningTtlMs))) return hit.counts;
    const s = await summarizeBatch(this.ctx, l.id);
    if (!s) return hit?.counts ?? null;
    const counts = countsOf(s);
    if (this.cache.size >= this.maxCached) this.cache.delete(this.cache.keys().next().value!);
    this.cache.delete(l.id);
    this.cache.set(l.id, { sig, at: Date.now(), counts });
    return counts;
  }
}

/** The counters a batch's overview shows, from its summary (live or archived). */
function countsOf(s: Counts): Counts {
  return {
    photos: s.photos,
    captionOnly: s.captionOnly,
    clusters: s.clusters,
    duplicates: s.duplicates,
    // A summary.json of a version before `identical` counted every duplicate as near.
    identical: s.identical ?? 0,
    joinedEarlier: s.joinedEarlier,
    lowConfidenceCredits: s.lowConfidenceCredits,
  };
}

/** An archived batch's overview, from its summary.json. */
function archivedOverview(s: ArchivedSummary): BatchOverview {
  return {
    id: s.batchId,
    feed: s.feed,
    format: s.format,
    state: 'done',
    createdAt: s.createdAt,
    finishedAt: s.finishedAt,
    expected: s.items,
    ok: s.ok,
    failed: s.failed,
    pending: 0,
    warnings: s.warnings.length,
    skipped: s.skipped ?? {},
    processingMs: s.processingMs ?? null,
    elapsedMs: s.elapsedMs ?? null,
    counts: countsOf(s),
    archived: true,
    archivedAt: s.archivedAt,
    expiresAt: null,
  };
}
