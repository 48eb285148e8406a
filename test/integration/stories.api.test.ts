import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { reutersPhotos, writeReutersCsv } from '../helpers/storyFeeds';
import { SEED_GALLERY, makeTmpDir, removeDir } from '../helpers/testEnv';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { clusterListSchema, ingestResponseSchema, recordPageSchema, storySchema } from '../../src/schemas/api';

describe('stories in the desk API (real server, workers, Redis)', () => {
  let desk: Desk;
  let root: string;
  let seedBatch: string;
  let reutersBatch: string;
  const photos = reutersPhotos();
  const seedItem = (n: number) => `${seedBatch}-${String(n).padStart(4, '0')}`;

  const json = async (p: string, init?: RequestInit) => {
    const res = await desk.fetch(p, init);
    return { status: res.status, body: (await res.json()) as any };
  };
  const ingest = async (name: string): Promise<string> => {
    const res = await json('/api/feeds', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: name }),
    });
    expect(res.status).toBe(202);
    return ingestResponseSchema.parse(res.body).feeds[0].batchId!;
  };

  beforeAll(async () => {
    root = makeTmpDir('stories-api-root');
    desk = await startDesk({ overrides: { PHOTOWIRE_FEED_ROOTS: root } });
    copyFileSync(SEED_GALLERY, path.join(root, 'gallery.txt'));
    writeReutersCsv(root);
    seedBatch = await ingest('gallery.txt');
    reutersBatch = await ingest('reuters.csv');
    await waitForBatches(desk.p.rt, [seedBatch, reutersBatch], { progress: false, timeoutMs: 120_000 });
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(root);
  });

  it('puts record.story on every record with a caption to link on: 01-11 one story of 11, each member saying why', async () => {
    const page = recordPageSchema.parse((await json(`/api/batches/${seedBatch}/records?limit=41`)).body);
    const byId = new Map(page.records.map((r) => [r.id, r]));
    const s01 = byId.get(seedItem(1))!.story!;
    expect(s01.size).toBe(11); // as it is now, not as it was when 01 arrived
    for (let n = 2; n <= 11; n++) expect(byId.get(seedItem(n))!.story!.id).toBe(s01.id);
    for (let n = 12; n <= 41; n++) expect(byId.get(seedItem(n))!.story?.id).not.toBe(s01.id);
    expect(byId.get(seedItem(1))!.story!.via).toBeNull();
    expect(byId.get(seedItem(3))!.story!.via).toMatchObject({ kind: 'words', with: seedItem(1), similarity: 1 });
  });

  it("filters a batch's records by story", async () => {
    const all = recordPageSchema.parse((await json(`/api/batches/${seedBatch}/records?limit=41`)).body);
    const storyId = all.records.find((r) => r.id === seedItem(1))!.story!.id;
    const page = recordPageSchema.parse(
      (await json(`/api/batches/${seedBatch}/records?story=${storyId}&limit=5`)).body,
    );
    expect(page.total).toBe(11);
    expect(page.records.map((r) => r.id)).toEqual([1, 2, 3, 4, 5].map(seedItem));
    expect(page.nextOffset).toBe(5);
    const other = recordPageSchema.parse((await json(`/api/batches/${reutersBatch}/records?story=${storyId}`)).body);
    expect(other.total).toBe(0);
    expect((await json(`/api/batches/${seedBatch}/records?story=nothex`)).status).toBe(400);
  });

  it('lists the clusters of a story, and shows a story as story -> clusters -> versions', async () => {
    const matchIndex = photos.findIndex((p) => p.caption.startsWith('Soccer Football - '));
    const recs = recordPageSchema.parse((await json(`/api/batches/${reutersBatch}/records?limit=46`)).body);
    const storyId = recs.records[matchIndex].story!.id;
    const list = clusterListSchema.parse((await json(`/api/clusters?story=${storyId}`)).body);
    expect(list.clusters.length).toBeGreaterThanOrEqual(1);
    expect(list.clusters.reduce((n, c) => n + c.members.length, 0)).toBe(16);
    expect(list.clusters.every((c) => c.story?.id === storyId && c.story.size === 16)).toBe(true);

    const story = storySchema.parse((await json(`/api/stories/${storyId}`)).body);
    expect([story.id, story.size, story.membersShown]).toEqual([storyId, 16, 16]);
    expect(story.clusters.map((c) => c.id).sort()).toEqual(list.clusters.map((c) => c.id).sort());
    const members = story.clusters.flatMap((c) => c.members);
    expect(members.filter((m) => m.via === null)).toHaveLength(1); // the first picture founded it
    for (const m of members.filter((x) => x.via !== null))
      expect(m.via).toMatchObject({ kind: 'slug', text: expect.stringContaining('copa libertadores') });
    for (const c of story.clusters) for (const m of c.members) expect(m.record?.cluster?.id).toBe(c.id);

    expect((await json('/api/stories/0123456789abcdef')).status).toBe(404);
    expect((await json('/api/clusters?story=0123456789abcdef')).status).toBe(404);
  });
});
