import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { archiveBatch } from '../helpers/archive';
import { startDesk, type Desk } from '../helpers/deskServer';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/** Archived batches over HTTP: after a real retention pass the desk API reads them from storage, read-only. */
describe('archived batches on the desk API', () => {
  const dir = makeTmpDir('retention-archived');
  let desk: Desk;
  let batchId = '';

  beforeAll(async () => {
    desk = await startDesk({ token: null, overrides: { PHOTOWIRE_RETENTION_EVERY: '0' } });
    mkdirSync(dir, { recursive: true });
    const feed = path.join(dir, 'old.ndjson');
    const items = Array.from({ length: 30 }, (_, i) => ({
      id: `a-${i + 1}`,
      caption: `Item ${i + 1}: the ${i % 2 ? 'tram' : 'ferry'} waits at Hull. (Photo: Jo Bloggs/${i % 3 ? 'AFP' : 'Reuters'})`,
    }));
    writeFileSync(feed, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const [out] = await desk.p.ingest([feed]);
    batchId = out.batchId!;
    expect(await archiveBatch(desk.p, batchId, { daysOld: 45, retentionDays: 30 })).toEqual([batchId]);
    expect(await desk.p.rt.ctx.catalog.getBatch(batchId)).toBeNull();
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    removeDir(dir);
  });

  it('lists, shows and pages the archived batch from storage, says archived: true, refuses a retry with 409 BATCH_ARCHIVED', async () => {
    const list = (await (await desk.fetch('/api/batches?days=60')).json()) as {
      batches: Array<{ id: string; archived?: boolean; expected: number }>;
    };
    expect(list.batches.find((b) => b.id === batchId)).toMatchObject({ archived: true, expected: 30 });
    const recentOnly = (await (await desk.fetch('/api/batches')).json()) as { batches: Array<{ id: string }> };
    expect(recentOnly.batches.map((b) => b.id)).not.toContain(batchId);

    const detail = await desk.fetch(`/api/batches/${batchId}`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ id: batchId, archived: true, state: 'done', ok: 30, failed: 0 });

    const page = (await (await desk.fetch(`/api/batches/${batchId}/records?offset=10&limit=5`)).json()) as {
      archived: boolean;
      total: number;
      nextOffset: number | null;
      records: Array<{ index: number }>;
    };
    expect(page).toMatchObject({ archived: true, total: 30, nextOffset: 15 });
    expect(page.records.map((r) => r.index)).toEqual([10, 11, 12, 13, 14]);
    const afp = (await (await desk.fetch(`/api/batches/${batchId}/records?agency=AFP&limit=100`)).json()) as {
      total: number;
      records: Array<{ credit: { agency: string | null } }>;
    };
    expect(afp.total).toBe(20);
    expect(afp.records.every((r) => r.credit.agency === 'AFP')).toBe(true);

    const retry = await desk.fetch(`/api/batches/${batchId}/retry`, { method: 'POST' });
    expect(retry.status).toBe(409);
    expect(await retry.json()).toMatchObject({ error: 'BATCH_ARCHIVED' });
    expect((await desk.fetch('/api/batches/0123456789abcdef/retry', { method: 'POST' })).status).toBe(404);
  }, 60_000);
});
