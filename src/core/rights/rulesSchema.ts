import countries from 'i18n-iso-countries';
import { z } from 'zod';
import { ADVISORY_IDS, RESTRICTION_IDS } from '../../schemas/rights';
import { compilePhrase, PhraseError } from './phraseMatcher';
import { zoneFromRule } from '../release/zones';

/** Kinds of text a group of phrases may be read in (see RIGHTS_SOURCES in src/schemas/rights.ts). */
export const TEXT_KINDS = ['instructions', 'terms', 'credit', 'caption'] as const;

const phrase = z.string().superRefine((s, ctx) => {
  try {
    compilePhrase(s);
  } catch (err) {
    if (err instanceof PhraseError) ctx.addIssue({ code: 'custom', message: `phrase "${s}": ${err.message}` });
    else throw err;
  }
});

/**
 * Phrases that mean the same thing, with how they may be read. Defaults: every kind of text;
 * in captions only when written in capitals.
 */
export const phraseGroupSchema = z.strictObject({
  phrases: z.array(phrase).min(1, 'a group needs at least one phrase'),
  /** Kinds of text read (default: instructions, terms, credit, caption). */
  in: z.array(z.enum(TEXT_KINDS)).min(1).optional(),
  /** In captions, match in any case too (the phrase cannot be ordinary prose). */
  anyCase: z.boolean().optional(),
  /** Match only when written in capitals, in any text ("EUO", "HO"). */
  upper: z.boolean().optional(),
  /** Must start the text or follow a hard break (". ; : ,", a dash between spaces...). */
  start: z.boolean().optional(),
  /** Must end the text or be followed by a hard break or an agency id. */
  end: z.boolean().optional(),
});
export type PhraseGroup = z.infer<typeof phraseGroupSchema>;

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const language = z.string().superRefine((l, ctx) => {
  if (!countries.langs().includes(l)) {
    ctx.addIssue({
      code: 'custom',
      message: `"${l}" is not a language whose country names are known (e.g. "en", "de", "fr")`,
    });
  }
});
const groups = z.array(phraseGroupSchema);
const zoneValue = z.string().superRefine((s, ctx) => {
  if (!zoneFromRule(s))
    ctx.addIssue({
      code: 'custom',
      message: `"${s}" is neither an offset such as "+01:00" nor an IANA time zone such as "Europe/London"`,
    });
});

export const mediumSchema = z.strictObject({
  /** Display name ("magazines"). */
  name: nonEmpty,
  aliases: z.array(nonEmpty),
  /** The restriction a medium out implies ("MAGS OUT" → no-magazines), or null. */
  restriction: z.enum(RESTRICTION_IDS).nullable(),
});

const noticeKind = z.strictObject({
  /** At the start of a text (after prefixes and ids): "MANDATORY KILL", "CORRECTION:". */
  headings: groups,
  /** Anywhere in a notes text: "THIS PHOTO HAS BEEN KILLED", "FROM ALL YOUR SYSTEMS". */
  phrases: groups,
});

