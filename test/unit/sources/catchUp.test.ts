import { droppedTick } from '../../../src/app/schedules/catchUp';

describe('catching up a run missed while nothing ran', () => {
  const now = 1_000_000;
  it('an overdue tick replaced by a future one was dropped: caught up once, at its own time', () => {
    expect(droppedTick(now - 3 * 86_400_000, now + 3_600_000, now)).toBe(now - 3 * 86_400_000);
  });
  it('nothing to catch up for a new schedule, or one whose next tick is still ahead', () => {
    expect(droppedTick(undefined, now + 1000, now)).toBeNull();
    expect(droppedTick(now + 5000, now + 5000, now)).toBeNull();
  });
  it('an overdue tick kept due by the upsert runs by itself (interval schedules keep it)', () => {
    expect(droppedTick(now - 5000, now - 5000, now)).toBeNull();
  });
});
