import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { PhotowireError } from '../../core/errors';
import { clusterUrl, parseClusterUrl, type RedisClusterNodes } from '../../core/redisClusterNodes';
import { maskUrlCredentials } from '../../core/secrets';

export interface RedisHandle {
  /** The URL to connect with: may hold a password, so never print it; print `describeRedis(handle)`. */
  url: string;
  /** True when photowire started its own throw-away redis-server. */
  private: boolean;
  stop(): Promise<void>;
}

/** No Redis to use (REDIS_UNAVAILABLE: exit 2, retryable), with how to get one. */
export class NoRedisError extends PhotowireError {
  /** `hint: false` when the Redis was named by REDIS_URL: installing one would not help. */
  constructor(detail: string, opts: { hint?: boolean } = {}) {
    super(
      'REDIS_UNAVAILABLE',
      opts.hint === false
        ? detail
        : `${detail}\nphotowire needs Redis 7 (or newer). Any of these works:\n` +
            `  - set REDIS_URL=redis://host:6379 to use a Redis you already run;\n` +
            `  - start one on this machine: \`docker compose up -d redis\`, or \`sudo apt-get install redis-server\` (Debian/Ubuntu), or \`brew install redis && brew services start redis\` (macOS);\n` +
            `  - or just put \`redis-server\` on PATH: \`photowire run\` then starts a private one for the run.`,
    );
    this.name = 'NoRedisError';
  }
}

/** What a Redis said when asked: it answered, it refused the credentials, or nothing answered. */
export type ProbeResult = { ok: true } | { ok: false; auth: boolean; reason: string };

const AUTH_FAILURE = /NOAUTH|WRONGPASS|invalid (?:username-password|password)|Authentication required|AUTH failed/i;

/** Ask a Redis for PING within the timeout, and say why not when it does not answer. */
export async function probe(url: string, timeoutMs: number): Promise<ProbeResult> {
  const r = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    enableOfflineQueue: false,
  });
  let lastError = '';
  r.on('error', (err: Error) => (lastError = err.message));
  try {
    await r.connect();
    if ((await r.ping()) === 'PONG') return { ok: true };
    return { ok: false, auth: false, reason: 'it did not answer PING' };
  } catch (err) {
    // ioredis rejects with "Connection is closed." and reports the cause (ECONNREFUSED, WRONGPASS) as an error event.
    const message = lastError || (err as Error).message;
    if (AUTH_FAILURE.test(message) || AUTH_FAILURE.test((err as Error).message))
      return { ok: false, auth: true, reason: message };
    return { ok: false, auth: false, reason: message || 'no answer' };
  } finally {
    r.disconnect();
  }
}

