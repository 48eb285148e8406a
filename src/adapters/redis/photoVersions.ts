import type { Redis } from 'ioredis';
import { hammingHex } from '../../core/dedup/phash';
import { redisKeys, type PhotoKeys } from './keys';
import { luaFile, runScript } from './scripts';

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
 * One atomic step per image (lua/registerPhoto.lua): find the photo by its pixels or by the
 * agency's id, else start a new one; a reply {'stale', photo} means the keys named another photo
 * than expected, and the caller calls again with that photo's keys.
 */
const REGISTER = luaFile('pwRegisterPhoto', 'registerPhoto');

/** Photo identity across resends, shared by every worker. */
export class PhotoVersions {
  private readonly keys: PhotoKeys;
  constructor(
    private readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = redisKeys(prefix).photo;
  }

  async register(p: {
    itemId: string;
    sha256: string;
    pixelSha256: string;
    agencyRef: string | null;
    phash: string | null;
  }): Promise<PhotoRef> {
    const k = this.keys;
    // Most images are a new photo: expect that first (one call); a resend answers 'stale' with its photo.
    let expected = p.sha256;
    for (let round = 0; ; round++) {
      const keys = [k.byPixels(p.pixelSha256), k.items, k.versions(expected), k.firstItems(expected)];
      if (p.agencyRef) keys.push(k.byRef(p.agencyRef));
      const [id, version, prev] = await runScript<[string, number, string]>(this.redis, REGISTER, keys, [
        p.itemId,
        p.sha256,
        p.phash ?? '',
        expected,
      ]);
      if (id === 'stale') {
        if (round >= 2)
          throw new Error(
            `photo versions: the photo of item ${p.itemId} kept changing while it was registered (${expected} -> ${version})`,
          );
        expected = String(version);
        continue;
      }
      const [previousItemId, previousSha256] = prev ? prev.split(' ') : [null, null];
      return {
        id,
        version: Number(version),
        previousSha256: previousSha256 ?? null,
        previousItemId: previousItemId ?? null,
      };
    }
  }

  /**
   * A probable resend: the caption joined another item's cluster and that item's image is the
   * same photo or looks the same (perceptual hashes within `maxHamming` of 64 bits).
   */
  async isProbableResend(
    photo: PhotoRef,
    phash: string | null,
    canonicalItemId: string,
    maxHamming = 10,
  ): Promise<boolean> {
    const other = await this.redis.hget(this.keys.items, canonicalItemId);
    if (!other) return false;
    const [otherPhoto, otherHash] = other.split(' ');
    if (otherPhoto === photo.id) return true;
    return !!phash && !!otherHash && hammingHex(phash, otherHash) <= maxHamming;
  }
}
