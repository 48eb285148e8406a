import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import {
  REDIS_URL,
  REPO_ROOT,
  SEED_GALLERY,
  deletePrefix,
  makeTmpDir,
  removeDir,
  uniquePrefix,
} from '../helpers/testEnv';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';

const built = existsSync(path.join(REPO_ROOT, 'dist/cli/main.js'));
// A private network namespace has no Redis on 127.0.0.1:6379: the situation of a fresh machine.
const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0;

describe('the photowire CLI, as a user runs it', () => {
  const prefix = uniquePrefix('cli');
  const dataDir = makeTmpDir('cli-data');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };

  beforeAll(() => {
    if (!built) throw new Error('dist/ is missing: run `npm run build` (npm test does it) before the CLI tests');
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(dataDir);
  });

  it('run --json on the seed gallery prints one JSON summary and exits 0', async () => {
    const r = await runCli(['run', SEED_GALLERY, '--json'], env);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ items: 41, ok: 41, failed: 0 });
    expect(out.batches).toHaveLength(1);
    expect(out.batches[0].batchId).toMatch(/^wire-gallery-2012-[0-9a-f]{12}$/);
    expect(typeof out.batches[0].durationMs).toBe('number');

    const status = await runCli(['status', out.batches[0].batchId], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('41 items: 41 ok, 0 failed');

    const exported = await runCli(['export', out.batches[0].batchId], env);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(41);
    expect(lines[11].credit.line).toBe('Leon Neal/AFP via Getty Images');

    const clusters = await runCli(['clusters', '--batch', out.batches[0].batchId, '--min-size', '3', '--json'], env);
    expect(clusters.code).toBe(0);
    const list = JSON.parse(clusters.stdout) as Array<{ members: Array<{ itemId: string }> }>;
    const ids = (n: number) => `${out.batches[0].batchId}-${String(n).padStart(4, '0')}`;
    expect(list.some((c) => [1, 3, 7].every((n) => c.members.some((m) => m.itemId === ids(n))))).toBe(true);
  });

  it('shows a failed item with its reason, and exits 1', async () => {
    const feed = makeTmpDir('cli-feed');
    try {
      writeFileSync(path.join(feed, 'good.jpg'), await syntheticPhoto({ width: 640, height: 480, seed: 5 }));
      writeFileSync(path.join(feed, 'empty.jpg'), Buffer.alloc(0));
      const r = await runCli(['run', feed], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('2 items: 1 ok, 1 failed');
      expect(r.stdout).toMatch(/#1 IMAGE_CORRUPT: .*empty\.jpg: the file is empty/);
    } finally {
      removeDir(feed);
    }
  });

  it('names the file and what was expected for a feed it cannot read', async () => {
    const feed = makeTmpDir('cli-bad');
    try {
      const file = path.join(feed, 'letter.txt');
      writeFileSync(file, 'Dear desk,\nplease find the pictures attached.\n');
      const r = await runCli(['run', file, path.join(feed, 'missing.xml')], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`feed ${file}: FEED_UNKNOWN_FORMAT`);
      expect(r.stdout).toMatch(/expected a JPEG .* gallery text/);
      expect(r.stdout).toMatch(/missing\.xml: FEED_UNREADABLE: .*no such file or folder/);
    } finally {
      removeDir(feed);
    }
  });

  it('refuses a bad configuration naming every bad variable', async () => {
    const r = await runCli(['run', SEED_GALLERY], { ...env, PHOTOWIRE_CONCURRENCY: 'many', REDIS_URL: 'localhost' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PHOTOWIRE_CONCURRENCY');
    expect(r.stderr).toContain('REDIS_URL');
  });

  (canUnshare ? it : it.skip)(
    'starts a private redis-server when nothing answers on 6379, and stops it after',
    async () => {
      const data = makeTmpDir('cli-private');
      try {
        const r = await runCli(
          ['run', SEED_GALLERY, '--json'],
          { PHOTOWIRE_DATA_DIR: data },
          { wrap: ['unshare', '-n', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh'] },
        );
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ items: 41, ok: 41, failed: 0 });
        expect(existsSync(path.join(data, 'batches'))).toBe(true);
      } finally {
        removeDir(data);
      }
    },
  );

  (canUnshare ? it : it.skip)('says how to get Redis when there is none and no redis-server on PATH', async () => {
    const r = await runCli(
      ['run', SEED_GALLERY],
      { PHOTOWIRE_DATA_DIR: dataDir },
      { wrap: ['unshare', '-n', '/usr/bin/env', 'PATH=/nonexistent'] },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/No redis-server on PATH/);
    expect(r.stderr).toMatch(/REDIS_URL/);
  });
});
