import { z } from 'zod';

export const creditFlagsSchema = z.object({
  file: z.boolean(),
  pool: z.boolean(),
  handout: z.boolean(),
  mandatory: z.boolean(),
  restrictions: z.array(z.string()), // e.g. "Netherlands OUT"
  supplierRef: z.string().nullable(), // e.g. "16507315bs"
  /** Set (true) when the credit says the picture was made with a generative tool ("Image created by X using Midjourney"). */
  illustration: z.boolean().optional(),
});
export type CreditFlags = z.infer<typeof creditFlagsSchema>;

/** The structured credit of one item (see docs/CREDITS.md). `raw` is never altered. */
export const creditSchema = z.object({
  raw: z.object({
    captionTail: z.string().nullable(),
    byline: z.array(z.string()),
    creditLine: z.string().nullable(),
    source: z.string().nullable(),
    copyright: z.string().nullable(),
  }),
  creators: z.array(z.string()),
  /** The organisation's display name from the rules ("Getty Images", "The Canadian Press"), or the name as written when the rules do not know it. */
  agency: z.string().nullable(),
  distributor: z.string().nullable(),
  /** The rules id of `agency` / `distributor` ("GETTY", "CP"); null for an organisation the rules do not list. Absent on records made before rules 2026.12.2. */
  agencyId: z.string().nullable().optional(),
  distributorId: z.string().nullable().optional(),
  partners: z.array(z.string()),
  flags: creditFlagsSchema,
  line: z.string().nullable(),
  /** `high`: every part understood; `medium`: an organisation the rules do not list (a government body, a new agency); `low`: a person should check it against `raw`. */
  confidence: z.enum(['high', 'medium', 'low']),
  rule: z.string().nullable(),
  rulesVersion: z.string(),
});
export type Credit = z.infer<typeof creditSchema>;
