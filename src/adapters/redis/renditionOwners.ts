import type { CatalogRecord } from '../../schemas/record';
import type { ReleaseTime } from '../../schemas/release';
import type { RedisClient } from './connection';
import { redisKeys } from './keys';
import { luaFile, runScript } from './scripts';

/**
 * Which records show a rendition set, by the sha256 of its bytes (the rendition URL names only
 * that): the renditions route asks it whether a photo may be cached or served at all, and merges
 * the kill store's current status of those records (src/app/renditions/renditionAccess.ts).
 *
 * One hash per set, item id -> what availability is computed from: the status the record arrived
 * with and its embargo and expiry. Texts are cut to TEXT_CAP; at most OWNERS_CAP records are kept
 * per set, and up to OWNERS_CAP more that arrived guarded (killed, withdrawn, superseded, with an
 * embargo or expiry): a feed that sends the same bytes thousands of times cannot grow it without
 * end, and a copy past the cap that arrived active is reached by a later kill through its
 * byte-identical copies (the kill store's `o:<stored original>` group), which are listed.
 */
export const OWNERS_CAP = 1000;
const TEXT_CAP = 300;

/** What is kept of a record: the fields `availabilityOf` reads (src/core/records/availability.ts). */
export type RenditionOwner = Pick<
  CatalogRecord,
  'id' | 'status' | 'killedAt' | 'reason' | 'notice' | 'supersededBy' | 'release'
>;

/** lua/rememberRenditionOwner.lua: up to the cap, twice it for records that arrived guarded. */
const REMEMBER_OWNER = luaFile('pwRememberRenditionOwner', 'rememberRenditionOwner');

const cut = (s: string | null | undefined): string | null =>
  s == null ? null : s.length > TEXT_CAP ? `${s.slice(0, TEXT_CAP)}…` : s;
const cutTime = (t: ReleaseTime | null | undefined): ReleaseTime | null =>
  t ? { ...t, text: cut(t.text) ?? '', assumed: [] } : null;

/** The part of a record kept for its renditions' answer. */
export function ownerOf(record: CatalogRecord): RenditionOwner {
  const n = record.notice ?? null;
  return {
    id: record.id,
    status: record.status ?? 'active',
    killedAt: record.killedAt ?? null,
    reason: cut(record.reason),
    notice: n ? { ...n, text: cut(n.text) ?? '', targets: n.targets.slice(0, 10) } : null,
    supersededBy: record.supersededBy ?? null,
    release: record.release
      ? {
          embargoUntil: cutTime(record.release.embargoUntil),
          expires: cutTime(record.release.expires),
          found: [],
          raw: [],
          confidence: record.release.confidence,
          rulesVersion: record.release.rulesVersion,
        }
      : undefined,
  };
}

function arrivedGuarded(o: RenditionOwner): boolean {
  return (o.status ?? 'active') !== 'active' || !!o.release?.embargoUntil || !!o.release?.expires;
}

export class RenditionOwners {
  private readonly keys: ReturnType<typeof redisKeys>;
  constructor(
    private readonly redis: RedisClient,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix);
  }

  /** Note each record that has renditions under its bytes' sha256 (before the record is stored: a rendition is never served unlisted once its record is readable). */
  async remember(records: ReadonlyArray<CatalogRecord>): Promise<void> {
    const bySha = new Map<string, string[]>();
    for (const r of records) {
      if (!r.image || r.renditions.length === 0) continue;
      const o = ownerOf(r);
      const args = bySha.get(r.image.sha256) ?? [];
      args.push(r.id, JSON.stringify(o), arrivedGuarded(o) ? '1' : '0');
      bySha.set(r.image.sha256, args);
    }
    for (const [sha, args] of bySha)
      await runScript(this.redis, REMEMBER_OWNER, [this.keys.renditionOwners(sha)], [String(OWNERS_CAP), ...args]);
  }

  /** The records listed for a set (at most 2 x OWNERS_CAP). */
  async of(sha256: string): Promise<RenditionOwner[]> {
    const h = await this.redis.hgetall(this.keys.renditionOwners(sha256));
    return Object.values(h).map((v) => JSON.parse(v) as RenditionOwner);
  }
}
