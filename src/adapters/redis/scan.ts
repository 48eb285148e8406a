import { Cluster, type Redis } from 'ioredis';
import { prefixPatterns } from './keys';

/** Every key matching `pattern`: SCAN on a Redis, or on each master of a Cluster (SCAN is per node). */
export async function scanKeys(redis: Redis | Cluster, pattern: string, count = 1000): Promise<string[]> {
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const out: string[] = [];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', count);
      cursor = next;
      out.push(...keys);
    } while (cursor !== '0');
  }
  return out;
}

/** Delete every key of a prefix (both layouts); UNLINK one key per command, so keys of many slots are fine. */
export async function deletePrefixKeys(redis: Redis | Cluster, prefix: string): Promise<number> {
  let n = 0;
  for (const pattern of prefixPatterns(prefix)) {
    const keys = await scanKeys(redis, pattern);
    for (let i = 0; i < keys.length; i += 500) {
      const pipe = redis.pipeline();
      for (const k of keys.slice(i, i + 500)) pipe.unlink(k);
      await pipe.exec();
    }
    n += keys.length;
  }
  return n;
}
