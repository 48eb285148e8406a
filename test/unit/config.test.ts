import { ConfigError, loadConfig } from '../../src/config';

describe('config from the environment', () => {
  it('has sensible defaults', () => {
    const c = loadConfig({});
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.prefix).toBe('photowire');
    expect(c.redisUrl).toBeUndefined();
    expect(c.concurrency).toBeGreaterThanOrEqual(2);
  });

  it('names every bad variable at once', () => {
    let err: unknown;
    try {
      loadConfig({ REDIS_URL: 'localhost:6379', PHOTOWIRE_CONCURRENCY: 'lots', PHOTOWIRE_DEDUP_THRESHOLD: '1.5', LOG_LEVEL: 'loud' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const v of ['REDIS_URL', 'PHOTOWIRE_CONCURRENCY', 'PHOTOWIRE_DEDUP_THRESHOLD', 'LOG_LEVEL']) expect(problems).toContain(v);
  });

  it('reads PHOTOWIRE_LEDGER_LOST_MS with the rest, and names a bad value at start, not when a wait begins', () => {
    expect(loadConfig({}).ledgerLostMs).toBe(60_000);
    expect(loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: '3000' }).ledgerLostMs).toBe(3000);
    // Before: loadConfig ignored it; a bad value failed only later, where a wait started (mid-batch for a hot folder).
    expect(() => loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: 'soon' })).toThrow(/PHOTOWIRE_LEDGER_LOST_MS="soon"/);
    expect(() => loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: '-1' })).toThrow(ConfigError);
  });
});
