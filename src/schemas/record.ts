import { z } from 'zod';
import { creditSchema } from './credit';
import { iptcFieldsSchema, itemSourceSchema } from './feedItem';
import { killStatusSchema } from './notice';
import { releaseSchema } from './release';
import { rightsSchema } from './rights';

export const RECORD_SCHEMA_VERSION = 1;

export const renditionSchema = z.object({
  name: z.enum(['thumb', 'preview']),
  path: z.string(), // relative to the data directory
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  format: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type Rendition = z.infer<typeof renditionSchema>;

export const captionPartSchema = z.object({
  kind: z.string(), // credit-tail | publisher-suffix | counter | title | story-ref | tags | editor-note | file-marker | ...
  text: z.string(),
});

/** A member's word-level differences from its cluster's canonical caption (src/core/dedup/wordDiff.ts). */
export const clusterDiffSchema = z.object({
  /** Runs in canonical order: at word `at` of the canonical (split on spaces), `deleted` became `inserted`. */
  /** At most 16 runs of at most 240 characters each (wordDiff.ts MAX_EDITS, MAX_RUN_CHARS). */
  edits: z
    .array(
      z.object({ at: z.number().int().nonnegative(), deleted: z.string().max(240), inserted: z.string().max(240) }),
    )
    .max(16),
  /** Runs left out to keep the record small. */
  more: z.number().int().nonnegative(),
});
export type ClusterDiff = z.infer<typeof clusterDiffSchema>;

/**
 * Why a member is in its caption cluster (src/core/dedup/subjectClusterer.ts ClusterWhy): the parts
 * found to be the same subject, its background against the canonical's, and the edits the rule
 * allowed. Capped like the diff: at most 5 edits (the rule allows no more), words of at most 80
 * characters (MAX_WHY_EDITS, MAX_WHY_WORD_CHARS).
 */
export const clusterWhySchema = z.object({
  matched: z
    .array(z.enum(['slug', 'dateline', 'subject']))
    .min(1)
    .max(2),
  background: z.enum(['same', 'appended', 'dropped', 'changed', 'none']),
  edits: z
    .array(
      z.object({
        kind: z.enum(['function-word', 'spelling', 'number']),
        from: z.string().max(80),
        to: z.string().max(80),
      }),
    )
    .max(5),
});
export type ClusterWhySchema = z.infer<typeof clusterWhySchema>;

export const clusterRefSchema = z.object({
  id: z.string(),
  canonicalId: z.string(),
  similarity: z.number().min(0).max(1),
  exact: z.boolean(),
  /** Against the canonical caption; absent for exact duplicates and the canonical itself. */
  diff: clusterDiffSchema.optional(),
  /** Why this member joined (absent for exact duplicates, the canonical itself and records clustered before it existed). */
  why: clusterWhySchema.optional(),
});
export type ClusterRef = z.infer<typeof clusterRefSchema>;

/** Why a member is in its story (src/core/dedup/story.ts StoryVia): the slug, or the words it shares with `with` (same day). */
export const storyViaSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('slug'), with: z.string(), text: z.string() }),
  z.object({
    kind: z.literal('words'),
    with: z.string(),
    similarity: z.number().min(0).max(1),
    /** Shared content words, at most 12, in this caption's order; `more` were left out. */
    shared: z.array(z.string()),
    more: z.number().int().nonnegative(),
  }),
]);

/**
 * The story a caption belongs to: captions sharing an assignment's background or slug.
 * `size` is the story's size when the record was written; the API serves it (and `id`, after two
 * stories were merged by a caption that links both) as they are when read.
 */
export const storyRefSchema = z.object({
  id: z.string(),
  size: z.number().int().positive(),
  /** Null for the member that founded the story. */
  via: storyViaSchema.nullable(),
});
export type StoryRefRecord = z.infer<typeof storyRefSchema>;

export const recordErrorSchema = z.object({ code: z.string(), message: z.string() });
export type RecordError = z.infer<typeof recordErrorSchema>;

/** The catalog record: one per item. The public contract; fields are only ever added. */
export const catalogRecordSchema = z.object({
  schemaVersion: z.literal(RECORD_SCHEMA_VERSION),
  id: z.string(),
  batchId: z.string(),
  /** The item's index in its batch (0..items-1, dense; records are stored and exported by it). `source.position` is its place in the feed. */
  index: z.number().int().nonnegative().optional(),
  source: itemSourceSchema,
  agencyId: z.string().nullable(),
  agencyVersion: z.string().nullable(),
  title: z.string().nullable(),
  caption: z.string(),
  captionRaw: z.string(),
  captionRemoved: z.array(captionPartSchema),
  headline: z.string().nullable(),
  credit: creditSchema,
  dateCreated: z.string().nullable(),
  location: z
    .object({
      city: z.string().nullable(),
      sublocation: z.string().nullable(),
      state: z.string().nullable(),
      country: z.string().nullable(),
      countryCode: z.string().nullable(),
      dateline: z.string().nullable(),
    })
    .nullable(),
  keywords: z.array(z.string()),
  iptc: iptcFieldsSchema, // original metadata, as read
  image: z
    .object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      format: z.string(),
      bytes: z.number().int().nonnegative(),
      original: z.string(), // stored original, relative to the data directory
      phash: z
        .string()
        .regex(/^[0-9a-f]{16}$/)
        .nullable(),
    })
    .nullable(),
  renditions: z.array(renditionSchema),
  cluster: clusterRefSchema.nullable(),
  /** Null when the caption has neither background nor slug to link on; absent on records written before stories. */
  story: storyRefSchema.nullable().optional(),
  /** The photo across resends: same pixels or same agency id means a new version, not a new photo. */
  photo: z
    .object({
      id: z.string(),
      version: z.number().int().positive(),
      previousSha256: z.string().nullable(),
      previousItemId: z.string().nullable(),
    })
    .nullable(),
  /** Image and caption both near-identical to an earlier item's. */
  probableResend: z.boolean(),
  error: recordErrorSchema.nullable(),
  processedAt: z.string(),
  /** Usage restrictions, markets out, advisories (docs/RIGHTS.md). Optional until the wiring wave sets them. */
  rights: rightsSchema.optional(),
  /** Embargo and expiry (docs/RIGHTS.md). Optional until the wiring wave sets them. */
  release: releaseSchema.optional(),
  /** active | killed | withdrawn | superseded, with killedAt, reason, notice. Optional until the wiring wave sets them. */
  ...killStatusSchema.partial().shape,
});
export type CatalogRecord = z.infer<typeof catalogRecordSchema>;
