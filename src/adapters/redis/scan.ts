import calculateSlot from 'cluster-key-slot';
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

/**
 * Delete every key of a prefix (both layouts); UNLINK one key per command. A Cluster client's
 * pipeline must keep to one slot ("All keys in the pipeline should belong to the same slots
 * allocation group"), so on a Cluster the keys go in one pipeline per slot.
 */
export async function deletePrefixKeys(redis: Redis | Cluster, prefix: string): Promise<number> {
  let n = 0;
  for (const pattern of prefixPatterns(prefix)) n += await deleteMatching(redis, pattern);
  return n;
}

/** Delete every key matching `pattern` (and kept by `keep`), as deletePrefixKeys does; returns how many. */
export async function deleteMatching(
  redis: Redis | Cluster,
  pattern: string,
  keep: (key: string) => boolean = () => true,
): Promise<number> {
  const keys = (await scanKeys(redis, pattern)).filter(keep);
  const groups = redis instanceof Cluster ? groupBySlot(keys) : [keys];
  for (const group of groups) {
    for (let i = 0; i < group.length; i += 500) {
      const pipe = redis.pipeline();
      for (const k of group.slice(i, i + 500)) pipe.unlink(k);
      await pipe.exec();
    }
  }
  return keys.length;
}

function groupBySlot(keys: string[]): string[][] {
  const bySlot = new Map<number, string[]>();
  for (const k of keys) {
    const slot = calculateSlot(k);
    const list = bySlot.get(slot);
    if (list) list.push(k);
    else bySlot.set(slot, [k]);
  }
  return [...bySlot.values()];
}
