import { LAST_SEEN_STEP_SECONDS, lastSeenNow } from '../../../../src/adapters/redis/captionIndex';

/** The caption index records last-seen times in whole hours (a ZADD with an unchanged score moves nothing). */
describe('lastSeenNow', () => {
  it('rounds down to the hour, in seconds, so joins within one hour give one score', () => {
    const hour = Date.UTC(2026, 11, 3, 9, 0, 0);
    expect(LAST_SEEN_STEP_SECONDS).toBe(3600);
    expect(lastSeenNow(hour)).toBe(hour / 1000);
    expect(lastSeenNow(hour + 59 * 60_000 + 59_999)).toBe(hour / 1000);
    expect(lastSeenNow(hour + 3_600_000)).toBe(hour / 1000 + 3600);
    expect(lastSeenNow(hour - 1)).toBe(hour / 1000 - 3600);
  });
});
