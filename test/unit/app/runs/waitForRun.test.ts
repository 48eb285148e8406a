import { waitForRun } from '../../../../src/app/runs/waitForRun';
import { newRun, finishRun, type RunRecord } from '../../../../src/core/runs/runRecord';
import type { Clock } from '../../../../src/app/ingest/ports';

function fakeClock(): Clock & { t: number } {
  return {
    t: 0,
    now() {
      return this.t;
    },
    async sleep(ms: number) {
      this.t += ms;
    },
  };
}

const running = newRun({ id: 'r1', schedule: 'night', source: '/in', trigger: 'manual', startedAt: new Date(0) });

describe('waitForRun (schedule run --wait)', () => {
  it('returns the run once it is no longer running', async () => {
    const answers: Array<RunRecord | null> = [null, running, running, finishRun(running, 'done', new Date(2000))];
    const clock = fakeClock();
    const run = await waitForRun({ get: async () => answers.shift() ?? null }, 'r1', { timeoutMs: 60_000, clock });
    expect(run?.state).toBe('done');
    expect(clock.t).toBe(1500);
  });

  it('gives null when the run has not finished by the deadline', async () => {
    const clock = fakeClock();
    await expect(waitForRun({ get: async () => running }, 'r1', { timeoutMs: 2000, clock })).resolves.toBeNull();
    expect(clock.t).toBe(2000);
  });
});
