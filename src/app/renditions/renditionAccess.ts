import type { Availability } from '../../core/records/availability';
import type { PipelineContext } from '../pipelineContext';
import { presentRecords } from '../presentRecords';

/**
 * How a rendition set may be answered, from the current availability of every record that shows
 * it (the catalog's list of them, merged with the kill store as any reader does):
 * - `open`: every record may be published: cached by anyone, a year, immutable;
 * - `private`: one is embargoed or expired: served, never stored by a shared cache or a browser
 *   (`private, no-store`), so the answer changes when the embargo ends or a kill comes;
 * - `gone`: one is killed or withdrawn: 410 to everyone but the desk's Details view, which gets it
 *   as `private`.
 * A set no record lists (stored before the list existed) is `open`, as before.
 */
export type RenditionAccess =
  { access: 'open' } | { access: 'private' | 'gone'; state: Availability['state']; itemId: string; why: string | null };

const GONE = new Set<Availability['state']>(['killed', 'withdrawn']);
const PRIVATE = new Set<Availability['state']>(['embargoed', 'expired']);

export async function renditionAccess(
  ctx: Pick<PipelineContext, 'redis' | 'config' | 'catalog' | 'kills'>,
  sha256: string,
  now = Date.now(),
): Promise<RenditionAccess> {
  const owners = await ctx.catalog.renditionOwners.of(sha256);
  if (owners.length === 0) return { access: 'open' };
  const presented = await presentRecords(ctx, owners, now);
  const gone = presented.find((r) => GONE.has(r.availability.state));
  if (gone) return { access: 'gone', state: gone.availability.state, itemId: gone.id, why: gone.availability.why };
  const held = presented.find((r) => PRIVATE.has(r.availability.state));
  if (held) return { access: 'private', state: held.availability.state, itemId: held.id, why: held.availability.why };
  return { access: 'open' };
}
