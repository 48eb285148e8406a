import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { runCli } from '../helpers/cli';
import { CliProcess, freePort, waitUntil } from '../helpers/processes';
import { REDIS_URL, SEED_GALLERY, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { ping } from '../../src/adapters/redis/ensureRedis';

/**
 * Issue 17, "The CLI": usage mistakes print one clear line and a hint (never a stack) and exit 2;
 * secrets never reach logs or errors. Each case runs the built CLI as a user would.
 */
const PASSWORD = 'pw-9f3c1d7e5b';

describe('the CLI on usage mistakes and secrets', () => {
  const prefix = uniquePrefix('cliusage');
  const dataDir = makeTmpDir('cliusage-data');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };
  let secured: ChildProcess | null = null;
  let securedPort = 0;

  beforeAll(async () => {
    securedPort = await freePort();
    secured = spawn(
      'redis-server',
      [
        '--port',
        String(securedPort),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--requirepass',
        PASSWORD,
      ],
      { stdio: 'ignore' },
    );
    await waitUntil(
      async () => ping(`redis://:${PASSWORD}@127.0.0.1:${securedPort}`, 300),
      10_000,
      'the password-protected redis-server',
    );
  });
  afterAll(async () => {
    secured?.kill('SIGKILL');
    await deletePrefix(prefix);
    // The password-protected server keeps nothing on disk: killing it removes what the run wrote there.
    removeDir(dataDir);
  });

  const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/);

  it('--version prints the version and exits 0', async () => {
    const r = await runCli(['--version'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('run with nothing to run says so in one line with a hint, exit 2, no stack', async () => {
    const r = await runCli(['run'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^photowire: run: nothing to run/m);
    expect(r.stderr).toMatch(/^hint: photowire run path\/to\/feed/m);
    noStack(r.stderr);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });

  it('--concurrency abc exits 2 like PHOTOWIRE_CONCURRENCY=abc', async () => {
    const flag = await runCli(['run', SEED_GALLERY, '--concurrency', 'abc'], env);
    const variable = await runCli(['run', SEED_GALLERY], { ...env, PHOTOWIRE_CONCURRENCY: 'abc' });
    expect(flag.code).toBe(2);
    expect(variable.code).toBe(2);
    expect(flag.stderr).toMatch(/--concurrency.*abc.*whole number/);
    expect(flag.stderr).toMatch(/^hint:/m);
    noStack(flag.stderr);
  });

  it('a port already in use for serve is one clear line, exit 2', async () => {
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const r = await runCli(['serve', '--port', String(port)], env, { timeoutMs: 30_000 });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`serve: port ${port} on 127.0.0.1 is already in use`);
      expect(r.stderr).toMatch(/^hint: .*--port/m);
      noStack(r.stderr);
    } finally {
      blocker.close();
    }
  });

  it('a dead REDIS_URL is named, masked, without suggesting redis-server on PATH', async () => {
    const dead = await freePort();
    const r = await runCli(['status'], { ...env, REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${dead}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`REDIS_URL=redis://:***@127.0.0.1:${dead} does not answer`);
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.stderr).not.toMatch(/redis-server.*PATH/);
  });

  it('a wrong Redis password says so, and never shows it', async () => {
    const r = await runCli(['status'], { ...env, REDIS_URL: `redis://:wrong-${PASSWORD}@127.0.0.1:${securedPort}` });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refused the credentials/);
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it('an invalid API token is not echoed back', async () => {
    const r = await runCli(['status'], { ...env, PHOTOWIRE_API_TOKEN: 'tooShort-7q' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('PHOTOWIRE_API_TOKEN=<hidden, 11 characters>');
    expect(r.stderr).not.toContain('tooShort-7q');
  });

  it("the worker's logs never carry the Redis password, and run says which Redis it used", async () => {
    const url = `redis://:${PASSWORD}@127.0.0.1:${securedPort}`;
    const worker = CliProcess.start(['worker', '--concurrency', '1'], { ...env, REDIS_URL: url, LOG_LEVEL: 'debug' });
    try {
      await worker.waitForLogs((l) => l.msg === 'worker ready', 1, 20_000, '"worker ready"');
      const ready = worker.logs.find((l) => l.msg === 'worker ready')!;
      expect(ready.redis).toBe(`Redis at redis://:***@127.0.0.1:${securedPort}`);
      const run = await runCli(['run', SEED_GALLERY], { ...env, REDIS_URL: url, LOG_LEVEL: 'debug' });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`using Redis at redis://:***@127.0.0.1:${securedPort} (REDIS_URL)`);
      expect(run.stdout + run.stderr).not.toContain(PASSWORD);
    } finally {
      worker.signal('SIGTERM');
      await worker.exited;
    }
    expect(worker.tail(10_000)).not.toContain(PASSWORD);
  });
});
