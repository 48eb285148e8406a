import { z } from 'zod';
import { availabilitySchema } from '../core/records/availability';
import { noticeRefSchema } from './notice';
import { catalogRecordSchema as storedRecordSchema, storyViaSchema } from './record';

/** A record as the API returns it: the stored record, its kill status merged, and whether it may be published now. */
const catalogRecordSchema = storedRecordSchema
  .extend({
    availability: availabilitySchema.optional(),
    truncated: z
      .boolean()
      .optional()
      .describe(
        "true: a list page cut this record's long texts and lists (over 64 KB of JSON); records.ndjson has it whole",
      ),
  })
  .meta({ id: 'CatalogRecord' });

/** The HTTP API's contract: every response is parsed with these before it is sent. */

export const apiErrorSchema = z
  .object({
    error: z.string().describe('a stable code, e.g. UNAUTHORIZED, NOT_FOUND, BAD_REQUEST, FEED_UNKNOWN_FORMAT'),
    message: z.string(),
  })
  .meta({ id: 'ApiError' });

export const batchIdParam = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/, 'a batch id: letters, digits, dot, dash, underscore');
export const itemIdParam = batchIdParam;

export const failedItemSchema = z
  .object({
    itemId: z.string(),
    position: z.number().int().nonnegative(),
    source: z.string(),
    code: z.string(),
    message: z.string(),
    attempts: z
      .number()
      .int()
      .nonnegative()
      .describe("attempts of every round: a failure retried and failed again adds the new round's"),
    retries: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe('retry rounds that failed again (absent: never retried)'),
    at: z.string(),
    retrying: z.boolean().describe('a retry of this item is queued or running'),
    retryable: z
      .boolean()
      .describe(
        'false when a retry would fail the same way: the feed itself is bad at this item (bad line, invalid or duplicate item, path outside the folder; fix the feed and drop it again), or the photo is not where a retry reads it',
      ),
    retryNote: z.string().optional().describe('why a retry cannot work now, when `retryable` is false'),
    movedFrom: z
      .string()
      .optional()
      .describe(
        'the path the item was read from, when a hot folder has moved it to processed/ since (`source` is where it is now)',
      ),
  })
  .meta({ id: 'FailedItem' });

export const batchCountsSchema = z
  .object({
    photos: z.number().int().nonnegative(),
    captionOnly: z.number().int().nonnegative(),
    clusters: z.number().int().nonnegative(),
    duplicates: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "duplicates within the batch: members of a cluster whose canonical item is another of the batch's items, identical or near-identical",
      ),
    identical: z
      .number()
      .int()
      .nonnegative()
      .describe(
        'of duplicates, those whose caption is the canonical caption word for word; the rest are near-duplicates',
      ),
    joinedEarlier: z
      .number()
      .int()
      .nonnegative()
      .describe('items that joined a cluster whose canonical item came in an earlier batch'),
    lowConfidenceCredits: z.number().int().nonnegative(),
  })
  .meta({ id: 'BatchCounts' });

export const batchOverviewSchema = z
  .object({
    id: z.string(),
    feed: z.string(),
    format: z.string(),
    state: z.enum(['queued', 'running', 'done']),
    createdAt: z.string(),
    finishedAt: z.string().nullable(),
    expected: z.number().int().nonnegative(),
    ok: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    pending: z.number().int().nonnegative(),
    warnings: z.number().int().nonnegative().describe('how many warnings the feed gave'),
    skipped: z
      .record(z.string(), z.number().int().nonnegative())
      .describe(
        'items of the feed that are not pictures, by kind: {"text": 1, "video": 1}; `file`: files of a folder feed that are neither a picture nor a feed',
      ),
    processingMs: z
      .number()
      .nullable()
      .describe(
        'processing time: created to first finished, plus each retry round (reopened to finished again); null until done',
      ),
    elapsedMs: z
      .number()
      .nullable()
      .describe('finishedAt - createdAt (a late retry makes it much longer than processingMs); null until done'),
    counts: batchCountsSchema.nullable().describe('from the records; null while none is stored yet'),
    archived: z
      .boolean()
      .optional()
      .describe(
        'true: the retention pass removed the batch from Redis and it is read from its export in storage (records.ndjson, summary.json), read-only',
      ),
    archivedAt: z
      .string()
      .nullable()
      .optional()
      .describe('when the retention pass archived it (null when only its export tells it is archived)'),
    expiresAt: z
      .string()
      .nullable()
      .optional()
      .describe(
        'when the batch (its failed items with it) leaves Redis: finishedAt + PHOTOWIRE_RETENTION_DAYS; null while it is not done, and for an archived batch',
      ),
  })
  .meta({ id: 'BatchOverview' });
