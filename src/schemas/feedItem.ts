import { z } from 'zod';
import { sourcedTextSchema } from './rights';

/**
 * Metadata as an agency sent it, in IPTC terms. Every field is optional: feeds carry
 * different subsets. Text is kept exactly as received (no trimming) so nothing is lost.
 */
export const iptcFieldsSchema = z.object({
  caption: z.string().optional(), // IIM 2:120 Caption-Abstract / XMP dc:description
  headline: z.string().optional(), // IIM 2:105 / photoshop:Headline
  byline: z.array(z.string()).optional(), // IIM 2:80 By-line / dc:creator
  bylineTitle: z.array(z.string()).optional(), // IIM 2:85 / photoshop:AuthorsPosition
  credit: z.string().optional(), // IIM 2:110 Credit / photoshop:Credit
  source: z.string().optional(), // IIM 2:115 / photoshop:Source
  copyright: z.string().optional(), // IIM 2:116 / dc:rights
  dateCreated: z.string().optional(), // ISO 8601 date or date-time, as precise as the source gives
  city: z.string().optional(),
  sublocation: z.string().optional(),
  state: z.string().optional(),
  country: z.string().optional(),
  countryCode: z.string().optional(),
  transmissionReference: z.string().optional(), // IIM 2:103 Original Transmission Reference (job id)
  objectName: z.string().optional(), // IIM 2:05 (the slug of a text wire)
  urgency: z.string().optional(), // IIM 2:10, or a text wire's priority as sent (IPTC 7901 digit, ANPA letter)
  category: z.string().optional(), // IIM 2:15, or a text wire's category code as sent
  keywords: z.array(z.string()).optional(),
  specialInstructions: z.string().optional(), // IIM 2:40
  writer: z.string().optional(), // IIM 2:122
});
export type IptcFields = z.infer<typeof iptcFieldsSchema>;

/**
 * What a wire format says about rights, release and status beyond the IPTC fields (docs/RIGHTS.md
 * "What the wiring passes in"): read by src/app/items/rightsRules.ts. Values exactly as received.
 */
export const wireFieldsSchema = z.object({
  /** Rights texts the IPTC fields do not hold (NewsML-G2 usageTerms, NITF doc.rights ...). */
  texts: z.array(sourcedTextSchema).optional(),
  newsml: z
    .object({
      guid: z.string(),
      version: z.string(),
      pubStatus: z.string(),
      embargoed: z.string(),
      signals: z.array(z.string()),
    })
    .partial()
    .optional(),
  nitf: z
    .object({
      docId: z.string(),
      managementStatus: z.string(),
      managementDocIdref: z.string(),
      managementIdrefStatus: z.string(),
      dateRelease: z.string(),
      dateExpire: z.string(),
    })
    .partial()
    .optional(),
  /** When the item was sent (NewsML-G2 versionCreated/sent, NITF date.issue), as written. */
  sent: z.string().optional(),
});
export type WireFields = z.infer<typeof wireFieldsSchema>;

/** Where an item came from inside its feed. */
export const itemSourceSchema = z.object({
  file: z.string(), // path of the feed file the item was read from
  position: z.number().int().nonnegative(), // 0-based position of the item in the feed
  line: z.number().int().positive().optional(), // 1-based line, for text feeds
  counter: z.number().int().positive().optional(), // the "(12 of41)" number of a gallery item
  counterTotal: z.number().int().positive().optional(),
  format: z.string(), // gallery-text | manifest-ndjson | manifest-json | jpeg | newsml-g2 | nitf | csv ...
});
export type ItemSource = z.infer<typeof itemSourceSchema>;

/**
 * One item of a feed as the pure parsers return it: a photo and/or a caption.
 * `image` is an absolute path already confined to the feed's folder, or a URL for HTTP feeds.
 */
export const feedItemSchema = z.object({
  source: itemSourceSchema,
  agencyId: z.string().optional(), // agency guid / transmission reference, when the feed gives one
  agencyVersion: z.string().optional(),
  captionRaw: z.string(), // exactly as received ('' when none)
  title: z.string().optional(), // gallery title line or feed title (not the caption)
  iptc: iptcFieldsSchema.default({}),
  image: z.string().nullable(),
  /** Rights, release and status fields of NewsML-G2 and NITF items (optional: other feeds have none). */
  wire: wireFieldsSchema.optional(),
  /** A problem found while parsing this item; the item still becomes a record carrying it. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type FeedItem = z.infer<typeof feedItemSchema>;
