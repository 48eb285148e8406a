import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { reutersPhotos, writeReutersCsv } from '../helpers/storyFeeds';
import {
  REPO_ROOT,
  SEED_GALLERY,
  deletePrefix,
  makeTmpDir,
  pipelineEnv,
  removeDir,
  uniquePrefix,
} from '../helpers/testEnv';

interface ListedCluster {
  id: string;
  size: number;
  members: Array<{ itemId: string }>;
  story: { id: string; size: number } | null;
}

describe('photowire clusters --story (the story above the caption clusters)', () => {
  const prefix = uniquePrefix('stories-cli');
  const dataDir = makeTmpDir('stories-cli-data');
  const feedDir = makeTmpDir('stories-cli-feeds');
  const env = pipelineEnv(prefix, dataDir);
  let seedBatch: string;
  let reutersBatch: string;
  const seedItem = (n: number) => `${seedBatch}-${String(n).padStart(4, '0')}`;
  const reutersItem = (i: number) => `${reutersBatch}-${String(i + 1).padStart(4, '0')}`;
  const photos = reutersPhotos();

  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    const seed = await runCli(['run', SEED_GALLERY, '--json'], env);
    expect(seed.code).toBe(0);
    seedBatch = JSON.parse(seed.stdout).batches[0].batchId;
    const reuters = await runCli(['run', writeReutersCsv(feedDir), '--json'], env);
    expect(reuters.code).toBe(0);
    reutersBatch = JSON.parse(reuters.stdout).batches[0].batchId;
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(dataDir);
    removeDir(feedDir);
  });

  const listJson = async (args: string[]): Promise<ListedCluster[]> => {
    const out = await runCli(['clusters', ...args, '--json'], env);
    expect(out.code).toBe(0);
    return JSON.parse(out.stdout) as ListedCluster[];
  };

  it('prints each cluster with its story, and the seed 01-11 clusters share one story of 11 captions', async () => {
    const text = await runCli(['clusters', '--batch', seedBatch], env);
    expect(text.code).toBe(0);
    const headers = text.stdout.split('\n').filter((l) => l.startsWith('cluster '));
    expect(headers.every((l) => /  story [0-9a-f]{16} \(\d+ captions?\)$/.test(l))).toBe(true);
    const clusters = await listJson(['--batch', seedBatch, '--min-size', '1']);
    const storyOf = (n: number) => clusters.find((c) => c.members.some((m) => m.itemId === seedItem(n)))!.story;
    expect(storyOf(1)).toEqual({ id: expect.stringMatching(/^[0-9a-f]{16}$/), size: 11 });
    for (const n of [2, 4, 6, 8, 10, 11]) expect(storyOf(n)).toEqual(storyOf(1));
    expect(storyOf(12)!.id).not.toBe(storyOf(1)!.id);
  });

  it('lists the clusters of one story with --story: the seed story is its clusters and nothing else', async () => {
    const all = await listJson(['--batch', seedBatch, '--min-size', '1']);
    const story = all.find((c) => c.members.some((m) => m.itemId === seedItem(1)))!.story!;
    const inStory = await listJson(['--story', story.id]);
    const members = inStory.flatMap((c) => c.members.map((m) => m.itemId)).sort();
    expect(members).toEqual(Array.from({ length: 11 }, (_, i) => seedItem(i + 1)).sort());
    expect(inStory.every((c) => c.story?.id === story.id)).toBe(true);
  });

  it('makes the football gallery one story by its slug, its clusters inside it', async () => {
    const match = photos.flatMap((p, i) => (p.caption.startsWith('Soccer Football - ') ? [reutersItem(i)] : []));
    const all = await listJson(['--batch', reutersBatch, '--min-size', '1']);
    const story = all.find((c) => c.members.some((m) => m.itemId === match[0]))!.story!;
    expect(story.size).toBe(match.length);
    const inStory = await listJson(['--story', story.id]);
    expect(inStory.flatMap((c) => c.members.map((m) => m.itemId)).sort()).toEqual([...match].sort());
    // How many clusters the 16 make is the caption-cluster rule's (test/unit/core/dedup/story.test.ts
    // checks several against its oracle); the story holds them all and nothing else.
    expect(inStory.every((c) => c.story?.id === story.id)).toBe(true);
    // Different assignments are different stories: the festival, the river, the AP caption of the same match.
    const festival = all.find((c) => c.members.some((m) => m.itemId === reutersItem(0)))!.story!;
    const thames = all.find((c) => c.members.some((m) => m.itemId === reutersItem(7)))!.story!;
    const ap = all.find((c) => c.members.some((m) => m.itemId === reutersItem(10)))!.story!;
    expect(new Set([story.id, festival.id, thames.id, ap.id]).size).toBe(4);
    expect(festival.size).toBe(7);
  });

  it('says when the story is unknown, and refuses what is not a story id', async () => {
    const none = await runCli(['clusters', '--story', '0123456789abcdef'], env);
    expect([none.code, none.stderr.trim()]).toEqual([1, 'no story 0123456789abcdef']);
    const bad = await runCli(['clusters', '--story', 'x\u001b[2J'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('\u001b');
  });
});