export type BatchOverview = z.infer<typeof batchOverviewSchema>;

export const batchListQuery = z.object({
  days: z.coerce.number().int().min(1).max(3650).default(7).describe('batches created in the last n days'),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});
export const runSchema = z
  .looseObject({
    id: z.string(),
    schedule: z.string().describe('the schedule; `watch` for a file taken from a hot folder'),
    source: z.string(),
    trigger: z.string(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    batchId: z.string().nullable(),
    items: z.number(),
    ok: z.number(),
    duplicates: z.number(),
    failed: z.number(),
    state: z.string().describe('running | done | empty | failed'),
    note: z.string().nullable(),
  })
  .meta({ id: 'Run' });

export const batchListSchema = z
  .object({
    batches: z.array(batchOverviewSchema),
    runs: z.array(runSchema).describe('runs of schedules and hot folders started in the same days, newest first'),
  })
  .meta({ id: 'BatchList' });

export const batchDetailSchema = batchOverviewSchema
  .extend({
    warningList: z.array(z.string()),
    article: z.string().nullable(),
    failures: z.array(failedItemSchema),
  })
  .meta({ id: 'BatchDetail' });

const flag = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

export const recordQuerySchema = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cluster: z.string().max(64).optional().describe('only members of this caption cluster'),
  story: z
    .string()
    .regex(/^[0-9a-f]{16}$/, 'a story id: 16 hex digits')
    .optional()
    .describe("only members of this story (captions sharing an assignment's background or slug)"),
  agency: z.string().max(200).optional().describe('normalized agency, case-insensitive, e.g. AFP'),
  creator: z
    .string()
    .max(200)
    .optional()
    .describe("words of a normalized creator's name, case- and accent-insensitive (an index: whole words)"),
  lowConfidence: flag.describe('only items whose credit was normalized with low confidence'),
  failed: flag.describe('only failed items (true) or only ok items (false)'),
  q: z
    .string()
    .max(500)
    .optional()
    .describe(
      'the desk\'s search: words and "quoted phrases" that must all appear, agency:, creator: (by:), credit:, caption: for one field (src/core/search/query.ts); scans at most 2,000 records per request, see cursor',
    ),
  cursor: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("a q search: where to go on (the previous page's nextCursor)"),
});
export type RecordQuery = z.infer<typeof recordQuerySchema>;

export const recordPageSchema = z
  .object({
    batchId: z.string(),
    archived: z
      .boolean()
      .optional()
      .describe(
        "true: read from the archived batch's records.ndjson in storage (the retention pass removed it from Redis)",
      ),
    total: z.number().int().nonnegative().describe('records matching the filters (an upper bound when exact is false)'),
    exact: z
      .boolean()
      .optional()
      .describe('false when a q search stopped at its bound before the end: total is then an upper bound'),
    offset: z.number().int().nonnegative(),
    limit: z.number().int().positive(),
    nextOffset: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .optional()
      .describe('the offset of the next page, null after the last (no q)'),
    nextCursor: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .optional()
      .describe('a q search: the cursor of the next page, null when the scan reached the end'),
    records: z.array(catalogRecordSchema),
  })
  .meta({ id: 'RecordPage' });

