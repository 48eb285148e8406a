import { RetentionService, type RetentionServicePorts } from '../../../../src/app/retention/retentionService';
import type { RetentionPorts } from '../../../../src/app/retention/retentionPass';

/** Fake ports: a catalog with one old finished batch (export there), a lock one holder at a time. */
function fakes(opts: { failAt?: string } = {}) {
  const state = {
    holder: null as string | null,
    listed: new Set(['b1']),
    ledgers: new Set(['b1']),
    passes: 0,
    closed: 0,
    memory: [1_000_000, 400_000],
  };
  const logs: Array<{ msg: string; obj: Record<string, unknown> }> = [];
  const logger = {
    info: (obj: object, msg: string) => logs.push({ msg, obj: obj as Record<string, unknown> }),
    warn: (obj: object, msg: string) => logs.push({ msg, obj: obj as Record<string, unknown> }),
  };
  const finished = new Date(Date.parse('2026-01-01T00:00:00Z')).toISOString();
  const ports: RetentionPorts = {
    catalog: {
      candidates: async (_b, offset, limit) => [...state.listed].slice(offset, offset + limit),
      facts: async (id) =>
        state.ledgers.has(id)
          ? {
              id,
              state: 'done',
              finishedAt: finished,
              archived: false,
              entry: {
                id,
                feed: 'f',
                format: 'ndjson',
                createdAt: finished,
                finishedAt: finished,
                expected: 3,
                ok: 2,
                failed: 1,
              },
            }
          : { id, state: null, finishedAt: null, archived: true, entry: null },
      archive: async () => undefined,
      unlinkLedger: async (id) => {
        if (opts.failAt === 'ledger') throw new Error('redis went away');
        return state.ledgers.delete(id) ? 1 : 0;
      },
      itemIds: async function* () {},
      unlinkBatchKeys: async () => 7,
      unlist: async (id) => void state.listed.delete(id),
      getCursor: async () => null,
      setCursor: async () => undefined,
    },
    jobs: { removeBatchJobs: async () => 2 },
    runs: { runsBefore: async () => [], removeRuns: async () => 0 },
    exports: { missing: async () => [] },
    logger,
  };
  const deps: RetentionServicePorts = {
    openPass: () => {
      state.passes++;
      return { ports, close: async () => void state.closed++ };
    },
    lock: {
      acquire: async () => {
        if (state.holder) return null;
        state.holder = 'me';
        return { isLost: false, release: async () => void (state.holder = null) };
      },
      holder: async () => state.holder,
    },
    memory: { usedBytes: async () => state.memory.shift() ?? null },
    logger,
    retentionDays: 30,
    now: () => new Date('2026-12-01T00:00:00Z'),
    sleep: async () => undefined,
  };
  return { state, logs, deps };
}

describe('RetentionService (fake ports)', () => {
  it('runs the pass under the lock and logs batches archived, keys removed, failed items expired and bytes freed', async () => {
    const { state, logs, deps } = fakes();
    const out = await new RetentionService(deps).run({ trigger: 'schedule', jobId: 'repeat:retention:1' });
    expect(out).toMatchObject({ ran: true, trigger: 'schedule', bytesFreed: 600_000 });
    if (!out.ran) throw new Error('did not run');
    expect(out.report.removed).toEqual(['b1']);
    expect(out.report.failedExpired).toBe(1);
    expect(state.holder).toBeNull();
    expect(state.closed).toBe(1);
    const line = logs.find((l) => l.msg === 'retention pass finished')!;
    expect(line.obj).toMatchObject({
      trigger: 'schedule',
      jobId: 'repeat:retention:1',
      batchesArchived: 1,
      keysRemoved: 8,
      jobsRemoved: 2,
      failedExpired: 1,
      bytesFreed: 600_000,
    });
  });

  it('a second pass while one holds the lock removes nothing and does not fail (ran: false)', async () => {
    const { state, deps } = fakes();
    state.holder = 'worker-2';
    const out = await new RetentionService(deps).run({ trigger: 'schedule', waitForLockMs: 0 });
    expect(out).toEqual({ ran: false, trigger: 'schedule', reason: 'locked', holder: 'worker-2' });
    expect(state.passes).toBe(0);
    expect(state.listed.has('b1')).toBe(true);
  });

  it('waits for a lock whose holder lets go (a killed pass whose lease ran out), then runs', async () => {
    const { state, deps } = fakes();
    state.holder = 'dead-worker';
    let tries = 0;
    deps.sleep = async () => {
      if (++tries === 3) state.holder = null;
    };
    const out = await new RetentionService(deps).run({ waitForLockMs: 60_000 });
    expect(out.ran).toBe(true);
    expect(tries).toBe(3);
  });

  it('a pass that throws releases the lock and closes its ports (the retried job resumes from the cursor)', async () => {
    const { state, deps } = fakes({ failAt: 'ledger' });
    await expect(new RetentionService(deps).run()).rejects.toThrow('redis went away');
    expect(state.holder).toBeNull();
    expect(state.closed).toBe(1);
  });

  it('a dry run takes no lock and changes nothing', async () => {
    const { state, deps } = fakes();
    state.holder = 'someone';
    const out = await new RetentionService(deps).run({ dryRun: true });
    expect(out.ran).toBe(true);
    expect(state.ledgers.has('b1')).toBe(true);
  });
});
