import type { Config } from '../../config';
import { clusterUrl } from '../../core/redisClusterNodes';
import { maskSecrets } from '../../core/secrets';
import { createRedis } from '../../adapters/redis/connection';
import { describeRedis } from '../../adapters/redis/ensureRedis';
import { createStorage } from '../../adapters/storage/openStorage';

export interface HealthCheck {
  ok: boolean;
  /** What was checked (no secret), and why not when it failed. */
  detail: string;
}

export interface HealthReport {
  ok: boolean;
  redis: HealthCheck;
  storage: HealthCheck;
  /** One line for a container healthcheck's log: `ok: ...` or `unhealthy: ...`. */
  line: string;
}

/**
 * `photowire health`, what docker-compose's healthchecks run: does the Redis the configuration names
 * answer PING, and can the storage be used (the data folder written, the bucket reached with the
 * credentials)? Each within `timeoutMs`, never retried: a healthcheck that hangs is itself a
 * failure, and the orchestrator retries it. Never starts a private Redis (that is `run`'s fallback).
 */
export async function checkHealth(config: Config, opts: { timeoutMs: number }): Promise<HealthReport> {
  const [redis, storage] = await Promise.all([
    checkRedis(config, opts.timeoutMs),
    checkStorage(config, opts.timeoutMs),
  ]);
  const ok = redis.ok && storage.ok;
  const line = maskSecrets(`${ok ? 'ok' : 'unhealthy'}: redis ${redis.detail}; storage ${storage.detail}`);
  return { ok, redis, storage, line };
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (${what})`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function checkRedis(config: Config, timeoutMs: number): Promise<HealthCheck> {
  const url = config.redisClusterNodes
    ? clusterUrl(config.redisClusterNodes)
    : (config.redisUrl ?? 'redis://127.0.0.1:6379');
  const where = describeRedis({ url, private: false });
  // The connection reconnects on its own: the timeout ends the wait, and its last error says why.
  const redis = createRedis(url, { name: 'photowire-health' });
  let lastError = '';
  redis.on('error', (err: Error) => (lastError = err.message));
  try {
    const answer = await withTimeout(redis.ping(), timeoutMs, 'PING');
    return answer === 'PONG'
      ? { ok: true, detail: `answers (${where})` }
      : { ok: false, detail: `did not answer PING (${where})` };
  } catch (err) {
    return { ok: false, detail: `does not answer (${where}): ${lastError || (err as Error).message}` };
  } finally {
    redis.disconnect();
  }
}

async function checkStorage(config: Config, timeoutMs: number): Promise<HealthCheck> {
  // A misconfigured storage never gets here: loadConfig names it (exit 2).
  const port = createStorage(config.storage);
  try {
    await withTimeout(port.open(), timeoutMs, 'storage');
    return { ok: true, detail: `reachable (${port.describe})` };
  } catch (err) {
    return { ok: false, detail: `not reachable (${port.describe}): ${(err as Error).message}` };
  } finally {
    await port.close().catch(() => undefined);
  }
}
