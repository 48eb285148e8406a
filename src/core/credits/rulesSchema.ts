import { z } from 'zod';

/** Placeholders a house-style template may use; anything else in braces is refused at load. */
export const TEMPLATE_PLACEHOLDERS = ['creators', 'agency', 'distributor', 'client', 'via', 'for'] as const;
/**
 * Markers the desk must print, written `{pool:TEXT}` / `{handout:TEXT}`: TEXT is printed when the
 * credit is a pool / handout picture, nothing otherwise ("{pool:POOL/}{agency}" -> "POOL/AFP").
 */
export const TEMPLATE_MARKERS = ['pool', 'handout'] as const;

const template = z.string().superRefine((s, ctx) => {
  for (const m of s.matchAll(/\{([^{}]*)\}/g)) {
    const marker = /^(\w+):/.exec(m[1]);
    if (marker && (TEMPLATE_MARKERS as readonly string[]).includes(marker[1])) continue;
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(m[1])) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown placeholder {${m[1]}} (known: ${TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ')} ${TEMPLATE_MARKERS.map((p) => `{${p}:TEXT}`).join(' ')})`,
      });
    }
  }
});

const agencyId = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]*$/, 'agency ids are upper case letters, digits and _ (e.g. "NURPHOTO")');
const nonEmpty = z.string().trim().min(1, 'must not be empty');

export const agencyRuleSchema = z.strictObject({
  /** Display name used in lines, distributors and partners ("Getty Images"). */
  name: nonEmpty,
  /** Spellings met in credits; matched case-insensitively, a leading "The" and trailing "Photo" ignored. */
  aliases: z.array(nonEmpty),
  /** House-style line when there are creators, and when there are none. */
  line: template.optional(),
  lineNoCreators: template.optional(),
  /**
   * The agency's printed form when a partner agency is in the chain, keyed by the partner's id:
   * EPA with EFE prints "EPA-EFE/{creators}".
   */
  withPartner: z
    .record(agencyId, z.strictObject({ line: template.optional(), lineNoCreators: template.optional() }))
    .optional(),
});

export const houseStyleSchema = z.strictObject({
  line: template,
  lineNoCreators: template,
  via: template,
  for: template,
  creatorJoin: z.string(),
  creatorLastJoin: z.string(),
  /**
   * A pool picture whose supplier only the IPTC Source names ("(Name/Pool via AP)", Source "POOL Getty
   * Images"): the line keeps the credit's own form ("{creators}/Pool via {distributor}").
   */
  poolVia: template.optional(),
});

export const creditRulesSchema = z
  .strictObject({
    version: z.string().regex(/^\S+$/, 'version must be a non-empty word such as "2026.11.1"'),
    houseStyle: houseStyleSchema,
    agencies: z.record(agencyId, agencyRuleSchema),
    /** Agencies that license other agencies' pictures, with the name shown as `distributor`. */
    distributors: z.record(agencyId, nonEmpty),
    /** Organisations met in chains that are not agencies (TV channels, newspapers...): display name -> aliases. */
    partners: z.record(nonEmpty, z.array(nonEmpty)),
    /** A credit part holding one of these words is an organisation, not a person. */
    organisationWords: z.array(nonEmpty),
    /** Stand-ins for an unnamed photographer ("STR", "Stringer"): never a creator. */
    placeholders: z.array(nonEmpty),
    flagWords: z.strictObject({
      file: z.array(nonEmpty),
      pool: z.array(nonEmpty),
      handout: z.array(nonEmpty),
    }),
    restrictions: z.strictObject({
      /** Usage restrictions quoted as received ("NO ARCHIVES"). "<PLACE> OUT" is always recognised. */
      phrases: z.array(nonEmpty),
      /** Places of more than one word, so "NEW ZEALAND OUT" is not read as "ZEALAND OUT". */
      multiWordPlaces: z.array(nonEmpty),
    }),
    /** Words that label a credit in other languages, before a colon ("Bild:", "Fotó:", "Kuva:"). */
    labelWords: z.array(nonEmpty).optional(),
    /** Military and government ranks and rates before a name ("Staff Sgt.", "Photographer's Mate"); never part of it. */
    ranks: z.array(nonEmpty).optional(),
    /** Bracketed words that are neither a name nor an organisation: warfare qualifications ("AW"), "RELEASE". */
    ignoredBrackets: z.array(nonEmpty).optional(),
    /** Words that make an organisation a government or military body: its pictures are handouts ("U.S. Navy photo"). */
    governmentWords: z.array(nonEmpty).optional(),
    /** Agency ids of stock sites: the site is the distributor, the contributor the creator. */
    stockSites: z.array(agencyId).optional(),
    /** Stock sites' own chain spellings, read as one: "Getty Images/iStockphoto" is iStock distributed by Getty Images. */
    chainAliases: z.record(nonEmpty, z.strictObject({ agency: agencyId, distributor: agencyId.optional() })).optional(),
    /** Words before a credit that are never part of it ("DIGITAL IMAGE."); removed at the start of a credit. */
    ignoredPrefixes: z.array(nonEmpty).optional(),
    /** Generative tools: "Image created by X using <tool>" gives creator X and flags a photo illustration. */
    generativeTools: z.array(nonEmpty).optional(),
    /** Words that make a name a studio ("Jane Doe Photography LLC"): the owner is the creator, the studio the agency. */
    studioWords: z.array(nonEmpty).optional(),
    /** Given names: a one-word credit that is one of them is a person (at low confidence), never an agency ("Eric"). */
    givenNames: z.array(nonEmpty).optional(),
    /** Camera and software defaults written where a credit goes ("OLYMPUS DIGITAL CAMERA"): no credit at all. */
    notCredits: z.array(nonEmpty).optional(),
    nameCasing: z.strictObject({
      /** Lower-cased inside a name ("KOEN VAN WEEL" -> "Koen van Weel"). */
      particles: z.array(nonEmpty),
      /** Whole words written a particular way, keyed in upper case ("MACDONALD": "MacDonald"). */
      exceptions: z.record(nonEmpty, nonEmpty),
    }),
  })
  .superRefine((rules, ctx) => {
    for (const id of Object.keys(rules.distributors)) {
      if (!rules.agencies[id]) {
        ctx.addIssue({
          code: 'custom',
          path: ['distributors', id],
          message: `"${id}" is not an agency id listed under "agencies"`,
        });
      }
    }
    for (const [text, a] of Object.entries(rules.chainAliases ?? {})) {
      for (const [key, id] of [
        ['agency', a.agency],
        ['distributor', a.distributor],
      ] as const) {
        if (id !== undefined && !rules.agencies[id]) {
          ctx.addIssue({
            code: 'custom',
            path: ['chainAliases', text, key],
            message: `"${id}" is not an agency id listed under "agencies"`,
          });
        }
      }
    }
  });

