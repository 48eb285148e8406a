import { ScheduleService } from '../../../../src/app/schedules/scheduleService';
import type {
  ScheduleQueue,
  ScheduleRepeat,
  ScheduleServicePorts,
  StoredSchedule,
} from '../../../../src/app/schedules/ports';
import { ScheduleError } from '../../../../src/app/schedules/scheduleDef';
import type { ScheduleJob } from '../../../../src/schemas/scheduleJob';
import { exitCodeOf } from '../../../../src/core/errors';

/** An in-memory schedule queue: records what the service asks of it. */
class FakeQueue implements ScheduleQueue {
  readonly schedules = new Map<string, StoredSchedule>();
  readonly runs: Array<{ data: ScheduleJob; jobId: string }> = [];
  nextAfterUpsert: number | null = 5_000;
  async get(name: string) {
    return this.schedules.get(name) ?? null;
  }
  async list() {
    return [...this.schedules.values()];
  }
  async upsert(name: string, repeat: ScheduleRepeat, data: ScheduleJob) {
    this.schedules.set(name, { name, ...repeat, source: data.source, next: this.nextAfterUpsert });
    return { delayMs: null };
  }
  async remove(name: string) {
    return this.schedules.delete(name);
  }
  async addRun(data: ScheduleJob, jobId: string) {
    this.runs.push({ data, jobId });
  }
  async workerCount() {
    return 0;
  }
}

function build(over: Partial<ScheduleServicePorts> = {}) {
  const queue = new FakeQueue();
  const registered: string[] = [];
  const removed: string[] = [];
  const ports: ScheduleServicePorts = {
    queue,
    sources: {
      registerSource: async (_k, name) => void registered.push(name),
      removeSource: async (_k, name) => void removed.push(name),
    },
    pending: async () => null,
    isFolder: async (p) => p === '/in',
    readFile: async () => '[]',
    fetchAllow: ['feeds.example.com'],
    logger: { info: () => undefined },
    now: () => 10_000,
    nonce: () => 'abc',
    ...over,
  };
  return { service: new ScheduleService(ports), queue, registered, removed };
}

describe('ScheduleService', () => {
  it('adds a schedule on an existing folder and registers its source', async () => {
    const { service, queue, registered } = build();
    const r = await service.upsert({ name: 'n', every: 60_000, source: '/in' });
    expect(r).toEqual({ next: 5_000, caughtUp: false });
    expect(queue.schedules.get('n')).toMatchObject({ every: 60_000, source: '/in' });
    expect(registered).toEqual(['n']);
  });

  it('refuses a missing folder and a host outside the allow-list with SCHEDULE_INVALID (exit 2), touching nothing', async () => {
    const { service, queue } = build();
    const a = await service.upsert({ name: 'n', every: 60_000, source: '/nope' }).catch((e) => e);
    expect(a).toBeInstanceOf(ScheduleError);
    expect([a.code, exitCodeOf(a), a.message]).toEqual([
      'SCHEDULE_INVALID',
      2,
      'schedule n: source /nope is not a folder (or an http(s) URL)',
    ]);
    const b = await service
      .upsert({ name: 'h', every: 60_000, source: 'http://other.example.org/feed.xml' })
      .catch((e) => e);
    expect(b.code).toBe('SCHEDULE_INVALID');
    expect(queue.schedules.size).toBe(0);
  });

  it('catches up once when the update dropped a due run', async () => {
    const { service, queue } = build();
    queue.schedules.set('n', { name: 'n', every: 60_000, source: '/in', next: 9_000 });
    queue.nextAfterUpsert = 70_000;
    expect((await service.upsert({ name: 'n', every: 60_000, source: '/in' })).caughtUp).toBe(true);
    expect(queue.runs).toEqual([
      { data: { schedule: 'n', source: '/in', trigger: 'catch-up' }, jobId: 'catchup-n-9000' },
    ]);
  });

  it('runs now with a manual job id, and refuses an unknown name', async () => {
    const { service, queue } = build();
    queue.schedules.set('n', { name: 'n', every: 60_000, source: '/in', next: null });
    expect(await service.runNow('n')).toBe('manual-n-10000-abc');
    expect(queue.runs[0].data).toEqual({ schedule: 'n', source: '/in', trigger: 'manual' });
    await expect(service.runNow('x')).rejects.toThrow('no schedule named x (photowire schedule list)');
  });

  it('removes a schedule and its source; queues the end of interrupted runs only', async () => {
    const pend = { a: { runId: 'r1', source: '/in' } } as Record<string, { runId: string; source: string }>;
    const { service, queue, removed } = build({ pending: async (n) => pend[n] ?? null });
    queue.schedules.set('b', { name: 'b', every: 1000, source: '/in', next: null });
    queue.schedules.set('a', { name: 'a', every: 1000, source: '/in', next: null });
    expect((await service.list()).map((s) => s.name)).toEqual(['a', 'b']);
    expect(await service.resumeInterrupted()).toBe(1);
    expect(queue.runs).toEqual([
      { data: { schedule: 'a', source: '/in', trigger: 'resume' }, jobId: 'resume-a-r1-10000' },
    ]);
    expect(await service.remove('b')).toBe(true);
    expect(await service.remove('b')).toBe(false);
    expect(removed).toEqual(['b']);
  });
});
