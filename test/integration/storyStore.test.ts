import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Redis } from 'ioredis';
import { readSeedCaptions } from '../../bench/dedup/seedCaptions';
import { redisKeys } from '../../src/adapters/redis/keys';
import { createRedis } from '../../src/adapters/redis/connection';
import { StoryStore } from '../../src/adapters/redis/storyStore';
import { captionStoryEvidence } from '../../src/app/stories/storyEvidence';
import { referenceStories, storyEvidence, type StoryEvidence } from '../../src/core/dedup/story';
import { deletePrefix, testRedisUrl, uniquePrefix } from '../helpers/testEnv';

const seed = readSeedCaptions();
const reuters = (
  JSON.parse(readFileSync(path.join(__dirname, '../fixtures/stories/reuters-arc-photos.json'), 'utf8')) as {
    photos: Array<{ story: string; caption: string }>;
  }
).photos;

type Item = { itemId: string; evidence: StoryEvidence | null };
const seedItems: Item[] = seed.map((s) => ({ itemId: s.n, evidence: captionStoryEvidence(s.raw) }));
const reutersItems: Item[] = reuters.map((p, i) => ({
  itemId: `r${String(i).padStart(2, '0')}`,
  evidence: captionStoryEvidence(p.caption),
}));

let redis: Redis;
const prefixes: string[] = [];
function freshStore(): StoryStore {
  const p = uniquePrefix('stories');
  prefixes.push(p);
  return new StoryStore(redis, redisKeys(p).story);
}

beforeAll(() => {
  redis = createRedis(testRedisUrl());
});
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(p);
  redis.disconnect();
});

const partition = (groups: Iterable<string[]>): string[][] =>
  [...groups].map((g) => [...g].sort()).sort((a, b) => a[0].localeCompare(b[0]));

/**
 * The stories as the store has them after assigning `items` in this order, one call per caption:
 * each member's story as it is at the end (what it joined, resolved through later merges).
 */
async function storeStories(store: StoryStore, items: Item[]): Promise<string[][]> {
  const joined: Array<{ itemId: string; story: string }> = [];
  for (const it of items) {
    const [ref] = await store.assignMany([it]);
    if (ref) joined.push({ itemId: it.itemId, story: ref.id });
  }
  const now = await store.resolve(joined.map((j) => j.story));
  const byStory = new Map<string, string[]>();
  for (const j of joined) {
    const id = now.get(j.story)!.id;
    byStory.set(id, [...(byStory.get(id) ?? []), j.itemId]);
  }
  return partition(byStory.values());
}

const reference = (items: Item[]) =>
  partition(referenceStories(items.map((i) => ({ id: i.itemId, evidence: i.evidence }))).stories);

describe('the story store (real Redis) against the brute-force oracle', () => {
  const orders = (items: Item[]): Array<[string, Item[]]> => [
    ['feed order', items],
    ['reversed', [...items].reverse()],
    ['odd then even', [...items.filter((_, i) => i % 2 === 1), ...items.filter((_, i) => i % 2 === 0)]],
  ];

  it.each(orders(seedItems))('gives the seed the oracle partition, 01-11 one story, in %s', async (_name, items) => {
    const got = await storeStories(freshStore(), items);
    expect(got).toEqual(reference(seedItems));
    expect(got.find((g) => g.includes('01'))).toEqual([
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
      '07',
      '08',
      '09',
      '10',
      '11',
    ]);
  });

  it.each(orders(reutersItems))('gives 46 Reuters captions their agency stories in %s', async (_name, items) => {
    const got = await storeStories(freshStore(), items);
    expect(got).toEqual(reference(reutersItems));
    const byLabel = new Map<string, string[]>();
    reutersItems.forEach((it, i) =>
      byLabel.set(reuters[i].story, [...(byLabel.get(reuters[i].story) ?? []), it.itemId]),
    );
    expect(got).toEqual(partition(byLabel.values()));
  });

  it('merges two stories when a caption links both: the survivor counts every member, the other id resolves to it', async () => {
    const store = freshStore();
    const [s04, s01, s06] = ['04', '01', '06'].map((n) => seedItems.find((i) => i.itemId === n)!);
    // 04 and 01 are not linked (Jaccard 0.29); 06 is linked to both.
    const [a] = await store.assignMany([s04]);
    const [b] = await store.assignMany([s01]);
    expect(a!.id).not.toBe(b!.id);
    expect([a!.size, b!.size, a!.via, b!.via]).toEqual([1, 1, null, null]);
    const [c] = await store.assignMany([s06]);
    expect(c!.size).toBe(3);
    expect(c!.via).toMatchObject({ kind: 'words', with: '04' });
    const now = await store.resolve([a!.id, b!.id]);
    expect(now.get(a!.id)).toEqual({ id: c!.id, size: 3 });
    expect(now.get(b!.id)).toEqual({ id: c!.id, size: 3 });
    const story = await store.getStory(a!.id === c!.id ? b!.id : a!.id);
    expect(story!.members.map((m) => m.itemId)).toEqual(['04', '01', '06']);
    // Assigning again answers from what is stored (a re-run finalize) and changes nothing.
    expect((await store.assignMany([s01]))[0]).toEqual({ id: c!.id, size: 3, via: null });
    expect((await store.getStory(c!.id))!.size).toBe(3);
  });

  it('gives a caption without slug or enough words no story, and stores nothing for it', async () => {
    const store = freshStore();
    expect(
      await store.assignMany([
        { itemId: 'x', evidence: storyEvidence({ subject: 'Police at the scene.', background: '' }) },
      ]),
    ).toEqual([null]);
    expect(await store.getStory('0000000000000000')).toBeNull();
  });
});
