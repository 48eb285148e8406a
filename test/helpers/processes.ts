import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './testEnv';
import { freePort, ping } from '../../src/adapters/redis/ensureRedis';
import { scaledMs } from './deadline';
import { binArgv } from './bin';

/**
 * Real processes for fault tests: the built CLI (`bin/photowire.js ...` with its shebang's Node flags, so `npm run build`
 * first; `npm test` does it) and a private redis-server that can be killed and restarted.
 * Every process is ended by its own pid; nothing is killed by name.
 */

const PDEATHSIG = process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true']).status === 0;

export function assertBuilt(): void {
  if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it) before the process tests');
  }
}

/** One pino log line of a photowire process (JSON on a non-TTY stderr). */
export type LogEntry = Record<string, unknown> & { msg?: string; level?: number };

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  at: number;
}

export class CliProcess {
  readonly logs: LogEntry[] = [];
  /** stderr lines that are not JSON (stack traces, plain messages). */
  readonly plain: string[] = [];
  stdout = '';
  readonly exited: Promise<Exit>;
  private exit: Exit | null = null;
  private partial = '';
  private readonly waiters = new Set<() => void>();

  private constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (d) => (this.stdout += String(d)));
    child.stderr!.on('data', (d) => this.onStderr(String(d)));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal, at: Date.now() };
        this.wake();
        resolve(this.exit);
      });
    });
  }

  /** `node bin/photowire.js <args>` with only the given environment (plus PATH and HOME). */
  static start(args: string[], env: Record<string, string | undefined>): CliProcess {
    assertBuilt();
    const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', LOG_LEVEL: 'info' };
    for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
    // setpriv makes the kernel kill the child if the test process dies first (a test runner killed by
    // a timeout must not leave workers behind); it execs, so the pid is the CLI's own.
    const argv = PDEATHSIG ? ['setpriv', '--pdeathsig', 'KILL', ...binArgv(), ...args] : [...binArgv(), ...args];
    const child = spawn(argv[0], argv.slice(1), { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    return new CliProcess(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.exit === null;
  }

  private onStderr(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop()!;
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        this.logs.push(JSON.parse(line) as LogEntry);
      } catch {
        this.plain.push(line);
      }
    }
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /**
   * Resolve with the log lines matching `pred` once there are `count` of them. `idleMs`: how long
   * that may take on an idle machine; the deadline is scaled by the load (test/helpers/deadline.ts).
   */
  waitForLogs(pred: (e: LogEntry) => boolean, count: number, idleMs: number, what = 'log lines'): Promise<LogEntry[]> {
    const timeoutMs = scaledMs(idleMs);
    return new Promise((resolve, reject) => {
      const check = () => {
        const hits = this.logs.filter(pred);
        if (hits.length >= count) {
          done();
          resolve(hits);
        } else if (this.exit) {
          done();
          reject(
            new Error(
              `pid ${this.pid} exited (${JSON.stringify(this.exit)}) before ${count} ${what}; stderr:\n${this.tail()}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${count} ${what} from pid ${this.pid}; stderr:\n${this.tail()}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** The last stderr lines, for failure messages. */
  tail(n = 15): string {
    return [...this.logs.map((l) => JSON.stringify(l)), ...this.plain].slice(-n).join('\n');
  }

  /** Item ids this process logged "item done" for. */
  itemsDone(): string[] {
    return this.logs.filter((l) => l.msg === 'item done').map((l) => String(l.itemId));
  }

  signal(sig: NodeJS.Signals): void {
    if (this.alive) process.kill(this.pid, sig);
  }

  /**
   * Peak resident memory of the process so far (VmHWM, kB), read from /proc while it runs;
   * null once it has exited or where /proc is missing.
   */
  peakRssKb(): number | null {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) : null;
    } catch {
      return null;
    }
  }

  /**
   * The exit, or null if the process is still running `ms` from now. The guard's timer is cleared
   * as soon as the process exits: a race against a bare sleep left a 60 s timer behind the
   * test, and a jest worker holding a timer when the run ends is force-exited ("A worker process
   * has failed to exit gracefully").
   */
  exitWithin(ms: number): Promise<Exit | null> {
    if (this.exit) return Promise.resolve(this.exit);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), ms);
    });
    return Promise.race([this.exited, late]).finally(() => clearTimeout(timer));
  }

  /** SIGKILL if still running, and wait for the exit. */
  async stop(): Promise<Exit> {
    if (this.alive) this.child.kill('SIGKILL');
    return this.exited;
  }
}

/** `photowire worker` with a test's Redis, prefix and data directory. */
export function startWorker(env: Record<string, string | undefined>, concurrency = 2): CliProcess {
  return CliProcess.start(['worker', '--concurrency', String(concurrency)], env);
}

/** Worker started and connected: it logs "worker ready" once its queues are open (so it logs at info level). */
export async function startReadyWorker(env: Record<string, string | undefined>, concurrency = 2): Promise<CliProcess> {
  const w = startWorker({ ...env, LOG_LEVEL: 'info' }, concurrency);
  try {
    await w.waitForLogs((l) => l.msg === 'worker ready', 1, 60_000, '"worker ready"');
  } catch (err) {
    await w.stop();
    throw err;
  }
  return w;
}

/** Poll `check` until it returns a truthy value; `idleMs` is scaled by the load (test/helpers/deadline.ts). */
export async function waitUntil<T>(
  check: () => Promise<T | null | undefined | false>,
  idleMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const timeoutMs = scaledMs(idleMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let last: unknown = null;
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      // Redis may be down on purpose in a fault test: keep polling until the deadline.
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    // Unref'd: a poll jest has given up on (the test timed out) must not hold the worker alive
    // until its own deadline; while the test runs, its connections and jest keep the loop going.
    await new Promise((r) => setTimeout(r, everyMs).unref());
  }
}

export { freePort };

const answers = (url: string) => ping(url, 300);

/**
 * A private redis-server run as docker-compose runs it (AOF on, fsync every second, noeviction),
 * on a fixed port and folder so that it can be killed and started again with its data.
 */
export class PersistentRedis {
  private child: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  static async start(dir: string): Promise<PersistentRedis> {
    mkdirSync(dir, { recursive: true });
    const r = new PersistentRedis(await freePort(), dir);
    await r.startServer();
    return r;
  }

  async startServer(): Promise<void> {
    const cmd = [...(PDEATHSIG ? ['setpriv', '--pdeathsig', 'KILL'] : []), 'redis-server'];
    const child = spawn(
      cmd[0],
      [
        ...cmd.slice(1),
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'everysec',
        '--save',
        '',
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    this.child = child;
    const deadline = Date.now() + 10_000;
    while (!(await answers(this.url))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`redis-server on port ${this.port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kill the server (SIGKILL by default: a crash, not a clean shutdown) and wait until it is gone. */
  async kill(sig: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(sig);
    await gone;
    this.child = null;
  }

  async restart(downMs: number): Promise<void> {
    await this.kill();
    await new Promise((r) => setTimeout(r, downMs));
    await this.startServer();
  }

  async stop(): Promise<void> {
    await this.kill('SIGTERM');
  }
}

/**
 * Wait until each batch is done while a worker process runs it, reading the worker's peak RSS
 * (VmHWM) on every poll and once more at the end, while it still runs: the peak in kB.
 */
export async function waitDoneWithPeakRss(
  worker: Pick<CliProcess, 'peakRssKb'>,
  batchState: (batchId: string) => Promise<string | undefined>,
  batchIds: string[],
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<number> {
  let peakKb = 0;
  for (const id of batchIds) {
    await waitUntil(
      async () => {
        peakKb = Math.max(peakKb, worker.peakRssKb() ?? 0);
        return (await batchState(id)) === 'done';
      },
      opts.timeoutMs ?? 240_000,
      'the batch to finish',
      opts.everyMs ?? 200,
    );
  }
  return Math.max(peakKb, worker.peakRssKb() ?? 0);
}
