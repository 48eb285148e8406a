import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { CONFIG_ENV, ConfigError, loadConfig } from '../../src/config';
import { configurationMarkdown } from '../../src/core/configDoc';

/** The variables docs/CONFIGURATION.md's table names in its first column (a row may name several). */
function documentedConfigVars(): Set<string> {
  const section = readFileSync(path.join(__dirname, '../../docs/CONFIGURATION.md'), 'utf8');
  const vars = new Set<string>();
  for (const line of section.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) vars.add(m[1]);
  }
  return vars;
}

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
      loadConfig({
        REDIS_URL: 'localhost:6379',
        PHOTOWIRE_CONCURRENCY: 'lots',
        PHOTOWIRE_DEDUP_RETENTION_DAYS: '0',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const v of ['REDIS_URL', 'PHOTOWIRE_CONCURRENCY', 'PHOTOWIRE_DEDUP_RETENTION_DAYS', 'LOG_LEVEL'])
      expect(problems).toContain(v);
  });

  it('reads PHOTOWIRE_LEDGER_LOST_MS with the rest, and names a bad value at start, not when a wait begins', () => {
    expect(loadConfig({}).ledgerLostMs).toBe(60_000);
    expect(loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: '3000' }).ledgerLostMs).toBe(3000);
    // Before: loadConfig ignored it; a bad value failed only later, where a wait started (mid-batch for a hot folder).
    expect(() => loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: 'soon' })).toThrow(/PHOTOWIRE_LEDGER_LOST_MS="soon"/);
    expect(() => loadConfig({ PHOTOWIRE_LEDGER_LOST_MS: '-1' })).toThrow(ConfigError);
  });

  it('reads durations in ms syntax or milliseconds, each within its bounds', () => {
    expect(loadConfig({}).pairWaitMs).toBe(120_000);
    expect(loadConfig({ PHOTOWIRE_PAIR_WAIT: '90s' }).pairWaitMs).toBe(90_000);
    expect(loadConfig({ PHOTOWIRE_PAIR_WAIT: '0' }).pairWaitMs).toBe(0);
    expect(() => loadConfig({ PHOTOWIRE_PAIR_WAIT: '2d' })).toThrow(/PHOTOWIRE_PAIR_WAIT="2d".*at most 1d/);
    expect(() => loadConfig({ PHOTOWIRE_PAIR_WAIT: 'soon' })).toThrow(/PHOTOWIRE_PAIR_WAIT="soon"/);
    expect(loadConfig({}).retentionEveryMs).toBe(86_400_000);
    expect(loadConfig({ PHOTOWIRE_RETENTION_EVERY: '6h' }).retentionEveryMs).toBe(21_600_000);
    expect(loadConfig({ PHOTOWIRE_RETENTION_EVERY: '0' }).retentionEveryMs).toBe(0);
    expect(() => loadConfig({ PHOTOWIRE_RETENTION_EVERY: '500ms' })).toThrow(
      /PHOTOWIRE_RETENTION_EVERY="500ms".*at least 1s/,
    );
  });

  it('reads every property from one variable of its own, each with a row in docs/CONFIGURATION.md', () => {
    const documented = documentedConfigVars();
    expect(documented.size).toBeGreaterThan(20); // the table was found and parsed
    const props = Object.keys(loadConfig({}))
      .filter((p) => p !== 'storage') // several variables together (PHOTOWIRE_STORAGE, S3_*): their own test below
      .sort();
    expect(Object.keys(CONFIG_ENV).sort()).toEqual(props);
    const envs = props.map((p) => CONFIG_ENV[p as keyof typeof CONFIG_ENV]);
    expect(new Set(envs).size).toBe(envs.length); // no variable feeds two properties
    const undocumented = props.filter((p) => !documented.has(CONFIG_ENV[p as keyof typeof CONFIG_ENV]));
    expect(undocumented.map((p) => `${p} (${CONFIG_ENV[p as keyof typeof CONFIG_ENV]})`)).toEqual([]);
  });

  it('turns each variable into its property: sizes in bytes, lists split, paths absolute, flags boolean', () => {
    const c = loadConfig({
      PHOTOWIRE_MAX_FILE_MB: '3',
      PHOTOWIRE_MAX_FEED_MB: '2',
      PHOTOWIRE_UPLOAD_MAX_MB: '1',
      PHOTOWIRE_FEED_ROOTS: ['/srv/feeds', 'rel'].join(path.delimiter),
      PHOTOWIRE_FETCH_ALLOW: ' Feeds.Example.com, *.cdn.test:8443 ,',
      PHOTOWIRE_BOARD_WRITE: '1',
      PHOTOWIRE_SCHEDULES: 'schedules.json',
      PHOTOWIRE_DEDUP_RETENTION_DAYS: '30',
      LOG_LEVEL: 'warn',
    });
    expect([c.maxFileBytes, c.maxFeedBytes, c.uploadMaxBytes]).toEqual([3 * 1024 * 1024, 2 * 1024 * 1024, 1024 * 1024]);
    expect(c.feedRoots).toEqual(['/srv/feeds', path.resolve('rel')]);
    expect(c.fetchAllow).toEqual(['feeds.example.com', '*.cdn.test:8443']);
    expect(c.boardWrite).toBe(true);
    expect(c.schedulesPath).toBe(path.resolve('schedules.json'));
    expect(c.dedupRetentionDays).toBe(30);
    expect(c.logLevel).toBe('warn');

    const d = loadConfig({ PHOTOWIRE_FEED_ROOTS: '', PHOTOWIRE_BOARD_WRITE: '' });
    expect([d.maxFileBytes, d.maxFeedBytes, d.uploadMaxBytes]).toEqual([
      200 * 1024 * 1024,
      64 * 1024 * 1024,
      512 * 1024 * 1024,
    ]);
    expect([d.feedRoots, d.fetchAllow, d.boardWrite, d.schedulesPath, d.dedupRetentionDays]).toEqual([
      [],
      [],
      false,
      undefined,
      90,
    ]);
    expect(d.dataDir).toBe(path.resolve('./data'));
    // Unset optional properties are there, undefined (not missing keys).
    expect(Object.keys(d)).toEqual(expect.arrayContaining(['redisUrl', 'apiToken', 'testPauseAt', 'killWebhook']));
  });

  it("names a bad variable by its env name with its value, never a secret's value", () => {
    let err: unknown;
    try {
      loadConfig({ PHOTOWIRE_API_TOKEN: 'short-secret', PHOTOWIRE_BOARD_WRITE: 'yes', PHOTOWIRE_MAX_FILE_MB: '0' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).not.toContain('short-secret');
    expect(problems.find((p) => p.startsWith('PHOTOWIRE_API_TOKEN='))).toMatch(/at least 16 characters/);
    expect(problems).toContain('PHOTOWIRE_BOARD_WRITE="yes": 0 or 1');
    expect(problems.find((p) => p.startsWith('PHOTOWIRE_MAX_FILE_MB="0": '))).toBeDefined();
  });

  it('docs/CONFIGURATION.md is generated from the schema: every variable with its default and meaning (`npm run docs`)', () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/CONFIGURATION.md'), 'utf8');
    for (const v of [
      ...Object.values(CONFIG_ENV),
      'PHOTOWIRE_STORAGE',
      'S3_ENDPOINT',
      'PHOTOWIRE_STORAGE_TIMEOUT_MS',
    ]) {
      expect(documentedConfigVars().has(v)).toBe(true);
    }
    // the whole file, so an edit by hand or a variable added without `npm run docs` fails here
    expect(doc).toBe(configurationMarkdown());
  });

  it('reads the storage with the rest, from the same environment: one error names every bad variable', () => {
    expect(loadConfig({ PHOTOWIRE_DATA_DIR: '/srv/pw' }).storage).toEqual({ kind: 'local', root: '/srv/pw' });
    expect(
      loadConfig({ PHOTOWIRE_STORAGE: 's3://wire-photos/night', S3_ENDPOINT: 'http://127.0.0.1:7480' }).storage,
    ).toMatchObject({ kind: 's3', bucket: 'wire-photos', prefix: 'night/', endpoint: 'http://127.0.0.1:7480' });
    let caught: unknown;
    try {
      loadConfig({ PHOTOWIRE_LOCK_MS: 'soon', PHOTOWIRE_STORAGE: 's3://No_Such/x', S3_REGION: 'Mars 1' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PHOTOWIRE_LOCK_MS="soon"/);
    expect(problems).toMatch(/S3_REGION="Mars 1"/);
  });

  it('takes the operator named for the audit trail, trimmed and capped', () => {
    expect(loadConfig({}).operator).toBeUndefined();
    expect(loadConfig({ PHOTOWIRE_OPERATOR: '  night-desk ' }).operator).toBe('night-desk');
    expect(loadConfig({ PHOTOWIRE_OPERATOR: 'x'.repeat(500) }).operator).toHaveLength(100);
  });
});
