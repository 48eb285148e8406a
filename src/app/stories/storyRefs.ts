import type { PipelineContext } from '../pipelineContext';
import type { CatalogRecord } from '../../schemas/record';

/**
 * Records as served: `story` as it is now. A record keeps the story id and size of
 * when its batch was clustered; a later caption may have joined it (size) or linked it to another
 * story (the two merge, and the id is the merged one's). One lookup per distinct story.
 */
export async function currentStories<T extends Pick<CatalogRecord, 'story'>>(
  ctx: Pick<PipelineContext, 'stories'>,
  records: T[],
): Promise<T[]> {
  const ids = records.flatMap((r) => (r.story ? [r.story.id] : []));
  if (ids.length === 0) return records;
  const now = await ctx.stories.resolve(ids);
  return records.map((r) => {
    const cur = r.story ? now.get(r.story.id) : null;
    return r.story && cur ? { ...r, story: { ...r.story, id: cur.id, size: cur.size } } : r;
  });
}
