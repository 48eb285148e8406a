import { Redis } from 'ioredis';
import { redisKeys } from '../../src/adapters/redis/keys';
import { foldEmptyRun } from '../../src/core/runs/foldEmptyRun';
import { RunLog } from '../../src/adapters/redis/runLog';
import { finishRun, newRun, type RunRecord } from '../../src/core/runs/runRecord';
import { REDIS_URL, deletePrefix, uniquePrefix } from '../helpers/testEnv';

/** The fold of empty runs in Redis (FOLD_EMPTY_RUN) does what its pure twin foldEmptyRun says, in one step. */
describe('RunLog folds consecutive empty runs of a schedule (real Redis)', () => {
  const prefix = uniquePrefix('fold');
  const redis = new Redis(REDIS_URL);
  const log = new RunLog(redis, prefix);
  afterAll(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });
  const t0 = Date.parse('2026-11-30T02:00:00Z');
  const run = (id: string, min: number, schedule = 'every-minute') =>
    newRun({ id, schedule, source: '/import/afp', trigger: 'schedule', startedAt: new Date(t0 + min * 60_000) });
  /** As the runner does: saved running when it starts, then saved again when it ends. */
  async function empty(id: string, min: number, schedule?: string): Promise<string> {
    const r = run(id, min, schedule);
    await log.save(r);
    return log.save(finishRun(r, 'empty', new Date(Date.parse(r.startedAt) + 100), { note: `check ${id}` }));
  }

  it('57 empty checks are one row; a run that took something stands apart and ends the stretch; hot-folder runs never fold', async () => {
    const first = await empty('m0', 0);
    expect(first).toBe('m0');
    let expected: RunRecord = (await log.get('m0'))!;
    for (let i = 1; i < 57; i++) {
      const folded = finishRun(run(`m${i}`, i), 'empty', new Date(t0 + i * 60_000 + 100), { note: `check m${i}` });
      expected = foldEmptyRun(expected, folded);
      expect(await empty(`m${i}`, i)).toBe('m0');
    }
    expect(await log.list({ schedule: 'every-minute' })).toEqual([expected]);
    expect(expected).toMatchObject({ checks: 57, lastAt: new Date(t0 + 56 * 60_000).toISOString(), note: 'check m56' });
    // A folded run is still readable by its id (schedule run --wait), for a while.
    expect(await log.get('m30')).toMatchObject({ state: 'empty', foldedInto: 'm0' });
    expect(await redis.pttl(redisKeys(prefix).runs.run('m30'))).toBeGreaterThan(0);

    const took = run('t1', 60);
    await log.save(took);
    await log.save(
      finishRun(took, 'done', new Date(t0 + 61 * 60_000), { batchId: 'every-minute-afp-0123456789ab', files: 1 }),
    );
    await empty('m61', 62);
    await empty('m62', 63);
    expect((await log.list({ schedule: 'every-minute' })).map((r) => [r.id, r.state, r.checks ?? 1])).toEqual([
      ['m61', 'empty', 2],
      ['t1', 'done', 1],
      ['m0', 'empty', 57],
    ]);

    for (const id of ['w1', 'w2']) {
      const w = newRun({
        id,
        schedule: 'watch',
        source: `/hot/${id}.jpg`,
        trigger: 'drop',
        startedAt: new Date(t0 + 70 * 60_000),
      });
      await log.save(finishRun(w, 'empty', new Date(t0 + 70 * 60_000 + 5), { note: 'the same file was taken before' }));
    }
    expect((await log.list({ schedule: 'watch' })).map((r) => r.id).sort()).toEqual(['w1', 'w2']);
  });

  it('saves racing each other never lose a check', async () => {
    // Runs of one schedule never overlap (its lock); the ends of runs saved at once still must not race.
    await empty('c0', 0, 'concurrent');
    const end = (i: number) =>
      finishRun(run(`c${i}`, i, 'concurrent'), 'empty', new Date(t0 + i * 60_000 + 100), { note: `check c${i}` });
    await Promise.all(Array.from({ length: 40 }, (_, i) => log.save(end(i + 1))));
    const rows = await log.list({ schedule: 'concurrent' });
    expect(rows.map((r) => r.checks)).toEqual([41]);
  });
});
