import { OWNERS_CAP, RenditionOwners } from '../../src/adapters/redis/renditionOwners';
import { createRedis } from '../../src/adapters/redis/connection';
import { redisKeys } from '../../src/adapters/redis/keys';
import type { CatalogRecord } from '../../src/schemas/record';
import { deletePrefix, testRedisUrl, uniquePrefix } from '../helpers/testEnv';

/**
 * The list of records showing a rendition set (what the renditions route reads) is capped: a feed
 * sending the same bytes again and again cannot grow it without end, and a copy that arrives
 * guarded (killed, embargoed) is still listed past the cap, up to twice it.
 */
describe('rendition owners in Redis', () => {
  const prefix = uniquePrefix('rendowners');
  const redis = createRedis(testRedisUrl());
  const owners = new RenditionOwners(redis, prefix);
  const sha = 'ab'.repeat(32);
  const record = (id: string, extra: object = {}) =>
    ({
      id,
      image: { sha256: sha },
      renditions: [{ name: 'thumb' }],
      status: 'active',
      killedAt: null,
      reason: 'r'.repeat(5000),
      notice: null,
      supersededBy: null,
      ...extra,
    }) as unknown as CatalogRecord;

  afterAll(async () => {
    redis.disconnect();
    await deletePrefix(prefix);
  });

  it('keeps at most the cap of active copies, guarded ones past it, and cuts long texts', async () => {
    const batch = Array.from({ length: OWNERS_CAP + 50 }, (_, i) => record(`copy-${i}`));
    for (let i = 0; i < batch.length; i += 200) await owners.remember(batch.slice(i, i + 200));
    expect(await redis.hlen(redisKeys(prefix).renditionOwners(sha))).toBe(OWNERS_CAP);
    await owners.remember([record('killed-late', { status: 'killed', killedAt: '2024-03-10T00:00:00.000Z' })]);
    const listed = await owners.of(sha);
    expect(listed).toHaveLength(OWNERS_CAP + 1);
    const killed = listed.find((o) => o.id === 'killed-late')!;
    expect(killed.status).toBe('killed');
    expect(killed.reason!.length).toBeLessThanOrEqual(301);
    // A record without renditions (caption only, failed) is not listed anywhere.
    await owners.remember([{ ...record('no-image'), image: null, renditions: [] } as unknown as CatalogRecord]);
    expect((await owners.of(sha)).some((o) => o.id === 'no-image')).toBe(false);
  });
});
