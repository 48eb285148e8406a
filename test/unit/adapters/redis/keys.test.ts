import calculateSlot from 'cluster-key-slot';
import { QueueKeys } from 'bullmq';
import { hashTagOf, prefixPatterns, redisKeys } from '../../../../src/adapters/redis/keys';
import {
  CrossSlotScriptError,
  luaScript,
  runScript,
  sharedHashTag,
  slotOf,
} from '../../../../src/adapters/redis/scripts';
import { QUEUES, queuePrefix } from '../../../../src/queues/definitions';
import type { RedisClient } from '../../../../src/adapters/redis/connection';

/** Redis Cluster slots of the key registry: what one script or MULTI touches shares a slot. */
describe('key registry (src/adapters/redis/keys.ts)', () => {
  const k = redisKeys('photowire');
  const batchId = 'afp-2026-11-30-0123456789ab';
  const slot = (key: string) => calculateSlot(key);
  const sameSlot = (keys: string[]) => {
    expect(slotOf(keys)).toBeGreaterThanOrEqual(0);
    expect(new Set(keys.map(slot)).size).toBe(1);
  };

  it('every key of one batch hashes to the slot of its batch tag', () => {
    const b = k.batch(batchId);
    const tagSlot = slot(b.tag);
    expect(hashTagOf(b.tag)).toBe(`photowire:batch:${batchId}`);
    const all = [
      b.ledger,
      b.items,
      b.records,
      b.errors,
      b.facets,
      b.stats,
      b.clusters,
      b.captions,
      b.index('ok'),
      b.index('c:00ff'),
      b.index('p:obama'),
      b.intersection('ab12'),
      k.retryClaim(batchId, `${batchId}-0003`, '2026-11-30T02:00:00.000Z'),
    ];
    for (const key of all) expect([key, slot(key)]).toEqual([key, tagSlot]);
    // another batch is (almost surely) another slot: batches spread over the cluster
    const others = new Set(Array.from({ length: 20 }, (_, i) => slot(k.batch(`b${i}`).tag)));
    expect(others.size).toBeGreaterThan(15);
  });

  it("each script's KEYS share a slot: kills, photo versions, runs, schedules, leases", () => {
    // KillStore APPLY and REGISTER: the seven kill keys
    const kk = k.kill;
    sameSlot([kk.items, kk.groups, kk.status, kk.killed, kk.events, kk.log, kk.corrected]);
    // REGISTER_PHOTO: pixels, items, the expected photo's versions and first items, the agency ref
    const ph = k.photo;
    sameSlot([
      ph.byPixels('a'.repeat(64)),
      ph.items,
      ph.versions('b'.repeat(64)),
      ph.firstItems('b'.repeat(64)),
      ph.byRef('NYPS101'),
    ]);
    // FOLD_EMPTY_RUN and RunLog.save's MULTI, list's MGET
    sameSlot([k.runs.all, k.runs.bySchedule('every-minute'), k.runs.run('r1'), k.runs.run('r2')]);
    // RunLog.registerSource's MULTI
    sameSlot([k.sources.all, k.sources.source('watch', 'drop'), k.sources.source('schedule', 'afp')]);
    // ScheduleStore.commit's MULTI, reset's DEL, the run lease
    const s = k.schedule('afp-hourly');
    sameSlot([s.cursor, s.pending, s.lock]);
    // The caption-cluster index's pipelines: every key of the index in one slot, its own per prefix
    const cl = k.clusters;
    sameSlot([
      cl.meta,
      cl.rebuilding,
      cl.lock,
      cl.sizes,
      cl.seen(0),
      cl.seen(4095),
      cl.expiry,
      cl.generation,
      cl.cluster('0123456789abcdef'),
      cl.members('0123456789abcdef'),
      cl.items(0),
      cl.items(65535),
      cl.bucket(0),
      cl.bucket(16383),
    ]);
    expect(hashTagOf(cl.meta)).toBe('photowire:clusters');
    expect(hashTagOf(redisKeys('other').clusters.meta)).toBe('other:clusters');
    // every key carries a tag
    for (const key of [
      k.batches,
      k.layout,
      kk.items,
      ph.items,
      k.runs.all,
      k.sources.all,
      s.lock,
      k.claim('c'.repeat(64)),
      cl.lock,
    ])
      expect(hashTagOf(key)).not.toBeNull();
  });

  it("BullMQ's keys of every queue share the {prefix} slot (a flow's parent and children)", () => {
    const qk = new QueueKeys(queuePrefix('photowire'));
    expect(queuePrefix('photowire')).toBe('{photowire}');
    const keys = Object.values(QUEUES).flatMap((q) => Object.values(qk.getKeys(q)));
    keys.push(
      qk.toKey(QUEUES.batch, 'batch-abc'),
      qk.toKey(QUEUES.item, 'item-abc-0001'),
      `${qk.toKey(QUEUES.batch, 'batch-abc')}:dependencies`,
    );
    sameSlot(keys);
  });

  it('names the old threshold index (what the start check and the rebuild look for); every layout of a prefix is matched by its SCAN patterns', () => {
    expect(k.dedup).toEqual({ prefix: 'photowire:dedup:', active: 'photowire:dedup:active' });
    const glob = (pattern: string) =>
      new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '*' ? '.*' : `\\${c}`))}$`);
    const pats = prefixPatterns('photowire').map(glob);
    for (const key of [
      k.batch('x').records,
      k.kill.items,
      k.layout,
      k.runs.all,
      k.clusters.meta,
      k.clusters.bucket(1),
      'photowire:dedup:{v2t0.5}:sizes',
      'photowire:batch:x',
    ])
      expect(pats.some((r) => r.test(key))).toBe(true);
    expect(
      prefixPatterns('photowire')
        .map(glob)
        .some((r) => r.test('{photowire2:kill}:items')),
    ).toBe(false);
  });

  it('refuses a prefix or a tag that would break the slots', () => {
    expect(() => redisKeys('a{b}')).toThrow(RangeError);
    expect(() => redisKeys('a:b')).toThrow(RangeError);
    expect(() => redisKeys('')).toThrow(RangeError);
    expect(() => k.batch('x}y')).toThrow(RangeError);
  });

  it('runScript refuses KEYS in more than one slot before anything reaches Redis', async () => {
    const untouched = new Proxy(
      {},
      {
        get: () => {
          throw new Error('Redis was called');
        },
      },
    ) as unknown as RedisClient;
    const script = luaScript('pwTestNothing', 'return 1');
    await expect(runScript(untouched, script, [k.kill.items, k.photo.items])).rejects.toBeInstanceOf(
      CrossSlotScriptError,
    );
    await expect(runScript(untouched, script, [k.batch('a').ledger, k.batches])).rejects.toThrow(
      /more than one Redis Cluster slot/,
    );
  });
});

describe('sharedHashTag: the slot check without a CRC16 per key', () => {
  it('names the tag only when every key has the same non-empty one, which is then one slot', () => {
    const same = ['p:{v2t0.5}:b:1:00ff', 'p:{v2t0.5}:c:0123', 'other:{v2t0.5}:a:x}', '{v2t0.5}'];
    expect(sharedHashTag(same)).toBe('v2t0.5');
    expect(new Set(same.map((k) => calculateSlot(k))).size).toBe(1);
    // Another tag, an empty tag (the whole key is hashed), no tag, a tag that only starts the same, a Buffer.
    expect(sharedHashTag(['p:{v2t0.5}:x', 'p:{v2t0.6}:x'])).toBeNull();
    expect(sharedHashTag(['p:{}:x{a}', 'q:{}:y{a}'])).toBeNull();
    expect(sharedHashTag(['p:{a}:x', 'p:a:x'])).toBeNull();
    expect(sharedHashTag(['p:{ab}:x', 'p:{a}b}:x'])).toBeNull();
    expect(sharedHashTag(['p:{a}:x', Buffer.from('p:{a}:y')])).toBeNull();
    // The first '{' and the first '}' after it decide, as in Redis.
    expect(sharedHashTag(['p:{a}{b}', 'q:{a}:z'])).toBe('a');
    expect(calculateSlot('p:{a}{b}')).toBe(calculateSlot('q:{a}:z'));
  });
});