/** Does a Redis answer PING at `url` within the timeout (no retries, no queueing)? */
export async function ping(url: string, timeoutMs: number): Promise<boolean> {
  return (await probe(url, timeoutMs)).ok;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function onPath(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, cmd);
    try {
      accessSync(p, fsConstants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Start a redis-server that keeps nothing: temporary port and folder, gone when stopped. */
export async function startPrivateRedis(binary = onPath('redis-server')): Promise<RedisHandle> {
  if (!binary) throw new NoRedisError('No redis-server on PATH to start a private one.');
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-redis-'));
  const child: ChildProcess = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--maxmemory-policy',
      'noeviction',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += String(d)));
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (!(await ping(url, 300))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new NoRedisError(
        `The private redis-server (${binary}) did not start: ${stderr.trim() || 'no answer on ' + url}`,
      );
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    private: true,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        // The guard's timer is cleared once the server has exited: left running, it held the
        // process (a `run` with a private Redis, a jest worker) up to 3 s after the end.
        let guard: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((r) => (guard = setTimeout(r, 3000)))]).finally(() =>
          clearTimeout(guard),
        );
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * REDIS_URL when set (it must answer); else a Redis on 127.0.0.1:6379; else, when allowed,
 * a private redis-server from PATH; else a clear message on how to get one.
 */
export async function ensureRedis(redisUrl: string | undefined, opts: { allowPrivate: boolean }): Promise<RedisHandle> {
  const none = async () => undefined;
  if (redisUrl) {
    const answer = await probe(redisUrl, 3000);
    if (answer.ok) return { url: redisUrl, private: false, stop: none };
    const shown = maskUrlCredentials(redisUrl);
    if (answer.auth) {
      throw new NoRedisError(
        `REDIS_URL=${shown}: Redis refused the credentials (wrong password or user name). Check the password in REDIS_URL.`,
        { hint: false },
      );
    }
    throw new NoRedisError(
      `REDIS_URL=${shown} does not answer (${maskUrlCredentials(answer.reason)}). Check that Redis runs there and that this machine can reach it, or unset REDIS_URL to use one on 127.0.0.1:6379.`,
      { hint: false },
    );
  }
  const local = 'redis://127.0.0.1:6379';
  if (await ping(local, 500)) return { url: local, private: false, stop: none };
  if (!opts.allowPrivate) throw new NoRedisError('REDIS_URL is not set and nothing answers on 127.0.0.1:6379.');
  return startPrivateRedis();
}

/** Ask a Redis Cluster whether it serves every slot (CLUSTER INFO: cluster_state:ok) within the timeout. */
export async function probeCluster(c: RedisClusterNodes, timeoutMs: number): Promise<ProbeResult> {
  const cluster = new Cluster(c.nodes, {
    lazyConnect: true,
    enableOfflineQueue: false,
    clusterRetryStrategy: () => null,
    redisOptions: {
      username: c.username,
      password: c.password,
      connectTimeout: timeoutMs,
      maxRetriesPerRequest: 0,
      ...(c.tls ? { tls: {} } : {}),
    },
  });
  let lastError = '';
  cluster.on('error', (err: Error) => (lastError = err.message));
  cluster.on('node error', (err: Error) => (lastError = err.message));
  try {
    await Promise.race([
      cluster.connect(),
      new Promise((_r, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref(),
      ),
    ]);
    const info = String(await cluster.cluster('INFO'));
    if (/cluster_state:ok/.test(info)) return { ok: true };
    return {
      ok: false,
      auth: false,
      reason: `the cluster is not serving every slot (${/cluster_state:\w+/.exec(info)?.[0] ?? 'no cluster_state'})`,
    };
  } catch (err) {
    const message = lastError || (err as Error).message;
    if (AUTH_FAILURE.test(message) || AUTH_FAILURE.test((err as Error).message))
      return { ok: false, auth: true, reason: message };
    return { ok: false, auth: false, reason: message || 'no answer' };
  } finally {
    cluster.disconnect();
  }
}

/**
 * The Redis the configuration names: REDIS_CLUSTER_NODES (a Redis Cluster, which must answer; the
 * handle's url is a `redis+cluster://` URL that createRedis opens as a Cluster), else as ensureRedis.
 */
export async function ensureRedisFromConfig(
  config: { redisUrl?: string; redisClusterNodes?: RedisClusterNodes },
  opts: { allowPrivate: boolean },
): Promise<RedisHandle> {
  const c = config.redisClusterNodes;
  if (!c) return ensureRedis(config.redisUrl, opts);
  if (config.redisUrl)
    throw new NoRedisError(
      'REDIS_URL and REDIS_CLUSTER_NODES are both set: set one of them (REDIS_CLUSTER_NODES for a Redis Cluster).',
      { hint: false },
    );
  const url = clusterUrl(c);
  const answer = await probeCluster(c, 5000);
  if (answer.ok) return { url, private: false, stop: async () => undefined };
  const shown = c.nodes.map((n) => `${n.host}:${n.port}`).join(',');
  if (answer.auth)
    throw new NoRedisError(
      `REDIS_CLUSTER_NODES=${shown}: the cluster refused the credentials (wrong password or user name).`,
      { hint: false },
    );
  throw new NoRedisError(
    `REDIS_CLUSTER_NODES=${shown}: ${maskUrlCredentials(answer.reason)}. Check that the cluster runs and that this machine reaches its nodes.`,
    { hint: false },
  );
}

/** Which Redis a command uses, as it may be printed: credentials masked. */
export function describeRedis(handle: Pick<RedisHandle, 'url' | 'private'>): string {
  const cluster = parseClusterUrl(handle.url);
  if (cluster) return `Redis Cluster at ${cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  return handle.private
    ? `a private redis-server at ${handle.url} (stopped on exit)`
    : `Redis at ${maskUrlCredentials(handle.url)}`;
}