export type CreditRules = z.infer<typeof creditRulesSchema>;
export type AgencyRule = z.infer<typeof agencyRuleSchema>;

/**
 * What an operator file may hold: any part of the rules. Objects are merged key by key over the
 * defaults, lists are added to, and an agency entry may change only some of its fields.
 * `version` is required so every record says which rules produced its credit.
 */
export const operatorRulesSchema = z.strictObject({
  version: z.string().regex(/^\S+$/, 'version must be a non-empty word such as "desk-3"'),
  houseStyle: houseStyleSchema.partial().optional(),
  agencies: z
    .record(
      agencyId,
      z.strictObject({
        name: nonEmpty.optional(),
        aliases: z.array(nonEmpty).optional(),
        line: template.optional(),
        lineNoCreators: template.optional(),
        withPartner: z
          .record(agencyId, z.strictObject({ line: template.optional(), lineNoCreators: template.optional() }))
          .optional(),
      }),
    )
    .optional(),
  distributors: z.record(agencyId, nonEmpty).optional(),
  partners: z.record(nonEmpty, z.array(nonEmpty)).optional(),
  organisationWords: z.array(nonEmpty).optional(),
  placeholders: z.array(nonEmpty).optional(),
  flagWords: z
    .strictObject({
      file: z.array(nonEmpty).optional(),
      pool: z.array(nonEmpty).optional(),
      handout: z.array(nonEmpty).optional(),
    })
    .optional(),
  restrictions: z
    .strictObject({ phrases: z.array(nonEmpty).optional(), multiWordPlaces: z.array(nonEmpty).optional() })
    .optional(),
  nameCasing: z
    .strictObject({ particles: z.array(nonEmpty).optional(), exceptions: z.record(nonEmpty, nonEmpty).optional() })
    .optional(),
  labelWords: z.array(nonEmpty).optional(),
  ranks: z.array(nonEmpty).optional(),
  ignoredBrackets: z.array(nonEmpty).optional(),
  governmentWords: z.array(nonEmpty).optional(),
  stockSites: z.array(agencyId).optional(),
  chainAliases: z.record(nonEmpty, z.strictObject({ agency: agencyId, distributor: agencyId.optional() })).optional(),
  ignoredPrefixes: z.array(nonEmpty).optional(),
  generativeTools: z.array(nonEmpty).optional(),
  studioWords: z.array(nonEmpty).optional(),
  givenNames: z.array(nonEmpty).optional(),
  notCredits: z.array(nonEmpty).optional(),
});
export type OperatorRules = z.infer<typeof operatorRulesSchema>;
