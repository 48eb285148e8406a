import type { ArchivedEntry } from '../../core/retention/plan';
import type { CatalogRecord } from '../../schemas/record';
import type { BatchSummary } from '../batches/summarizeBatch';

/** What reading archived batches needs: the live ledger (a batch in Redis is not archived), the archived index, the export. */
export interface ArchivedBatchPorts {
  /** Is the batch's ledger in Redis (then it is live, not archived)? */
  isLive(batchId: string): Promise<boolean>;
  /** The archived index's entry (written by the retention pass), or null. */
  archivedEntry(batchId: string): Promise<ArchivedEntry | null>;
  /** The archived index, newest first. */
  listArchived(limit: number): Promise<ArchivedEntry[]>;
  /** summary.json of the batch's export, parsed; null when it is not in storage. */
  summary(batchId: string): Promise<unknown | null>;
  /** records.ndjson of the batch's export, a record at a time (streamed); null when it is not in storage. */
  records(batchId: string): Promise<AsyncIterable<CatalogRecord> | null>;
  /** Where records.ndjson is, for people. */
  location(batchId: string): string;
}

/** An archived batch as it is read: its summary.json, with `archived: true` and when it left Redis. */
export type ArchivedSummary = BatchSummary & { archived: true; archivedAt: string | null };

/** A page of an archived batch's records (the filters applied while the ndjson streams by). */
export interface ArchivedPage {
  total: number;
  records: CatalogRecord[];
  nextOffset: number | null;
  /** Records read from the stream to answer. */
  scanned: number;
}

/**
 * Archived batches (Retention): a batch the retention pass removed from Redis is its
 * export in storage, records.ndjson and summary.json, read here, read-only. A batch whose ledger is
 * gone and whose export is in storage counts as archived even without the archived index's entry
 * (a Redis lost or flushed): storage is the archive.
 *
 * Records are streamed: a page without filters reads the ndjson up to the page's end; a filtered
 * page reads it to the end to count the matches, holding only the page.
 */
export class ArchivedBatches {
  constructor(private readonly ports: ArchivedBatchPorts) {}

  /** The archived batch's summary, or null when the batch is live or not in storage. */
  async open(batchId: string): Promise<ArchivedSummary | null> {
    if (await this.ports.isLive(batchId)) return null;
    const [raw, entry] = await Promise.all([this.ports.summary(batchId), this.ports.archivedEntry(batchId)]);
    if (!raw || typeof raw !== 'object') return null;
    const s = raw as Partial<BatchSummary>;
    if (s.batchId !== undefined && s.batchId !== batchId) return null;
    return {
      ...emptySummary(batchId),
      ...s,
      batchId,
      records: this.ports.location(batchId),
      failures: Array.isArray(s.failures) ? s.failures : [],
      warnings: Array.isArray(s.warnings) ? s.warnings : [],
      archived: true,
      archivedAt: entry?.archivedAt ?? null,
    };
  }

  /** The archived index's entries, newest first. */
  list(limit: number): Promise<ArchivedEntry[]> {
    return this.ports.listArchived(limit);
  }

  /** Every record in feed order, streamed; null when the export has none. */
  records(batchId: string): Promise<AsyncIterable<CatalogRecord> | null> {
    return this.ports.records(batchId);
  }

  /**
   * One page of records, `matches` (after `present`, which may rewrite a record) deciding which
   * count. Without a filter (`matches` undefined) the stream is read up to the page's end and the
   * total is the summary's item count.
   */
  async page(
    batchId: string,
    q: { offset: number; limit: number },
    opts: {
      matches?: (r: CatalogRecord) => boolean;
      present?: (r: CatalogRecord) => CatalogRecord;
      items?: number;
    } = {},
  ): Promise<ArchivedPage | null> {
    const all = await this.ports.records(batchId);
    if (!all) return null;
    const present = opts.present ?? ((r: CatalogRecord) => r);
    const out: CatalogRecord[] = [];
    let matched = 0;
    let scanned = 0;
    const end = q.offset + q.limit;
    for await (const stored of all) {
      scanned++;
      if (!opts.matches) {
        if (scanned > q.offset) out.push(present(stored));
        if (scanned >= end) break;
        continue;
      }
      const r = present(stored);
      if (!opts.matches(r)) continue;
      matched++;
      if (matched > q.offset && matched <= end) out.push(r);
    }
    const total = opts.matches ? matched : Math.max(opts.items ?? 0, scanned);
    return { total, records: out, nextOffset: end < total ? end : null, scanned };
  }
}

/** "archived on 2026-11-16T03:00:00.000Z" (or "archived" when only its export tells it is): for the CLI's notices and errors. */
export function archivedSince(s: Pick<ArchivedSummary, 'archivedAt'>): string {
  return s.archivedAt ? `archived on ${s.archivedAt}` : 'archived';
}

/** The one sentence a retry of an archived batch is refused with (BATCH_ARCHIVED, in the API and the CLI). */
export function archivedRetryRefusal(s: Pick<ArchivedSummary, 'batchId' | 'archivedAt'>): string {
  return `batch ${s.batchId} is ${archivedSince(s)} (removed from Redis by retention): read-only, its failed items expired with it; ingest the feed again to process them`;
}

function emptySummary(batchId: string): BatchSummary {
  return {
    batchId,
    feed: '',
    format: '',
    state: 'done',
    items: 0,
    ok: 0,
    failed: 0,
    pending: 0,
    complete: true,
    photos: 0,
    captionOnly: 0,
    distinctCaptions: 0,
    clusters: 0,
    duplicates: 0,
    identical: 0,
    joinedEarlier: 0,
    joinedThisRun: 0,
    lowConfidenceCredits: 0,
    skipped: {},
    processingMs: null,
    elapsedMs: null,
    durationMs: null,
    createdAt: '',
    finishedAt: null,
    records: '',
    renditions: '',
    failures: [],
    warnings: [],
  };
}
