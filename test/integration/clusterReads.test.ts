// First: it stands in for content-disposition before the server's modules load (see deskServer.ts).
import { Queues } from '../../src/queues/queues';
import '../helpers/deskServer';
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { SubjectIndex } from '../../src/adapters/redis/captionIndexSubject';
import { KillStore } from '../../src/adapters/redis/killStore';
import { CatalogStore } from '../../src/adapters/redis/catalogStore';
import { loadConfig } from '../../src/config';
import { retryItems } from '../../src/app/batches/retryItems';
import type { CatalogRecord } from '../../src/schemas/record';
import { clusterRoutes } from '../../src/server/routes/clusters';
import { useZodApi } from '../../src/server/zodApi';
import type { PipelineContext } from '../../src/app/pipelineContext';
import { deletePrefix, REDIS_URL, uniquePrefix } from '../helpers/testEnv';
import { record } from '../unit/web/records';

/**
 * The cluster endpoint and a retry of a large batch read the records they show or
 * retry, never the whole batch. Caption-only records are written straight through the store (as
 * catalogPages.test.ts does), their captions assigned in a real caption index; records read are
 * counted by a wrapper around the Redis client the catalog uses (every value a read command
 * returns from a batch's records hash).
 */
const N = 5_000;
const BATCH = 'night-large';
const GROUP = 10; // ten items per caption
const FAILED_EVERY = 200;

function counting(redis: Redis): { client: Redis; read: () => number; reset: () => void } {
  let read = 0;
  const client = new Proxy(redis, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => Promise<unknown>;
      if (prop === 'hmget' || prop === 'hget' || prop === 'hgetall' || prop === 'hvals') {
        return async (key: unknown, ...rest: unknown[]) => {
          const out = await fn.call(target, key, ...rest);
          if (String(key).endsWith(':records')) {
            if (Array.isArray(out)) read += out.filter((x) => x !== null).length;
            else if (out && typeof out === 'object') read += Object.keys(out).length;
            else if (out !== null) read++;
          }
          return out;
        };
      }
      return fn.bind(target);
    },
  });
  return { client, read: () => read, reset: () => (read = 0) };
}

describe('cluster and retry reads of a 5,000-item batch', () => {
  const prefix = uniquePrefix('clreads');
  const redis = new Redis(REDIS_URL);
  const counted = counting(redis);
  const catalog = new CatalogStore(counted.client, prefix);
  const config = { ...loadConfig({ ...process.env, PHOTOWIRE_PREFIX: prefix }), prefix };
  const captions = new SubjectIndex(redis, { prefix });
  const kills = new KillStore(redis, prefix, { refWindowMs: config.killRefWindowHours * 3_600_000 });
  const ctx = {
    catalog,
    captions,
    redis,
    config,
    kills,
    queues: new Queues(redis, prefix),
  } as unknown as PipelineContext;
  const app = Fastify();
  const id = (i: number) => `${BATCH}-${String(i + 1).padStart(5, '0')}`;
  // Captions of different groups share no word (hex words of the group's hash): each group is its own cluster.
  const caption = (i: number) =>
    `Night ${(
      createHash('sha256')
        .update(String(Math.floor(i / GROUP)))
        .digest('hex')
        .match(/.{8}/g) ?? []
    ).join(' ')}`;
  let clusterOfMiddle = '';

  beforeAll(async () => {
    const api = await useZodApi(app, { title: 't', version: '1', description: 't' });
    clusterRoutes(api, ctx, { maxMembers: 50 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    await catalog.createBatch({
      id: BATCH,
      feed: '/nonexistent/night-large.ndjson',
      format: 'ndjson',
      expected: N,
      warnings: [],
      article: null,
    });
    const refs = await captions.assignMany(
      Array.from({ length: N }, (_, i) => ({ itemId: id(i), caption: caption(i) })),
    );
    const records: CatalogRecord[] = Array.from({ length: N }, (_, i) => {
      const failed = i % FAILED_EVERY === FAILED_EVERY - 1;
      const ref = refs[i]!;
      return record(i, {
        id: id(i),
        batchId: BATCH,
        index: i,
        caption: caption(i),
        cluster: failed
          ? null
          : { id: ref.id, canonicalId: ref.canonicalId, exact: ref.exact, similarity: ref.similarity },
        error: failed ? { code: 'IMAGE_CORRUPT', message: 'cut short' } : null,
      } as Partial<CatalogRecord>);
    });
    clusterOfMiddle = records[2500].cluster!.id;
    for (let from = 0; from < N; from += 1000) {
      await Promise.all(
        records
          .slice(from, from + 1000)
          .map((r) => catalog.markItem(r, r.error ? { error: r.error, attempts: 1 } : null)),
      );
    }
  }, 180_000);
  afterAll(async () => {
    await app.close();
    await ctx.queues.close();
    await deletePrefix(prefix);
    redis.disconnect();
  });
  beforeEach(() => counted.reset());

  it('answers GET /api/clusters/:id reading only the members shown', async () => {
    const { port } = app.server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}/api/clusters/${clusterOfMiddle}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      size: number;
      members: Array<{ itemId: string; record: { id: string; availability: unknown } | null }>;
    };
    expect(body.size).toBe(GROUP);
    expect(body.members.map((m) => m.itemId)).toEqual(Array.from({ length: GROUP }, (_, k) => id(2500 + k)));
    expect(body.members.every((m) => m.record?.id === m.itemId && m.record.availability !== undefined)).toBe(true);
    expect(counted.read()).toBe(GROUP);
  });

  it('retries a batch reading only its failed records, never the batch', async () => {
    const failed = N / FAILED_EVERY;
    // No jobs are left in the queue (as after the board cleaned them): each item is rebuilt from the
    // feed, which is gone, so each is skipped with why; what the retry read is the point here.
    const out = await retryItems({ config, ctx, redis }, BATCH);
    expect(out!.retried).toEqual([]);
    expect(out!.skipped).toHaveLength(failed);
    expect(out!.skipped[0]).toMatchObject({
      itemId: id(FAILED_EVERY - 1),
      reason: expect.stringContaining('no longer has this item'),
    });
    expect(counted.read()).toBe(failed);
  });
});
