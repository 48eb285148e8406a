import { formatSummary } from '../../../src/cli/printSummary';
import type { BatchSummary } from '../../../src/app/batches/summarizeBatch';

const base: BatchSummary = {
  batchId: 'one-photo-0123456789ab',
  feed: '/drop/one.jpg',
  format: 'image',
  state: 'done',
  items: 1,
  ok: 1,
  failed: 0,
  pending: 0,
  complete: true,
  photos: 1,
  captionOnly: 0,
  distinctCaptions: 1,
  clusters: 1,
  duplicates: 0,
  identical: 0,
  joinedEarlier: 0,
  joinedThisRun: 0,
  lowConfidenceCredits: 1,
  skipped: {},
  processingMs: 120,
  elapsedMs: 120,
  durationMs: 120,
  createdAt: '2026-12-01T00:00:00.000Z',
  finishedAt: '2026-12-01T00:00:00.120Z',
  records: '/d/records.ndjson',
  renditions: '/d/renditions',
  failures: [],
  warnings: [],
};

describe('the printed batch summary', () => {
  it('counts in singular and plural as a person reads them', () => {
    const one = formatSummary(base);
    expect(one).toContain(
      '1 item: 1 ok, 0 failed · 1 photo, 0 caption-only · 1 distinct caption in 1 cluster (0 near-duplicates) · 1 low-confidence credit',
    );
    const many = formatSummary({
      ...base,
      items: 2,
      ok: 2,
      photos: 2,
      distinctCaptions: 2,
      clusters: 2,
      duplicates: 1,
      lowConfidenceCredits: 0,
    });
    expect(many).toContain(
      '2 items: 2 ok, 0 failed · 2 photos, 0 caption-only · 2 distinct captions in 2 clusters (1 near-duplicate) · 0 low-confidence credits',
    );
  });

  it('says "took" for the processing time, and the elapsed time only when a late retry made it much longer', () => {
    expect(formatSummary(base)).toMatch(/ · took 0\.1 s$/m);
    const retried = formatSummary({ ...base, processingMs: 140, elapsedMs: 342_000, durationMs: 342_000 });
    expect(retried).toContain(' · took 0.1 s, finished 5 min 42 s after it arrived');
    expect(formatSummary({ ...base, processingMs: 61_000, elapsedMs: 62_500 })).toMatch(/ · took 1 min 01 s$/m);
  });

  it('reads a summary.json of a version before processingMs: durationMs is the time', () => {
    const { processingMs: _p, elapsedMs: _e, joinedEarlier: _j, skipped: _s, ...old } = base;
    expect(formatSummary({ ...old, durationMs: 1500 } as unknown as BatchSummary)).toMatch(/ · took 1\.5 s$/m);
  });

  it('says near-duplicates within the batch and clusters joined from earlier batches apart', () => {
    const s = formatSummary({
      ...base,
      items: 6,
      ok: 6,
      distinctCaptions: 2,
      clusters: 3,
      duplicates: 3,
      joinedEarlier: 2,
    });
    expect(s).toContain('2 distinct captions in 3 clusters (3 near-duplicates, 2 joined earlier clusters)');
  });

  it('says an identical duplicate as the card does ("identical captions"), not as a near-duplicate', () => {
    // The manifest of the sample: one caption sent twice word for word.
    const exact = formatSummary({
      ...base,
      items: 2,
      ok: 2,
      distinctCaptions: 1,
      clusters: 1,
      duplicates: 1,
      identical: 1,
    });
    expect(exact).toContain('1 distinct caption in 1 cluster (1 identical duplicate)');
    expect(exact).not.toContain('near-duplicate');
    const both = formatSummary({
      ...base,
      items: 4,
      ok: 4,
      distinctCaptions: 3,
      clusters: 1,
      duplicates: 3,
      identical: 1,
    });
    expect(both).toContain('(1 identical duplicate, 2 near-duplicates)');
    // A summary.json written before `identical` existed reads as it did.
    const { identical: _i, joinedThisRun: _r, ...old } = { ...base, duplicates: 2 };
    expect(formatSummary(old as BatchSummary)).toContain('(2 near-duplicates)');
  });

  it("says the clusters of the same run's other feeds apart from earlier ones", () => {
    const s = formatSummary({
      ...base,
      items: 7,
      ok: 7,
      distinctCaptions: 6,
      clusters: 6,
      joinedEarlier: 0,
      joinedThisRun: 3,
    });
    expect(s).toContain('(0 near-duplicates, 3 joined clusters of other feeds in this run)');
    expect(s).not.toContain('earlier');
    expect(formatSummary({ ...base, joinedEarlier: 1, joinedThisRun: 1 })).toContain(
      '(0 near-duplicates, 1 joined earlier cluster, 1 joined a cluster of another feed in this run)',
    );
  });

  it('lists the items that are not pictures, by kind', () => {
    expect(formatSummary({ ...base, skipped: { text: 1, video: 1 } })).toContain(
      '\n  skipped: 1 text item, 1 video item (not pictures)\n',
    );
    expect(formatSummary({ ...base, skipped: { text: 1, file: 2 } })).toContain(
      '\n  skipped: 1 text item, 2 files (not pictures)\n',
    );
    expect(formatSummary({ ...base, skipped: { package: 2 } })).toContain('skipped: 2 package items');
    expect(formatSummary(base)).not.toContain('skipped');
  });
});
