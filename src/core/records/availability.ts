import { z } from 'zod';
import { releaseState } from '../release/readRelease';
import { releaseStateSchema } from '../../schemas/release';
import type { CatalogRecord } from '../../schemas/record';

/**
 * May the desk publish this record now, and if not why? Computed when a record is read,
 * never stored: an embargo ends on its own, without re-ingesting anything.
 */
export const availabilitySchema = z
  .object({
    /** publishable: nothing stops it; embargoed, expired, killed, withdrawn: do not publish; superseded: use the newer version. */
    state: z.enum(['publishable', 'embargoed', 'expired', 'killed', 'withdrawn', 'superseded']),
    /** One sentence a person can act on. */
    why: z.string().nullable(),
    release: releaseStateSchema.nullable(),
    at: z.string(),
  })
  .meta({ id: 'Availability' });
export type Availability = z.infer<typeof availabilitySchema>;

// Hand-written, not ms(): minutes rounded up and two units (`1 h 5 min`); ms() rounds to one unit, to the nearest.
function left(ms: number): string {
  const m = Math.ceil(ms / 60_000);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} days ${h % 24} h`;
}

export function availabilityOf(
  r: Pick<CatalogRecord, 'status' | 'reason' | 'notice' | 'release' | 'supersededBy' | 'killedAt'>,
  now: number,
): Availability {
  const at = new Date(now).toISOString();
  const release = r.release ? releaseState(r.release, now) : null;
  if (r.status === 'killed' || r.status === 'withdrawn') {
    const by = r.notice ? ` (${r.notice.kind === 'manual' ? 'manual kill' : `notice ${r.notice.itemId}`})` : '';
    return {
      state: r.status,
      why: `${r.status} ${r.killedAt ?? ''}${by}: ${r.reason ?? 'no reason given'}`.replace(/ +/g, ' '),
      release,
      at,
    };
  }
  if (release?.state === 'embargoed') {
    const text = r.release?.embargoUntil?.text;
    const why =
      release.until === null
        ? `embargoed until further notice${text ? ` ("${text}")` : ''}`
        : `embargoed until ${release.until} (${left(release.msLeft ?? 0)} left${text ? `; "${text}"` : ''})`;
    return { state: 'embargoed', why, release, at };
  }
  if (release?.state === 'expired')
    return {
      state: 'expired',
      why: `usage expired at ${release.since}${r.release?.expires?.text ? ` ("${r.release.expires.text}")` : ''}`,
      release,
      at,
    };
  if (r.status === 'superseded')
    return { state: 'superseded', why: `corrected by ${r.supersededBy ?? 'a newer version'}`, release, at };
  return { state: 'publishable', why: null, release, at };
}