export const rightsRulesSchema = z.strictObject({
  version: z.string().regex(/^\S+$/, 'version must be a non-empty word such as "2026.12.1"'),
  /** Restriction id → groups of phrases meaning it. Ids are a closed vocabulary. */
  restrictions: z.partialRecord(z.enum(RESTRICTION_IDS), groups),
  advisories: z.partialRecord(z.enum(ADVISORY_IDS), groups),
  /** Phrases that look like restrictions and are not ("NO RESTRICTIONS", "CLICK FOR RESTRICTIONS"): they win over shorter matches. */
  ignore: groups,
  markets: z.strictObject({
    /** Phrases naming where a photo may not be used: each needs a {places} or {media} slot. */
    out: groups,
    /** Phrases naming the only places a photo may be used in: each needs a {places} slot. */
    only: groups,
    media: z.record(
      z.string().regex(/^[a-z][a-z-]*$/, 'medium ids are lower case words (e.g. "magazines")'),
      mediumSchema,
    ),
    /** Regions that are not countries: display name → aliases. */
    regions: z.record(nonEmpty, z.array(nonEmpty)),
    /** Known places that are neither countries nor regions (provinces, cities, home nations). */
    places: z.record(nonEmpty, z.array(nonEmpty)),
    /** More names of countries, keyed by ISO 3166-1 alpha-2 ("GB": ["BRITAIN"]). */
    countryAliases: z.record(
      z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 codes such as "GB"'),
      z.array(nonEmpty),
    ),
    /** Languages whose country names are known (i18n-iso-countries locale codes). */
    countryNameLanguages: z.array(language),
    /** Words that never name a market before "OUT" ("SOLD OUT", "WAY OUT"). */
    notAPlace: z.array(nonEmpty),
  }),
  /** Words that signal a restriction: an instructions or terms text holding one no rule explained is `unread`. */
  cueWords: z.array(nonEmpty),
  release: z.strictObject({
    /** Followed by a date and time ("EMBARGOED UNTIL", "HOLD FOR RELEASE UNTIL", "SPERRFRIST"). */
    embargo: groups,
    /** Held until further notice when no time follows ("HOLD FOR RELEASE", "EMBARGOED"). */
    hold: groups,
    /** Followed by the last date or time of use ("NO USE AFTER"). */
    expiry: groups,
    /** A usable period from transmission: each needs a {duration} slot ("MAY BE USED ONLY FOR {duration}"). */
    usageWindow: groups,
    /** Time zone names and abbreviations → offset ("+01:00") or IANA zone ("America/New_York"). */
    zones: z.record(nonEmpty, zoneValue),
    /** Agency id (as the credit rules name it) → the zone its times are written in when they say none. */
    agencyZones: z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), zoneValue),
  }),
  notices: z.strictObject({
    kill: noticeKind,
    withdraw: noticeKind,
    correction: noticeKind,
    /** Words skipped before a heading ("ADVISORY", "URGENT", "EDS NOTE", agency names). */
    prefixes: z.array(nonEmpty),
    /** Phrases after which an agency id is quoted ("TRANSMISSION REFERENCE", "PHOTO", "GUID"). */
    idContexts: groups,
  }),
});
export type RightsRules = z.infer<typeof rightsRulesSchema>;

const partialNotice = z.strictObject({ headings: groups.optional(), phrases: groups.optional() });

/**
 * What an operator file may hold: any part of the rules, `version` required. Groups and lists
 * are added to the shipped ones; maps (media, places, zones) are merged key by key, the
 * operator winning; a medium may add aliases only.
 */
export const operatorRightsRulesSchema = z.strictObject({
  version: z.string().regex(/^\S+$/, 'version must be a non-empty word such as "desk-3"'),
  restrictions: z.partialRecord(z.enum(RESTRICTION_IDS), groups).optional(),
  advisories: z.partialRecord(z.enum(ADVISORY_IDS), groups).optional(),
  ignore: groups.optional(),
  markets: z
    .strictObject({
      out: groups.optional(),
      only: groups.optional(),
      media: z
        .record(
          z.string().regex(/^[a-z][a-z-]*$/),
          z.strictObject({
            name: nonEmpty.optional(),
            aliases: z.array(nonEmpty).optional(),
            restriction: z.enum(RESTRICTION_IDS).nullable().optional(),
          }),
        )
        .optional(),
      regions: z.record(nonEmpty, z.array(nonEmpty)).optional(),
      places: z.record(nonEmpty, z.array(nonEmpty)).optional(),
      countryAliases: z.record(z.string().regex(/^[A-Z]{2}$/), z.array(nonEmpty)).optional(),
      countryNameLanguages: z.array(language).optional(),
      notAPlace: z.array(nonEmpty).optional(),
    })
    .optional(),
  cueWords: z.array(nonEmpty).optional(),
  release: z
    .strictObject({
      embargo: groups.optional(),
      hold: groups.optional(),
      expiry: groups.optional(),
      usageWindow: groups.optional(),
      zones: z.record(nonEmpty, zoneValue).optional(),
      agencyZones: z.record(z.string().regex(/^[A-Z][A-Z0-9_]*$/), zoneValue).optional(),
    })
    .optional(),
  notices: z
    .strictObject({
      kill: partialNotice.optional(),
      withdraw: partialNotice.optional(),
      correction: partialNotice.optional(),
      prefixes: z.array(nonEmpty).optional(),
      idContexts: groups.optional(),
    })
    .optional(),
});
export type OperatorRightsRules = z.infer<typeof operatorRightsRulesSchema>;
