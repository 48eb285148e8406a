import { execFile } from 'node:child_process';
import { accessSync, constants as fsConstants, existsSync } from 'node:fs';
import * as path from 'node:path';
import { REPO_ROOT } from './testEnv';

/**
 * The services the "many machines" tests need, from the project's own scripts
 * (scripts/services/): a Ceph RADOS Gateway (a real S3 server) and a three-master Redis Cluster.
 *
 * Once per test file: `const rgw = cephRgw();` at the top, then `beforeAll(rgw.start)`,
 * `afterAll(rgw.stop)`. When S3_ENDPOINT (with AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY) or
 * REDIS_CLUSTER_NODES is set, the running service is reused and left alone. When the service can
 * neither be reused nor started (no packages and no root apt-get), `rgw.missing` says why, and
 * the file uses `rgw.describe` (describe.skip plus a printed reason) instead of passing silently.
 */

export interface S3Env {
  S3_ENDPOINT: string;
  S3_REGION: string;
  S3_FORCE_PATH_STYLE: string;
  AWS_ACCESS_KEY_ID: string;
  AWS_SECRET_ACCESS_KEY: string;
}

export interface Service<E> {
  /** Why the service cannot be had on this machine, or null. */
  readonly missing: string | null;
  /** `describe` when the service can be had, else `describe.skip` after printing why. */
  readonly describe: jest.Describe;
  /** Start (or reuse) it; resolves with its connection. Throws when a start that should work fails. */
  start(): Promise<void>;
  stop(): Promise<void>;
  env(): E;
  /** Milliseconds the start took (0 when reused). */
  startMs(): number;
  reused(): boolean;
  /** The temp folder the script made (null when reused). */
  dir(): string | null;
}

const SCRIPTS = path.join(REPO_ROOT, 'scripts/services');

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, cmd), fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function canInstall(): boolean {
  return onPath('apt-get') && process.getuid?.() === 0;
}

function runScript(
  script: string,
  args: string[],
  timeoutMs: number,
  extraEnv: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...extraEnv };
    execFile(
      'bash',
      [path.join(SCRIPTS, script), ...args],
      { timeout: timeoutMs, maxBuffer: 1 << 20, env },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`${script} ${args.join(' ')} failed: ${err.message}\n${stderr.slice(-2000)}`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

function parseEnvLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

function service<E>(opts: {
  label: string;
  script: string;
  dirVar: string;
  reuse: () => E | null;
  missing: () => string | null;
  fromLines: (vars: Record<string, string>) => E;
  /** A first start may install Debian packages (about 15 s for Ceph; more on a slow mirror). */
  startTimeoutMs: number;
}): Service<E> {
  let env: E | null = null;
  let dir: string | null = null;
  let took = 0;
  const reusable = opts.reuse();
  const missing = reusable ? null : opts.missing();
  const suite: jest.Describe = missing
    ? (((name: string, fn: () => void) => {
        process.stderr.write(`\ntests: SKIPPED "${name}": ${opts.label} is not available: ${missing}\n`);
        describe.skip(name, fn);
      }) as unknown as jest.Describe)
    : describe;
  return {
    missing,
    describe: suite,
    async start() {
      if (reusable) {
        env = reusable;
        return;
      }
      const t0 = Date.now();
      const { stdout } = await runScript(opts.script, ['start'], opts.startTimeoutMs);
      const vars = parseEnvLines(stdout);
      dir = vars[opts.dirVar] ?? null;
      env = opts.fromLines(vars);
      took = Date.now() - t0;
      process.stderr.write(`tests: started ${opts.label} in ${(took / 1000).toFixed(1)} s (${opts.script})\n`);
    },
    async stop() {
      // STOP_FAST: SIGKILL at once; the services hold nothing worth a clean shutdown (Ceph's is ~6 s).
      if (dir && existsSync(dir)) await runScript(opts.script, ['stop', dir], 60_000, { STOP_FAST: '1' });
      dir = null;
    },
    env() {
      if (!env) throw new Error(`${opts.label} was not started (call start() in beforeAll)`);
      return env;
    },
    startMs: () => took,
    dir: () => dir,
    reused: () => reusable !== null,
  };
}

const CEPH_TOOLS = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'ceph-authtool', 'monmaptool', 'curl'];

