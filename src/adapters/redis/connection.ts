import { Redis, type RedisOptions } from 'ioredis';

/**
 * The one place Redis connections are made. BullMQ workers need maxRetriesPerRequest: null
 * (blocking commands must wait through reconnects instead of failing).
 */
export function createRedis(url: string, opts: { forWorker?: boolean; name?: string } = {}): Redis {
  const options: RedisOptions = {
    maxRetriesPerRequest: opts.forWorker ? null : 3,
    enableReadyCheck: true,
    connectionName: opts.name,
    // Reconnect forever with a capped delay: a Redis restart must not kill a night's import.
    retryStrategy: (times) => Math.min(times * 200, 5000),
  };
  return new Redis(url, options);
}
