import { z } from 'zod';

export const creditFlagsSchema = z.object({
  file: z.boolean(),
  pool: z.boolean(),
  handout: z.boolean(),
  mandatory: z.boolean(),
  restrictions: z.array(z.string()), // e.g. "Netherlands OUT"
  supplierRef: z.string().nullable(), // e.g. "16507315bs"
});
export type CreditFlags = z.infer<typeof creditFlagsSchema>;

/** The structured credit of one item (see README "Credits"). `raw` is never altered. */
export const creditSchema = z.object({
  raw: z.object({
    captionTail: z.string().nullable(),
    byline: z.array(z.string()),
    creditLine: z.string().nullable(),
    source: z.string().nullable(),
    copyright: z.string().nullable(),
  }),
  creators: z.array(z.string()),
  agency: z.string().nullable(),
  distributor: z.string().nullable(),
  partners: z.array(z.string()),
  flags: creditFlagsSchema,
  line: z.string().nullable(),
  confidence: z.enum(['high', 'low']),
  rule: z.string().nullable(),
  rulesVersion: z.string(),
});
export type Credit = z.infer<typeof creditSchema>;