/** A Ceph RGW for this test file (or the one S3_ENDPOINT names). */
export function cephRgw(opts: { reuse?: boolean } = {}): Service<S3Env> {
  return service<S3Env>({
    label: 'Ceph RGW (S3)',
    script: 'ceph-rgw.sh',
    dirVar: 'CEPH_RGW_DIR',
    reuse: () => {
      const e = process.env;
      if (opts.reuse === false) return null;
      if (!e.S3_ENDPOINT || !e.AWS_ACCESS_KEY_ID || !e.AWS_SECRET_ACCESS_KEY) return null;
      return {
        S3_ENDPOINT: e.S3_ENDPOINT,
        S3_REGION: e.S3_REGION || 'us-east-1',
        S3_FORCE_PATH_STYLE: e.S3_FORCE_PATH_STYLE || 'true',
        AWS_ACCESS_KEY_ID: e.AWS_ACCESS_KEY_ID,
        AWS_SECRET_ACCESS_KEY: e.AWS_SECRET_ACCESS_KEY,
      };
    },
    missing: () => {
      const absent = CEPH_TOOLS.filter((t) => !onPath(t));
      // Set by .ci/run when its apt-get install failed: trying again in every test file would only fail again.
      if (absent.length > 0 && process.env.PHOTOWIRE_TEST_NO_CEPH) return process.env.PHOTOWIRE_TEST_NO_CEPH;
      if (absent.length === 0 || canInstall()) return null;
      return `no ${absent.join(', ')} on PATH and no root apt-get to install Debian's ceph-mon ceph-osd radosgw ceph-common (or set S3_ENDPOINT, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)`;
    },
    fromLines: (v) => {
      for (const k of ['S3_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const) {
        if (!v[k]) throw new Error(`ceph-rgw.sh start printed no ${k}`);
      }
      return {
        S3_ENDPOINT: v.S3_ENDPOINT!,
        S3_REGION: v.S3_REGION ?? 'us-east-1',
        S3_FORCE_PATH_STYLE: v.S3_FORCE_PATH_STYLE ?? 'true',
        AWS_ACCESS_KEY_ID: v.AWS_ACCESS_KEY_ID!,
        AWS_SECRET_ACCESS_KEY: v.AWS_SECRET_ACCESS_KEY!,
      };
    },
    startTimeoutMs: 600_000,
  });
}

export interface RedisClusterEnv {
  /** `host:port` of each master. */
  nodes: { host: string; port: number }[];
  REDIS_CLUSTER_NODES: string;
}

/** A three-master Redis Cluster for this test file (or the one REDIS_CLUSTER_NODES names). */
export function redisCluster(opts: { reuse?: boolean } = {}): Service<RedisClusterEnv> {
  const toEnv = (list: string): RedisClusterEnv => ({
    REDIS_CLUSTER_NODES: list,
    nodes: list.split(',').map((hp) => {
      const i = hp.lastIndexOf(':');
      return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
    }),
  });
  return service<RedisClusterEnv>({
    label: 'Redis Cluster',
    script: 'redis-cluster.sh',
    dirVar: 'REDIS_CLUSTER_DIR',
    reuse: () =>
      opts.reuse !== false && process.env.REDIS_CLUSTER_NODES ? toEnv(process.env.REDIS_CLUSTER_NODES) : null,
    missing: () => {
      if ((onPath('redis-server') && onPath('redis-cli')) || canInstall()) return null;
      return "no redis-server/redis-cli on PATH and no root apt-get to install Debian's redis-server (or set REDIS_CLUSTER_NODES)";
    },
    fromLines: (v) => {
      if (!v.REDIS_CLUSTER_NODES) throw new Error('redis-cluster.sh start printed no REDIS_CLUSTER_NODES');
      return toEnv(v.REDIS_CLUSTER_NODES);
    },
    startTimeoutMs: 300_000,
  });
}
