import { presentRecords } from '../presentRecords';
import type { PipelineContext } from '../pipelineContext';
import { defaultCreditRules } from '../../core/credits/rules';
import { listRecord } from '../../core/records/listRecord';
import type { RecordQuery } from '../../schemas/api';
import type { BatchOverviews } from '../batches/batchOverview';
import { PhotowireError } from '../../core/errors';
import { hasFilter, readRecordPage, recordFilter, withCanonicalCredit } from './recordQuery';
import { currentStories } from '../stories/storyRefs';
import { STORY_MEMBERS_READ } from '../clusters/listClusterView';
import { itemIndexOf } from '../../core/ids';

/**
 * `GET /api/batches/:batchId/records`: one page of a batch's records in feed order. Only the page is
 * read (index filters, or a bounded scan for q; src/app/records/recordQuery.ts); an archived
 * batch's page is read from records.ndjson in storage as it streams by. Kill status and embargo
 * state are merged at read time (src/app/presentRecords.ts).
 */
export async function recordsPage(
  deps: { ctx: PipelineContext; overviews: BatchOverviews },
  batchId: string,
  query: RecordQuery,
) {
  const { ctx, overviews } = deps;
  const page = { batchId, offset: query.offset, limit: query.limit };
  // A story filter is the story's members (its first STORY_MEMBERS_READ) in this batch.
  let storyMembers: Set<string> | null = null;
  if (query.story) {
    const story = await ctx.stories.getStory(query.story, STORY_MEMBERS_READ);
    storyMembers = new Set(story?.members.map((m) => m.itemId) ?? []);
  }
  const ledger = await ctx.catalog.getBatch(batchId);
  if (ledger && storyMembers) {
    const indexes = [...storyMembers]
      .map((id) => itemIndexOf(batchId, id))
      .filter((i): i is number => i !== null)
      .sort((a, b) => a - b);
    const rules = defaultCreditRules();
    const matches = recordFilter({ ...query, story: undefined }, rules);
    const found = (await ctx.catalog.recordsAt(batchId, indexes)).filter(
      (r): r is NonNullable<typeof r> => r !== null && storyMembers.has(r.id),
    );
    const matching = found.map((r) => withCanonicalCredit(r, rules)).filter(matches);
    const shown = matching.slice(query.offset, query.offset + query.limit);
    const records = (await currentStories(ctx, await presentRecords(ctx, shown))).map(listRecord);
    const next = query.offset + query.limit;
    return {
      ...page,
      total: matching.length,
      exact: true,
      nextOffset: next < matching.length ? next : null,
      nextCursor: null,
      records,
    };
  }
  if (!ledger) {
    const archived = await overviews.archivedSummary(batchId);
    if (!archived) throw new PhotowireError('NOT_FOUND', `no batch ${batchId}`);
    const rules = defaultCreditRules();
    const read = await overviews.archive.page(batchId, query, {
      matches: storyMembers
        ? (r) => storyMembers.has(r.id) && recordFilter(query, rules)(r)
        : hasFilter(query)
          ? recordFilter(query, rules)
          : undefined,
      present: (r) => withCanonicalCredit(r, rules),
      items: archived.items,
    });
    if (!read) throw new PhotowireError('NOT_FOUND', `no batch ${batchId}`);
    const records = (await currentStories(ctx, await presentRecords(ctx, read.records))).map(listRecord);
    return {
      ...page,
      archived: true,
      total: read.total,
      exact: true,
      nextOffset: read.nextOffset,
      nextCursor: null,
      records,
    };
  }
  const out = await readRecordPage(ctx.catalog, batchId, query, {
    expected: ledger.expected,
    running: ledger.state !== 'done',
  });
  // a page never carries more than LIST_RECORD_MAX_CHARS of a record (src/core/records/listRecord.ts)
  const records = (await currentStories(ctx, await presentRecords(ctx, out.records))).map(listRecord);
  return {
    ...page,
    total: out.total,
    exact: out.exact,
    nextOffset: out.nextOffset,
    nextCursor: out.nextCursor,
    records,
  };
}
