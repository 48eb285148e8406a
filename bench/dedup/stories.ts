/**
 * The story store measured: throughput and Redis memory per caption, and the store's
 * partition against the brute-force oracle (`referenceStories`) on the first --check captions.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/stories.js --n 20000 --check 3000
 *
 * Captions come from the dedup bench's generator (bench/dedup/generateCaptions.ts: stories of
 * several families, each with resends), each one's evidence from captionParts as the finalize
 * job computes it; one assignMany call per 500 captions, as clusterBatch does per chunk. Uses
 * REDIS_URL (default 127.0.0.1:6379) under a fresh prefix, deleted at the end. Prints JSON.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { redisKeys } from '../../src/adapters/redis/keys';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';
import { StoryStore } from '../../src/adapters/redis/storyStore';
import { captionStoryEvidence } from '../../src/app/stories/storyEvidence';
import { referenceStories, STORY_RULE_VERSION, type StoryEvidence } from '../../src/core/dedup/story';
import { generateCaptions } from './generateCaptions';
import { scoreClustering } from './scoring';

const CHUNK = 500;

async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '20000' },
      check: { type: 'string', default: '3000' },
      seed: { type: 'string', default: '27' },
    },
  });
  const n = Number(values.n);
  const check = Math.min(n, Number(values.check));
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const prefix = `pwbench-stories-${process.pid}`;
  const store = new StoryStore(redis, redisKeys(prefix).story);
  try {
    const gen = generateCaptions({ seed: Number(values.seed) });
    const items: Array<{ itemId: string; evidence: StoryEvidence | null }> = [];
    const t0 = performance.now();
    for (let i = 0; i < n; i++) items.push({ itemId: `c${i}`, evidence: captionStoryEvidence(gen.next().value!.raw) });
    const evidenceMs = performance.now() - t0;

    const memBefore = await usedMemory(redis);
    const storyOf = new Map<string, string>();
    const t1 = performance.now();
    for (let i = 0; i < n; i += CHUNK) {
      const chunk = items.slice(i, i + CHUNK);
      const refs = await store.assignMany(chunk);
      chunk.forEach((it, j) => storyOf.set(it.itemId, refs[j]?.id ?? `none:${it.itemId}`));
    }
    const assignMs = performance.now() - t1;
    const memAfter = await usedMemory(redis);

    // Index vs brute force on the first `check` captions, in a store of their own (the oracle is
    // quadratic: it cannot run over all n).
    const sample = items.slice(0, check);
    const ref = referenceStories(sample.map((it) => ({ id: it.itemId, evidence: it.evidence })));
    const reference = new Map(sample.map((it) => [it.itemId, `none:${it.itemId}`]));
    ref.stories.forEach((g, i) => g.forEach((id) => reference.set(id, `s${i}`)));
    const sampleStore = new StoryStore(redis, redisKeys(`${prefix}-check`).story);
    const sampleRefs = await sampleStore.assignMany(sample);
    const sampleNow = await sampleStore.resolve(sampleRefs.flatMap((r) => (r ? [r.id] : [])));
    const samplePredicted = new Map(
      sample.map((it, i) => [it.itemId, sampleRefs[i] ? sampleNow.get(sampleRefs[i]!.id)!.id : `none:${it.itemId}`]),
    );

    const stories = new Set(storyOf.values());
    console.log(
      JSON.stringify(
        {
          rule: STORY_RULE_VERSION,
          captions: n,
          withEvidence: items.filter((it) => it.evidence).length,
          stories: stories.size,
          evidencePerSecond: Math.round(n / (evidenceMs / 1000)),
          assignPerSecond: Math.round(n / (assignMs / 1000)),
          redisBytesPerCaption: Math.round((memAfter - memBefore) / n),
          indexVsBruteForce: { captions: check, ...scoreClustering(samplePredicted, reference) },
        },
        null,
        2,
      ),
    );
  } finally {
    await deletePrefixKeys(redis, prefix);
    await deletePrefixKeys(redis, `${prefix}-check`);
    redis.disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
