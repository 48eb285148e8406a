import { parseSince } from '../../../src/app/kills';

/** `--since` (kills, clusters rebuild, the server's ?since=): a duration back from now, or a date. */
describe('parseSince', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');

  it('takes a duration with a unit as that long before now', () => {
    expect(parseSince('3d', now)).toBe(now - 3 * 86_400_000);
    expect(parseSince('12h', now)).toBe(now - 12 * 3_600_000);
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000);
    expect(parseSince(' 30 d ', now)).toBe(now - 30 * 86_400_000);
    expect(parseSince('2 weeks', now)).toBe(now - 14 * 86_400_000);
  });

  it('takes a date, and a bare number as a year (never as milliseconds)', () => {
    expect(parseSince('2026-11-01', now)).toBe(Date.parse('2026-11-01'));
    expect(parseSince('2026-11-01T08:30:00Z', now)).toBe(Date.parse('2026-11-01T08:30:00Z'));
    expect(parseSince('2026', now)).toBe(Date.parse('2026'));
  });

  it('defaults to three days and refuses what is neither (null)', () => {
    expect(parseSince(undefined, now)).toBe(now - 3 * 86_400_000);
    expect(parseSince('soon', now)).toBeNull();
    expect(parseSince('3 fortnights', now)).toBeNull();
    expect(parseSince('', now)).toBeNull();
  });
});