export const clusterSchema = z
  .object({
    id: z.string(),
    canonicalId: z.string(),
    canonicalCaption: z.string(),
    size: z.number().int().positive(),
    members: z.array(
      z.object({
        itemId: z.string(),
        similarity: z.number().min(0).max(1),
        exact: z.boolean(),
        record: catalogRecordSchema.nullable().describe('null when the member batch is no longer in the catalog'),
      }),
    ),
    membersShown: z.number().int().nonnegative().describe('members listed; the rest are counted in size only'),
  })
  .meta({ id: 'Cluster' });

const clusterMemberSchema = z.object({
  itemId: z.string(),
  similarity: z.number().min(0).max(1),
  exact: z.boolean(),
});

export const clusterListQuerySchema = z.object({
  story: z
    .string()
    .regex(/^[0-9a-f]{16}$/, 'a story id: 16 hex digits')
    .optional()
    .describe('only the clusters of this story'),
  batch: z.string().max(200).optional().describe('only clusters with members in this batch'),
  minSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe('only clusters of at least this many captions (default 2, or 1 with story)'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type ClusterListQuery = z.infer<typeof clusterListQuerySchema>;

const storyOfClusterSchema = z.object({ id: z.string(), size: z.number().int().positive() }).nullable();

export const clusterListSchema = z
  .object({
    total: z.number().int().nonnegative().describe('clusters matching'),
    clusters: z.array(
      z.object({
        id: z.string(),
        canonicalId: z.string(),
        canonicalCaption: z.string(),
        size: z.number().int().positive(),
        members: z.array(clusterMemberSchema.extend({ credit: z.string().nullable() })),
        story: storyOfClusterSchema.describe("the story of the cluster's canonical caption, as it is now"),
      }),
    ),
  })
  .meta({ id: 'ClusterList' });

export const storySchema = z
  .object({
    id: z.string(),
    size: z.number().int().positive(),
    membersShown: z
      .number()
      .int()
      .nonnegative()
      .describe('members read (join order); the rest are counted in size only'),
    clusters: z
      .array(
        z.object({
          id: z.string().nullable().describe('null: members whose caption is in no cluster'),
          canonicalId: z.string().nullable(),
          canonicalCaption: z.string().nullable(),
          size: z.number().int().nonnegative().describe("the cluster's size over every batch"),
          members: z.array(
            z.object({
              itemId: z.string(),
              via: storyViaSchema
                .nullable()
                .describe('why it is in the story: the slug or the background words it shares with another member'),
              record: catalogRecordSchema.nullable(),
            }),
          ),
        }),
      )
      .describe("the story's clusters, biggest first; each cluster's members of this story are its versions"),
  })
  .meta({ id: 'Story' });

export const feedPathBodySchema = z
  .object({ path: z.string().min(1).max(4096).describe('a feed file or folder under one of PHOTOWIRE_FEED_ROOTS') })
  .meta({ id: 'FeedPath' });

export const ingestOutcomeSchema = z
  .object({
    path: z.string(),
    batchId: z.string().nullable(),
    created: z.boolean().describe('false when this feed, with this content, was taken before'),
    expected: z.number().int().nonnegative(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  })
  .meta({ id: 'IngestOutcome' });
export const ingestResponseSchema = z.object({ feeds: z.array(ingestOutcomeSchema) }).meta({ id: 'IngestResponse' });

export const retryOutcomeSchema = z
  .object({
    batchId: z.string(),
    retried: z.array(z.string()),
    pending: z.array(z.string()),
    skipped: z.array(z.object({ itemId: z.string(), reason: z.string() })),
    finalizeJobId: z.string().nullable(),
  })
  .meta({ id: 'RetryOutcome' });

export const healthSchema = z.object({ ok: z.literal(true), redis: z.string() });

// Kills, withdrawals and corrections (docs/RIGHTS.md).
const killCopySchema = z.object({
  itemId: z.string(),
  batchId: z.string().nullable(),
  index: z.number().int().nullable().optional(),
  file: z.string().optional(),
  original: z.string().nullable().optional().describe('the stored original, relative to the data directory'),
  agencyId: z.string().nullable().optional(),
  photoId: z.string().nullable().optional(),
  photoVersion: z.number().int().nullable().optional(),
  caption: z.string().optional(),
  groups: z.array(z.string()).optional(),
});
const killLiftSchema = z.object({ at: z.string(), by: z.string(), reason: z.string() });
export const killEventSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['kill', 'withdraw', 'correction']),
    status: z.enum(['killed', 'withdrawn', 'superseded']),
    targets: z.array(z.string()),
    groups: z
      .array(z.string())
      .optional()
      .describe(
        'what it starts from: `i:<item>`, `p:<photo>`, `o:<original>`, `a:<provider>/<id>`, `a:<global id>`, `b:<id>` (any provider)',
      ),
    reason: z.string().nullable(),
    notice: noticeRefSchema,
    createdAt: z.string(),
    by: z.string().optional().describe('who placed it: the operator, or the notice that carried it'),
    items: z.array(z.string()).describe('the records it reached: the first page (itemCount in all)'),
    itemCount: z.number().int().optional(),
    review: z.array(z.string()),
    reviewCount: z.number().int().optional(),
    supersededBy: z.string().nullable(),
    lifted: killLiftSchema
      .nullable()
      .optional()
      .describe('who lifted it, when and why; a lifted kill reaches nothing more'),
    copies: z.array(killCopySchema).describe('the records it reached (the first page), with where each is stored'),
    reviewCopies: z
      .array(killCopySchema)
      .describe('near-identical captions in the same clusters, not killed: for a person to review'),
  })
  .meta({ id: 'Kill' });
export const killListSchema = z.object({ since: z.string(), kills: z.array(killEventSchema) }).meta({ id: 'KillList' });
export const killQuerySchema = z.object({
  since: z.string().max(40).optional().describe('3d, 12h, 90m or an ISO date (default 3d)'),
  all: z.enum(['0', '1', 'true', 'false']).optional().describe('also lifted kills'),
});
export const killBodySchema = z
  .object({
    target: z
      .string()
      .trim()
      .min(1)
      .max(300)
      .describe(
        'an item id (also while still queued), a photo id, originals/..., or an agency id (guid, transmission reference)',
      ),
    reason: z.string().trim().min(1).max(2000),
    agency: z
      .string()
      .trim()
      .max(100)
      .optional()
      .describe('whose id a bare agency id is, when photowire has seen it from more than one agency'),
    withdraw: z.boolean().optional().describe('a withdrawal rather than a kill'),
  })
  .meta({ id: 'KillRequest' });
export const killLiftBodySchema = z
  .object({ reason: z.string().trim().min(1).max(2000) })
  .meta({ id: 'KillLiftRequest' });
export const killIdParamsSchema = z.object({
  id: z.string().trim().min(1).max(64).describe('a kill id (photowire kills lists them)'),
});
export const killCopiesQuerySchema = z.object({
  after: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  review: z.enum(['0', '1']).optional(),
});
export const killCopiesSchema = z
  .object({ copies: z.array(killCopySchema), total: z.number().int(), next: z.string().nullable() })
  .meta({ id: 'KillCopies' });
export const killLiftOutcomeSchema = z
  .object({ kill: killEventSchema, state: z.enum(['lifted', 'already']), restored: z.number().int() })
  .meta({ id: 'KillLiftOutcome' });
export const killOutcomeSchema = z
  .object({
    kill: killEventSchema,
    targetKind: z.enum(['item', 'photo', 'original', 'agency']),
    provider: z.string().nullable().describe("the provider a bare agency id was scoped to ('' any provider)"),
    matched: z.boolean().describe('false: it reached nothing now and stands for later arrivals'),
    webhook: z
      .object({
        state: z.enum(['queued', 'refused', 'off']),
        jobId: z.string().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
  })
  .meta({ id: 'KillOutcome' });
