import type { Redis } from 'ioredis';
import { moveKeysFor, type Moves } from '../../core/feeds/relocate';
import { redisKeys, type RedisKeys } from './keys';
import { luaFile, runScript } from './scripts';

/** lua/recordMoves.lua: only while the batch's ledger exists. */
const RECORD_MOVES = luaFile('pwRecordMoves', 'recordMoves');

/**
 * Pairs per call: Lua's unpack() takes a few thousand values at most, and a hot folder's take has
 * up to SCAN_MAX_TOP_LEVEL (10,000) companions.
 */
const PAIRS_PER_CALL = 500;

/**
 * Where a hot folder moved the files of a batch (`processed/<day>/...`), kept with the batch (its
 * slot, its lifetime: retention deletes it with the batch's other keys), so that a retry reads the
 * item from where it is now and `failed` prints that place (src/core/feeds/relocate.ts).
 * One field per moved top-level entry: at most a scan's worth (SCAN_MAX_TOP_LEVEL) per take.
 */
export class DropMoves {
  private readonly keys: RedisKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  /** Record moves (a later move of the same entry replaces the earlier one); false when the batch is gone. */
  async record(batchId: string, moves: ReadonlyArray<{ from: string; to: string }>): Promise<boolean> {
    const keys = this.keys.batch(batchId);
    let recorded = true;
    for (let i = 0; i < moves.length; i += PAIRS_PER_CALL) {
      const args = moves.slice(i, i + PAIRS_PER_CALL).flatMap((m) => [m.from, m.to]);
      recorded = (await runScript<number>(this.redis, RECORD_MOVES, [keys.ledger, keys.moved], args)) === 1 && recorded;
    }
    return recorded;
  }

  /** The recorded moves that can apply to these paths (each path and the folders above it), one HMGET. */
  async lookup(batchId: string, paths: Iterable<string>): Promise<Moves> {
    const fields = moveKeysFor(paths);
    const out = new Map<string, string>();
    if (fields.length === 0) return out;
    const values = await this.redis.hmget(this.keys.batch(batchId).moved, ...fields);
    values.forEach((v, i) => {
      if (v !== null) out.set(fields[i], v);
    });
    return out;
  }
}
