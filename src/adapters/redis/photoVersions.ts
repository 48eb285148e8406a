import type { Redis } from 'ioredis';
import { hammingHex } from '../../core/dedup/phash';

export interface PhotoRef {
  /** Stable id of the photo across resends: the sha256 of the first bytes seen of it. */
  id: string;
  /** 1 for the first bytes seen, +1 for each new set of bytes of the same photo. */
  version: number;
  /** The bytes and record this version replaces, or null for version 1. */
  previousSha256: string | null;
  previousItemId: string | null;
}

/**
 * One atomic step per image: find the photo by its pixels (JPEG scan data) or by the agency's id
 * (transmission reference, guid), else start a new one; identical bytes are the same version.
 * KEYS: byPixels, byRef ('' when no agency id), items hash. ARGV: itemId, sha256, phash, keyPrefix.
 */
const REGISTER = `
local photo = redis.call('GET', KEYS[1])
if (not photo) and KEYS[2] ~= '' then photo = redis.call('GET', KEYS[2]) end
if not photo then photo = ARGV[2] end
redis.call('SET', KEYS[1], photo, 'NX')
if KEYS[2] ~= '' then redis.call('SET', KEYS[2], photo, 'NX') end
local versions = ARGV[4] .. photo .. ':versions'
local firstItem = ARGV[4] .. photo .. ':items'
local v = redis.call('HGET', versions, ARGV[2])
if not v then
  v = redis.call('HLEN', versions) + 1
  redis.call('HSET', versions, ARGV[2], v)
  redis.call('HSET', firstItem, tostring(v), ARGV[1] .. ' ' .. ARGV[2])
end
v = tonumber(v)
redis.call('HSET', KEYS[3], ARGV[1], photo .. ' ' .. ARGV[3])
local prev = ''
if v > 1 then prev = redis.call('HGET', firstItem, tostring(v - 1)) or '' end
return {photo, v, prev}
`;

type RedisWithPhotos = Redis & {
  pwRegisterPhoto(k1: string, k2: string, k3: string, ...args: string[]): Promise<[string, number, string]>;
};

/** Photo identity across resends, shared by every worker. */
export class PhotoVersions {
  private readonly redis: RedisWithPhotos;
  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    if (!('pwRegisterPhoto' in redis)) redis.defineCommand('pwRegisterPhoto', { numberOfKeys: 3, lua: REGISTER });
    this.redis = redis as RedisWithPhotos;
  }

  async register(p: { itemId: string; sha256: string; pixelSha256: string; agencyRef: string | null; phash: string | null }): Promise<PhotoRef> {
    const base = `${this.prefix}:photo:`;
    const [id, version, prev] = await this.redis.pwRegisterPhoto(
      `${base}pixels:${p.pixelSha256}`,
      p.agencyRef ? `${base}ref:${p.agencyRef}` : '',
      `${base}items`,
      p.itemId,
      p.sha256,
      p.phash ?? '',
      base,
    );
    const [previousItemId, previousSha256] = prev ? prev.split(' ') : [null, null];
    return { id, version: Number(version), previousSha256: previousSha256 ?? null, previousItemId: previousItemId ?? null };
  }

  /**
   * A probable resend: the caption joined another item's cluster and that item's image is the
   * same photo or looks the same (perceptual hashes within `maxHamming` of 64 bits).
   */
  async isProbableResend(photo: PhotoRef, phash: string | null, canonicalItemId: string, maxHamming = 10): Promise<boolean> {
    const other = await this.redis.hget(`${this.prefix}:photo:items`, canonicalItemId);
    if (!other) return false;
    const [otherPhoto, otherHash] = other.split(' ');
    if (otherPhoto === photo.id) return true;
    return !!phash && !!otherHash && hammingHex(phash, otherHash) <= maxHamming;
  }
}
