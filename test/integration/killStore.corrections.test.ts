import { Redis } from 'ioredis';
import { KillStore } from '../../src/adapters/redis/killStore';
import type { CatalogRecord } from '../../src/schemas/record';
import { REDIS_URL, deletePrefix, uniquePrefix } from '../helpers/testEnv';

/**
 * Items of one feed run in parallel, so a correction can be stored before the older item of the
 * same batch it corrects. The item stage's records carry no `index` yet (the finalize job adds it):
 * the store takes the feed position from the item id. Real Redis, the store's own Lua steps.
 */
describe('KillStore: a correction stored before the item it corrects', () => {
  const prefix = uniquePrefix('killstore-corr');
  const redis = new Redis(REDIS_URL);
  const store = new KillStore(redis, prefix);
  afterAll(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });
  // the shape the item stage registers: no index, no cluster yet
  const record = (n: number, batchId: string): CatalogRecord =>
    ({
      id: `${batchId}-000${n}`,
      batchId,
      agencyId: 'NYPS301',
      iptc: { transmissionReference: 'NYPS301' },
      source: { format: 'folder', file: `/feeds/fire/0${n}.jpg` },
      photo: { id: 'photo-1', version: n },
      image: { original: `originals/${n}.jpg` },
      caption: 'Firefighters battle a blaze at a warehouse in the Bronx',
      probableResend: false,
      cluster: null,
    }) as unknown as CatalogRecord;

  it('supersedes the earlier item of the batch when it arrives after its correction, and only that one', async () => {
    const correction = record(2, 'fire-aaaa');
    expect(await store.register(correction)).toBeNull();
    const event = await store.apply({
      id: 'corr-1',
      kind: 'correction',
      targets: ['NYPS301'],
      groups: ['b:NYPS301'],
      reason: 'LOCATION TO QUEENS',
      notice: {
        itemId: correction.id,
        batchId: correction.batchId,
        kind: 'correction',
        source: 'iptc:specialInstructions',
        text: 'CORRECTS LOCATION TO QUEENS',
        targets: ['NYPS301'],
        receivedAt: new Date().toISOString(),
      },
      supersededBy: correction.id,
    });
    expect(event.items).toEqual([]);
    const original = record(1, 'fire-aaaa');
    expect(await store.register(original)).toMatchObject({
      status: 'superseded',
      supersededBy: correction.id,
      killedAt: null,
    });
    expect((await store.getEvent('corr-1'))!.items).toEqual([original.id]);
    // a later item of the same batch, and an item of another batch, are not older versions
    expect(await store.register(record(3, 'fire-aaaa'))).toBeNull();
    expect(await store.register(record(1, 'fire-bbbb'))).toBeNull();
    expect((await store.statusOf([correction.id])).size).toBe(0);
  });
});
