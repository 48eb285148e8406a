import { z } from 'zod';
import { rightsSourceSchema } from './rights';

/** Where a release time was read: a structured field or a note in a text. */
export const releaseSourceSchema = z.union([
  rightsSourceSchema,
  z.enum([
    'iptc:releaseDate', // IIM 2:30 Release Date (+ 2:35 Release Time)
    'iptc:expirationDate', // IIM 2:37 Expiration Date (+ 2:38 Expiration Time)
    'newsml:embargoed', // NewsML-G2 itemMeta/embargoed
    'newsml:pubStatus', // NewsML-G2 itemMeta/pubStatus (stat:withheld)
    'nitf:date.release', // NITF docdata/date.release@norm
    'nitf:date.expire', // NITF docdata/date.expire@norm
    'nitf:management-status', // NITF docdata@management-status (embargoed, withheld)
  ]),
]);
export type ReleaseSource = z.infer<typeof releaseSourceSchema>;

/** One time read from the item: when it may be published, or when it may no longer be. */
export const releaseTimeSchema = z.object({
  /** embargo: not before this time; expiry: not after it. */
  type: z.enum(['embargo', 'expiry']),
  /**
   * UTC ISO 8601 (`2024-03-10T00:01:00.000Z`). null: held "until further notice" (an empty
   * NewsML-G2 `embargoed`, `stat:withheld`, "HOLD FOR RELEASE" with no time) or a time that could
   * not be read; either way the photo stays locked until a person or a newer version releases it.
   */
  at: z.string().nullable(),
  /** The text it came from, as received ("EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024"). */
  text: z.string(),
  source: releaseSourceSchema,
  /**
   * What read it: "iptc", "newsml:embargoed", "newsml:stat:withheld", "nitf:date.release",
   * "nitf:management-status", or the rules phrase for a text ("EMBARGOED|EMBARGO UNTIL|TILL|...").
   */
  rule: z.string(),
  /** The time zone applied ("GMT", "America/New_York", "+01:00"), null when none was needed or found. */
  zone: z.string().nullable(),
  /** What had to be assumed ("no time zone: America/New_York (agency AP)", "year from the item's date"). */
  assumed: z.array(z.string()),
});
export type ReleaseTime = z.infer<typeof releaseTimeSchema>;

export const releaseSchema = z.object({
  /** The latest embargo any source gives (the safest reading); null when none. */
  embargoUntil: releaseTimeSchema.nullable(),
  /** The earliest expiry any source gives; null when none. */
  expires: releaseTimeSchema.nullable(),
  /** Every time read, including those the two above won over. */
  found: z.array(releaseTimeSchema),
  /** Every input as received, by source. */
  raw: z.array(z.object({ source: releaseSourceSchema, text: z.string() })),
  /** `low` when something was assumed, could not be read, or sources disagree. */
  confidence: z.enum(['high', 'low']),
  rulesVersion: z.string(),
});
export type Release = z.infer<typeof releaseSchema>;

/** What `releaseState(release, now)` says: the photo's state at one instant. */
export const releaseStateSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('embargoed'),
    /** null: until further notice. */
    until: z.string().nullable(),
    msLeft: z.number().int().nonnegative().nullable(),
  }),
  z.object({
    state: z.literal('available'),
    expires: z.string().nullable(),
    msLeft: z.number().int().nonnegative().nullable(),
  }),
  z.object({ state: z.literal('expired'), since: z.string() }),
]);
export type ReleaseState = z.infer<typeof releaseStateSchema>;
