import { formatSummary } from '../../../src/cli/printSummary';
import type { BatchSummary } from '../../../src/workers/summarizeBatch';

const base: BatchSummary = {
  batchId: 'one-photo-0123456789ab', feed: '/drop/one.jpg', format: 'image', state: 'done', items: 1, ok: 1, failed: 0, pending: 0,
  complete: true, photos: 1, captionOnly: 0, distinctCaptions: 1, clusters: 1, duplicates: 0, lowConfidenceCredits: 1, durationMs: 120,
  createdAt: '2026-12-01T00:00:00.000Z', finishedAt: '2026-12-01T00:00:00.120Z', records: '/d/records.ndjson', renditions: '/d/renditions', failures: [], warnings: [],
};

describe('the printed batch summary', () => {
  it('counts in singular and plural as a person reads them', () => {
    const one = formatSummary(base);
    expect(one).toContain('1 item: 1 ok, 0 failed · 1 photo, 0 caption-only · 1 distinct caption in 1 cluster (0 near-duplicates) · 1 low-confidence credit');
    const many = formatSummary({ ...base, items: 2, ok: 2, photos: 2, distinctCaptions: 2, clusters: 2, duplicates: 1, lowConfidenceCredits: 0 });
    expect(many).toContain('2 items: 2 ok, 0 failed · 2 photos, 0 caption-only · 2 distinct captions in 2 clusters (1 near-duplicate) · 0 low-confidence credits');
  });
});
