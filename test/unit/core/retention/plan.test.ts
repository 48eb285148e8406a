import {
  DAY_MS,
  decideBatch,
  expiresAt,
  retentionCutoff,
  runExpired,
  stepsAfter,
} from '../../../../src/core/retention/plan';

describe('retention decisions (src/core/retention/plan.ts)', () => {
  const now = new Date('2026-12-01T00:00:00Z');
  const cutoff = retentionCutoff(now, 30);
  const at = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

  it('removes a batch finished before the window, keeps a recent or open one, resumes one left without its ledger', () => {
    expect(decideBatch({ id: 'a', state: 'done', finishedAt: at(31), archived: false }, cutoff)).toEqual({
      id: 'a',
      action: 'remove',
    });
    expect(decideBatch({ id: 'b', state: 'done', finishedAt: at(29), archived: false }, cutoff)).toMatchObject({
      action: 'keep',
      reason: 'recent',
    });
    expect(decideBatch({ id: 'c', state: 'running', finishedAt: null, archived: false }, cutoff)).toMatchObject({
      action: 'keep',
      reason: 'open',
    });
    expect(decideBatch({ id: 'd', state: null, finishedAt: null, archived: true }, cutoff)).toEqual({
      id: 'd',
      action: 'resume',
    });
    expect(decideBatch({ id: 'e', state: null, finishedAt: null, archived: false }, cutoff)).toMatchObject({
      action: 'keep',
      reason: 'no-ledger',
    });
  });

  it('steps after a cursor, expiry dates, run rows', () => {
    expect(stepsAfter(null)).toEqual(['archive-entry', 'ledger', 'jobs', 'keys', 'list']);
    expect(stepsAfter('jobs')).toEqual(['keys', 'list']);
    expect(expiresAt('2026-11-01T00:00:00.000Z', 30)).toBe('2026-12-01T00:00:00.000Z');
    expect(expiresAt(null, 30)).toBeNull();
    expect(runExpired({ startedAt: at(40), state: 'done' }, cutoff)).toBe(true);
    expect(runExpired({ startedAt: at(40), state: 'running' }, cutoff)).toBe(false);
    expect(runExpired({ startedAt: at(10), state: 'done' }, cutoff)).toBe(false);
    expect(() => retentionCutoff(now, 0)).toThrow(RangeError);
  });
});
