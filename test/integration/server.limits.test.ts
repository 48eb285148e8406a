import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { binArgv } from '../helpers/bin';
import { startDesk, type Desk } from '../helpers/deskServer';
import { TestPipeline } from '../helpers/pipeline';
import { REDIS_URL, REPO_ROOT, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { assertServable, isLoopbackHost, presentedToken, tokenMatches } from '../../src/server/auth';
import { startServer } from '../../src/server/startServer';

describe('who may reach the desk', () => {
  it('tells loopback addresses from the rest', () => {
    for (const h of ['127.0.0.1', '127.8.9.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect([h, isLoopbackHost(h)]).toEqual([h, true]);
    for (const h of ['0.0.0.0', '::', '192.168.1.10', 'desk.example.org', '128.0.0.1'])
      expect([h, isLoopbackHost(h)]).toEqual([h, false]);
  });

  it('refuses to listen off loopback without a token, naming the variable', async () => {
    expect(() => assertServable('0.0.0.0', undefined)).toThrow(/PHOTOWIRE_API_TOKEN/);
    expect(() => assertServable('0.0.0.0', 'a-long-enough-token')).not.toThrow();
    expect(() => assertServable('127.0.0.1', undefined)).not.toThrow();
    const p = await TestPipeline.start({ workers: false });
    try {
      await expect(startServer(p.rt, { host: '0.0.0.0', port: 0 }, { token: null })).rejects.toThrow(
        /refusing to listen on 0\.0\.0\.0 without PHOTOWIRE_API_TOKEN/,
      );
    } finally {
      await p.close();
    }
  });

  it('reads the token from Bearer, and from Basic only where allowed', () => {
    expect(presentedToken('Bearer abc', false)).toBe('abc');
    expect(presentedToken(`Basic ${Buffer.from('ops:abc').toString('base64')}`, false)).toBeNull();
    expect(presentedToken(`Basic ${Buffer.from('ops:a:b').toString('base64')}`, true)).toBe('a:b');
    expect(presentedToken(undefined, true)).toBeNull();
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('', 'abc')).toBe(false);
  });
});

describe('caps', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ workers: false, overrides: { PHOTOWIRE_UPLOAD_MAX_MB: '1' }, server: { rateLimit: 8 } });
  });
  afterAll(async () => desk?.close());

  it('refuses an upload over PHOTOWIRE_UPLOAD_MAX_MB and keeps nothing of it', async () => {
    const fd = new FormData();
    fd.append('file', new Blob([Buffer.alloc(700 * 1024, 1)]), 'a.jpg');
    fd.append('file', new Blob([Buffer.alloc(700 * 1024, 2)]), 'b.jpg');
    const res = await desk.fetch('/api/feeds', { method: 'POST', body: fd });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      error: 'UPLOAD_TOO_LARGE',
      message: expect.stringContaining('PHOTOWIRE_UPLOAD_MAX_MB'),
    });
    const uploads = path.join(desk.p.config.dataDir, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    expect(await desk.p.listStored('uploads/')).toEqual([]);
    const tmp = path.join(desk.p.config.dataDir, 'tmp');
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
    expect(await desk.p.rt.ctx.catalog.listBatches()).toEqual([]);
  });

  it('rate-limits the API per client, but not the thumbnails a grid loads', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await desk.fetch('/api/batches')).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(8);
    const limited = await desk.fetch('/api/batches');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: 'RATE_LIMITED' });
    // Guessing tokens is limited too.
    expect((await desk.fetch('/api/batches', { auth: false })).status).toBe(429);
    const thumbs = await Promise.all(
      Array.from({ length: 20 }, () => desk.fetch(`/api/renditions/ab/cd/ab${'c'.repeat(62)}/thumb.webp`)),
    );
    expect(thumbs.map((r) => r.status)).toEqual(Array(20).fill(404));
    expect((await desk.fetch('/', { auth: false })).status).toBe(200);
  });
});

describe('photowire serve (the built CLI, as a user runs it)', () => {
  const built = existsSync(path.join(REPO_ROOT, 'dist/cli/main.js'));
  const run = (args: string[], env: Record<string, string>) => {
    const [node, ...argv] = binArgv();
    const child = spawn(node, [...argv, ...args], {
      env: { ...process.env, LOG_LEVEL: 'info', REDIS_URL, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, exited, stderr: () => stderr };
  };

  (built ? it : it.skip)('refuses 0.0.0.0 without PHOTOWIRE_API_TOKEN (exit 2, one clear line)', async () => {
    const prefix = uniquePrefix('serve');
    const dataDir = makeTmpDir('serve');
    try {
      const r = run(['serve', '--host', '0.0.0.0', '--port', '0'], {
        PHOTOWIRE_PREFIX: prefix,
        PHOTOWIRE_DATA_DIR: dataDir,
        PHOTOWIRE_API_TOKEN: '',
      });
      expect(await r.exited).toBe(2);
      expect(r.stderr()).toContain('refusing to listen on 0.0.0.0 without PHOTOWIRE_API_TOKEN');
      expect(r.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      removeDir(dataDir);
      await deletePrefix(prefix);
    }
  });

  (built ? it : it.skip)('serves the page and the API with a token, and stops on SIGTERM', async () => {
    const prefix = uniquePrefix('serve');
    const dataDir = makeTmpDir('serve');
    const token = 'cli-test-token-abcdefghijkl';
    const r = run(['serve', '--port', '0'], {
      PHOTOWIRE_PREFIX: prefix,
      PHOTOWIRE_DATA_DIR: dataDir,
      PHOTOWIRE_API_TOKEN: token,
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "desk ready" line: ${r.stderr()}`)), 20_000);
        r.child.stderr.on('data', () => {
          const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*"msg":"desk ready"/.exec(r.stderr());
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
      });
      expect((await fetch(`${url}/`)).status).toBe(200);
      expect((await fetch(`${url}/api/batches`)).status).toBe(401);
      const ok = await fetch(`${url}/api/batches`, { headers: { Authorization: `Bearer ${token}` } });
      expect(await ok.json()).toEqual({ batches: [], runs: [] });
      r.child.kill('SIGTERM');
      expect(await r.exited).toBe(0);
    } finally {
      if (r.child.exitCode === null) r.child.kill('SIGKILL');
      removeDir(dataDir);
      await deletePrefix(prefix);
    }
  });
});
