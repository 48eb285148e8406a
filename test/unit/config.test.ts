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
});
