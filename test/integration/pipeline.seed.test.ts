import { SEED_GALLERY } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import { catalogRecordSchema, type CatalogRecord } from '../../src/schemas/record';

describe('photowire run on the seed gallery (real Redis)', () => {
  let p: TestPipeline;
  let records: CatalogRecord[];
  let batchId: string;

  beforeAll(async () => {
    p = await TestPipeline.start();
    const [outcome] = await p.ingest([SEED_GALLERY]);
    expect(outcome.error).toBeNull();
    batchId = outcome.batchId!;
    records = await p.rt.ctx.catalog.getRecords(batchId);
  });
  afterAll(async () => p.close());

  it('gives 41 valid records, in order, with their counters', async () => {
    expect(records).toHaveLength(41);
    for (const r of records) expect(() => catalogRecordSchema.parse(r)).not.toThrow();
    expect(records.map((r) => r.source.counter)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(records.every((r) => r.error === null && r.image === null)).toBe(true);
    const ledger = await p.rt.ctx.catalog.getBatch(batchId);
    expect(ledger).toMatchObject({ state: 'done', expected: 41, ok: 41, failed: 0 });
  });

  it('keeps each caption raw and cleans it of credits and counters', () => {
    const first = records[0];
    expect(first.captionRaw).toContain('(01 of41)');
    expect(first.captionRaw).toContain('Photo credit: Dominic Lipinski/PA');
    expect(first.caption.startsWith('A masked supporter of Julian Assange outside the Embassy of Ecuador')).toBe(true);
    expect(first.caption.endsWith('who faces sexual assault charges in Sweden.')).toBe(true);
    for (const r of records) {
      expect(r.caption).not.toMatch(/\(\d+ of41\)|\(credit:|Photo credit|AFP PHOTO|\(AP Photo|\(Photo by/);
    }
  });

  it('normalizes the credits', () => {
    expect(records[0].credit).toMatchObject({ creators: ['Dominic Lipinski'], agency: 'PA' });
    expect(records[11].credit).toMatchObject({ creators: ['Leon Neal'], agency: 'AFP', distributor: 'Getty Images' });
    expect(records[15].credit).toMatchObject({ creators: ['Oli Scarff'], agency: 'Getty Images', agencyId: 'GETTY' });
    expect(records[31].credit).toMatchObject({ creators: ['Lefteris Pitarakis'], agency: 'AP' });
  });

  it('puts the word-for-word identical captions 01, 03 and 07 in one cluster', () => {
    const [a, b, c] = [records[0], records[2], records[6]];
    expect(a.cluster).not.toBeNull();
    expect(b.cluster!.id).toBe(a.cluster!.id);
    expect(c.cluster!.id).toBe(a.cluster!.id);
    expect(b.cluster!.exact).toBe(true);
    expect(records[3].cluster!.id).toBe(records[4].cluster!.id);
    expect(records[3].cluster!.id).not.toBe(a.cluster!.id);
  });

  it('clusters one subject about one picture: {01,03,07}+{02,11}, {04,05}, {08,09}, 10 alone, 08 apart from 01; 01-11 one story', async () => {
    const clusterOf = (n: number) => records[n - 1].cluster!.id;
    const groupOf = (n: number) => [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].filter((m) => clusterOf(m) === clusterOf(n));
    expect(groupOf(1)).toEqual([1, 2, 3, 7, 11]);
    expect(groupOf(4)).toEqual([4, 5]);
    expect(groupOf(8)).toEqual([8, 9]);
    expect(groupOf(10)).toEqual([10]);
    // The police (08) on the masked supporter's (01) background: another picture, another cluster.
    expect(clusterOf(8)).not.toBe(clusterOf(1));
    // One story as it is now (a record keeps the story id it joined; stories merged since resolve to one).
    const storyIds = records.slice(0, 11).map((r) => r.story!.id);
    const now = await p.rt.ctx.stories.resolve(storyIds);
    expect(new Set(storyIds.map((id) => now.get(id)?.id)).size).toBe(1);
    expect(now.get(storyIds[0])?.size).toBe(11);
  });

  it('keeps on each member the words that differ from its canonical caption (cluster.diff) and why it joined (cluster.why)', () => {
    expect(records[10].cluster!.why).toEqual({
      matched: ['subject'],
      background: 'same',
      edits: [{ kind: 'function-word', from: 'a', to: '' }],
    });
    expect(records[2].cluster!.why).toBeUndefined(); // 03: word for word 01
    expect(records[0].cluster!.diff).toBeUndefined();
    expect(records[2].cluster!.diff).toBeUndefined(); // 03: word for word 01
    expect(records[10].cluster).toMatchObject({ canonicalId: records[0].id, exact: false });
    // "A masked supporter of Julian Assange" -> "Masked supporters of Julian Assange"
    expect(records[10].cluster!.diff).toEqual({
      edits: [
        { at: 0, deleted: 'A', inserted: '' },
        { at: 2, deleted: 'supporter', inserted: 'supporters' },
      ],
      more: 0,
    });
  });

  it('writes records.ndjson when the batch completes, equal to export', async () => {
    const lines = (await p.readStored(`batches/${batchId}/records.ndjson`)).toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(41);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(records.map((r) => r.id));
  });

  it('takes nothing twice when the same feed is dropped again', async () => {
    const [again] = await p.ingest([SEED_GALLERY]);
    expect(again.batchId).toBe(batchId);
    expect(again.created).toBe(false);
    const after = await p.rt.ctx.catalog.getRecords(batchId);
    expect(after.map((r) => r.processedAt)).toEqual(records.map((r) => r.processedAt));
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ expected: 41, ok: 41, failed: 0 });
  });
});
