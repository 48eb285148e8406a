import type { Cluster, Redis } from 'ioredis';
import { PhotowireError } from '../../core/errors';

/**
 * Redis out of memory: `maxmemory` reached with `maxmemory-policy noeviction` (the setting
 * photowire needs: evicting would lose queued jobs and records). Every write is then refused with
 * "OOM command not allowed when used memory > 'maxmemory'"; reads still work, nothing stored is
 * lost, and the pipeline goes on once there is room again (maxmemory raised, memory freed).
 */

const OOM_REPLY = /\bOOM command not allowed\b/;

/** Is this Redis's OOM refusal (a reply, a script's, or the one that aborted a MULTI)? */
export function isRedisOutOfMemory(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { message?: unknown; previousErrors?: unknown };
  if (typeof e.message === 'string' && OOM_REPLY.test(e.message)) return true;
  // ioredis: a MULTI refused command by command (EXECABORT) keeps the replies in previousErrors.
  return Array.isArray(e.previousErrors) && e.previousErrors.some((p) => isRedisOutOfMemory(p));
}

export interface RedisMemory {
  usedBytes: number;
  maxBytes: number;
  policy: string;
  /** Redis refuses writes now: over maxmemory (less the buffers it does not count) with nothing it may evict. */
  outOfMemory: boolean;
}

const field = (info: string, name: string): string | undefined =>
  new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

/** INFO memory's numbers as Redis's own check reads them (used_memory less mem_not_counted_for_evict). */
export function parseRedisMemory(info: string): RedisMemory | null {
  const used = Number(field(info, 'used_memory'));
  const max = Number(field(info, 'maxmemory'));
  const notCounted = Number(field(info, 'mem_not_counted_for_evict') ?? 0);
  const policy = field(info, 'maxmemory_policy') ?? '';
  if (!Number.isFinite(used) || !Number.isFinite(max)) return null;
  // Only noeviction is certain to refuse: with an eviction policy Redis frees memory on a write.
  return {
    usedBytes: used,
    maxBytes: max,
    policy,
    outOfMemory: max > 0 && policy === 'noeviction' && used - (Number.isFinite(notCounted) ? notCounted : 0) > max,
  };
}

/** Reads INFO memory (on a cluster, the first node that is out of memory, else the first node's numbers). */
export async function readRedisMemory(redis: Redis | Cluster): Promise<RedisMemory | null> {
  const nodes =
    'nodes' in redis && typeof redis.nodes === 'function' ? (redis as Cluster).nodes('master') : [redis as Redis];
  let first: RedisMemory | null = null;
  for (const node of nodes) {
    const m = parseRedisMemory(await node.info('memory'));
    if (m?.outOfMemory) return m;
    first ??= m;
  }
  return first;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * The one line a command prints (REDIS_OUT_OF_MEMORY, exit 2): what Redis said, the numbers when
 * known, that nothing is lost, and what to do.
 */
export function outOfMemoryError(where: string, memory: RedisMemory | null, batchIds: string[] = []): PhotowireError {
  const numbers =
    memory && memory.maxBytes > 0
      ? ` (used ${mb(memory.usedBytes)} of maxmemory ${mb(memory.maxBytes)}, maxmemory-policy ${memory.policy})`
      : '';
  const then = batchIds.length
    ? `then \`photowire retry ${batchIds.length === 1 ? batchIds[0] : '<batch>'} --wait\` with a worker running (or \`photowire run\` the same feed again)`
    : 'then run the command again';
  return new PhotowireError(
    'REDIS_OUT_OF_MEMORY',
    `REDIS_OUT_OF_MEMORY: ${where} is out of memory${numbers} and refuses writes ("OOM command not allowed when used memory > 'maxmemory'"); ` +
      `nothing stored is lost and queued items stay queued: raise maxmemory (CONFIG SET maxmemory, or redis.conf) or free memory, ${then}`,
  );
}
