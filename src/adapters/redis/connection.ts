import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import { parseClusterUrl, type RedisClusterNodes } from '../../core/redisClusterNodes';

/** A single Redis or a Redis Cluster: every adapter takes either (keys.ts keeps scripts in one slot). */
export type RedisClient = Redis | Cluster;

export interface ConnectionOpts {
  /** BullMQ workers need maxRetriesPerRequest: null (blocking commands must wait through reconnects instead of failing). */
  forWorker?: boolean;
  name?: string;
}

function baseOptions(opts: ConnectionOpts): RedisOptions {
  return {
    maxRetriesPerRequest: opts.forWorker ? null : 3,
    enableReadyCheck: true,
    connectionName: opts.name,
    // Reconnect forever with a capped delay: a Redis restart must not kill a night's import.
    retryStrategy: (times) => Math.min(times * 200, 5000),
  };
}

/**
 * The one place Redis connections are made: a single Redis at `url`, or, for a cluster URL
 * (`redis+cluster://...`, what ensureRedis returns for REDIS_CLUSTER_NODES), a Cluster client.
 * Typed as `Redis` so callers need not care: a Cluster answers the same commands (ioredis's
 * Commander), BullMQ takes either, and keys.ts keeps every script's and MULTI's keys in one slot.
 */
export function createRedis(url: string, opts: ConnectionOpts = {}): Redis {
  const cluster = parseClusterUrl(url);
  if (cluster) return createCluster(cluster, opts) as unknown as Redis;
  return new Redis(url, baseOptions(opts));
}

/** Is this connection a Redis Cluster client? */
export function isCluster(redis: RedisClient): redis is Cluster {
  return redis instanceof Cluster;
}

/**
 * A Redis Cluster client (REDIS_CLUSTER_NODES): the seed nodes, the cluster's credentials and TLS
 * for every node it discovers; commands are routed by key slot.
 */
export function createCluster(cluster: RedisClusterNodes, opts: ConnectionOpts = {}): Cluster {
  const { retryStrategy: _perNode, ...redisOptions } = baseOptions(opts);
  const options: ClusterOptions = {
    redisOptions: {
      ...redisOptions,
      username: cluster.username,
      password: cluster.password,
      ...(cluster.tls ? { tls: {} } : {}),
    },
    // BullMQ's advice for Cluster: the ready check of the cluster, not of each node.
    enableReadyCheck: true,
    maxRedirections: 16,
    clusterRetryStrategy: (times) => Math.min(times * 200, 5000),
    ...(cluster.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
  };
  return new Cluster(cluster.nodes, options);
}

/**
 * The connection the configuration names: a Cluster when REDIS_CLUSTER_NODES is set, else a Redis
 * at `url` (REDIS_URL, or what ensureRedis found or started).
 */
export function createRedisFromConfig(
  config: { redisClusterNodes?: RedisClusterNodes },
  url: string,
  opts: ConnectionOpts = {},
): Redis {
  return config.redisClusterNodes
    ? (createCluster(config.redisClusterNodes, opts) as unknown as Redis)
    : createRedis(url, opts);
}
