import { Redis } from 'ioredis';
import { KillStore } from '../../src/adapters/redis/killStore';
import { redisKeys } from '../../src/adapters/redis/keys';
import { REDIS_URL, deletePrefix, uniquePrefix } from '../helpers/testEnv';

/**
 * A Redis written by the kill store before memberships were sorted sets (group -> JSON array of
 * item ids, events with their items inline): the first use moves it, so a kill placed now still
 * reaches the records indexed then, and the kills listed then keep what they reached.
 */
describe('KillStore: data of the earlier layout', () => {
  const prefix = uniquePrefix('killstore-layout');
  const redis = new Redis(REDIS_URL);
  const k = redisKeys(prefix).kill;
  afterAll(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });

  it('moves memberships, reached lists and marks once; a new kill reaches the old records', async () => {
    const info = (id: string, groups: string[]) =>
      JSON.stringify({
        itemId: id,
        batchId: 'old-aaaaaaaaaaaa',
        index: 0,
        file: '/feeds/old.jpg',
        original: null,
        agencyId: 'X',
        photoId: null,
        photoVersion: null,
        caption: '',
        groups,
      });
    await redis.hset(
      k.items,
      'old-aaaaaaaaaaaa-0001',
      info('old-aaaaaaaaaaaa-0001', ['i:old-aaaaaaaaaaaa-0001', 'a:LON900', 'p:photo-9']),
    );
    await redis.hset(
      k.items,
      'old-aaaaaaaaaaaa-0002',
      info('old-aaaaaaaaaaaa-0002', ['i:old-aaaaaaaaaaaa-0002', 'p:photo-9']),
    );
    await redis.hset(
      k.groups,
      'a:LON900',
      JSON.stringify(['old-aaaaaaaaaaaa-0001']),
      'p:photo-9',
      JSON.stringify(['old-aaaaaaaaaaaa-0001', 'old-aaaaaaaaaaaa-0002']),
    );
    const oldEvent = {
      id: 'oldkill',
      kind: 'kill',
      status: 'killed',
      targets: ['LON901'],
      reason: 'r',
      notice: {
        itemId: '',
        batchId: '',
        kind: 'manual',
        source: 'manual',
        text: 'r',
        targets: ['LON901'],
        receivedAt: '2026-01-01T00:00:00.000Z',
      },
      createdAt: '2026-01-01T00:00:00.000Z',
      items: ['gone-1'],
      review: [],
      supersededBy: null,
    };
    await redis.hset(k.events, 'oldkill', JSON.stringify(oldEvent));
    await redis.zadd(k.log, Date.now(), 'oldkill');
    await redis.hset(k.killed, 'a:LON901', 'oldkill');

    const store = new KillStore(redis, prefix);
    const event = await store.apply({
      id: 'newkill',
      kind: 'kill',
      targets: ['LON900'],
      groups: ['a:LON900'],
      reason: 'wrong person',
      notice: {
        itemId: '',
        batchId: '',
        kind: 'manual',
        source: 'manual',
        text: 'wrong person',
        targets: ['LON900'],
        receivedAt: new Date().toISOString(),
      },
    });
    expect([...event.items].sort()).toEqual(['old-aaaaaaaaaaaa-0001', 'old-aaaaaaaaaaaa-0002']);
    expect(await redis.exists(k.groups)).toBe(0);
    expect((await store.getEvent('oldkill'))!).toMatchObject({ items: ['gone-1'], itemCount: 1 });
    // the old kill still stands for its group, and can be lifted like a new one
    expect(await store.lift('oldkill', { by: 'test', reason: 'old' })).toMatchObject({ state: 'lifted' });
    expect(await redis.hget(k.killed, 'a:LON901')).toBeNull();
    // an old record's agency id is reached by its bare id too (it had no provider then)
    expect(await store.providersOf('LON900')).toEqual(['a:LON900']);
    const bare = await store.apply({
      id: 'barekill',
      kind: 'withdraw',
      targets: ['LON900'],
      groups: ['b:LON900'],
      reason: 'withdrawn',
      notice: {
        itemId: '',
        batchId: '',
        kind: 'manual',
        source: 'manual',
        text: 'withdrawn',
        targets: ['LON900'],
        receivedAt: new Date().toISOString(),
      },
    });
    expect(bare.items).toContain('old-aaaaaaaaaaaa-0001');
  });
});
