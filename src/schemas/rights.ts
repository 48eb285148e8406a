import { z } from 'zod';

/**
 * What a desk may do with a photo, read from every rights-bearing text an item carries.
 * The vocabularies are closed: a rules file may teach new spellings of these ids, never new ids,
 * so a CMS can map each one once. Each id is documented in docs/RIGHTS.md.
 */
export const RESTRICTION_IDS = [
  'editorial-only', // editorial use only: news, comment, not commercial or creative use
  'no-commercial', // no commercial, marketing, advertising, merchandising or promotional use
  'no-sales', // no sales or resales of the picture ("NO SALES", "NOT FOR RESALE", Reuters SALESOUT)
  'no-third-party-sales', // not to be sold on, redistributed or sub-licensed by third parties
  'no-archive', // not to be kept after use ("NO ARCHIVES", Reuters NARCH)
  'one-time-use', // one publication only
  'time-limited', // usable for a limited time only (release.expires has the time when it can be read)
  'mandatory-credit', // the credit must be printed as given
  'no-magazines', // magazines out
  'no-newspapers', // newspapers out
  'no-books', // no use in books
  'no-tv', // no television or broadcast use
  'no-internet', // no online or web use
  'no-social-media', // no use on social networks
  'no-tabloids', // tabloids out
  'handout', // supplied by the subject (government, company, palace, military) not shot by the agency
  'pool', // a pool photo: shared by the press pool under its rules
  'third-party-supplied', // supplied by a third party and distributed as a service to clients
  'model-release-missing', // no model release (PLUS MR-NON, "NO MODEL RELEASE")
  'property-release-missing', // no property release (PLUS PR-NON)
  'no-alteration', // no editing, manipulation or cropping (beyond what the text allows)
  'news-context-only', // only to illustrate the news event the caption describes
  'no-betting-games', // sports: no use in betting, games or fantasy products
  'no-video-emulation', // sports: no video emulation, live-use limits, no use with unauthorised audio/video/data
  'restrictions-apply', // the text says restrictions apply without naming them ("Use subject to restrictions")
  'permission-required', // only with the rights holder's prior permission or by agreement
] as const;
export type RestrictionId = (typeof RESTRICTION_IDS)[number];
export const restrictionIdSchema = z.enum(RESTRICTION_IDS);

/** Notes a desk must see that do not restrict use by themselves. */
export const ADVISORY_IDS = [
  'file-photo', // an archive picture, not of today's event ("EDS NOTE: A FILE PHOTO")
  'photo-illustration', // digitally altered, composite, multiple exposure or generated
  'best-quality-available', // quality below the agency's standard, sent because it is all there is
  'unverified', // the agency could not verify it independently
  'distributed-as-received', // distributed exactly as received from the supplier
  'graphic-content', // graphic or distressing content
  'processed', // processed by the agency (enhanced), an unprocessed version exists
  'social-media-source', // taken from social media
] as const;
export type AdvisoryId = (typeof ADVISORY_IDS)[number];
export const advisoryIdSchema = z.enum(ADVISORY_IDS);

/**
 * Where a text came from. The kind decides which rules read it: `instructions` (notes to
 * editors: every rule, any case), `terms` (licence and copyright texts: restriction rules),
 * `credit` (credit lines: the rules marked for credits), `caption` (the story text: only
 * upper-case notices and unambiguous phrases), `party` and `reference` (names and URLs: kept
 * in `raw`, never read for restrictions).
 */
export const RIGHTS_SOURCES = {
  'iptc:specialInstructions': 'instructions', // IIM 2:40 Special Instructions
  'xmp:photoshop:Instructions': 'instructions', // XMP of 2:40
  'xmp:xmpRights:UsageTerms': 'terms',
  'xmp:xmpRights:WebStatement': 'reference',
  'xmp:plus:ImageSupplier': 'party', // plus:ImageSupplier/plus:ImageSupplierName
  'xmp:plus:Licensor': 'party', // plus:Licensor/plus:LicensorName
  'xmp:plus:CopyrightOwner': 'party', // plus:CopyrightOwner/plus:CopyrightOwnerName
  'xmp:plus:ModelReleaseStatus': 'reference', // a PLUS code or URI: MR-NON (none), MR-NAP, MR-UMR, MR-LMR
  'xmp:plus:PropertyReleaseStatus': 'reference', // PR-NON (none), PR-NAP, PR-UPR, PR-LPR
  'xmp:plus:CreditLineRequired': 'reference', // CR-NRQ (not required), CR-COI/CR-CAI/CR-CCA (on, beside, in the credits)
  'xmp:plus:ImageAlterationConstraints': 'reference', // AL-CRP (no cropping), AL-FLP, AL-RET, AL-CLR, AL-DCL, AL-MRG, AL-RSZ ...
  'xmp:plus:OtherConstraints': 'terms', // free text: any other condition of use
  'xmp:Iptc4xmpExt:DigitalSourceType': 'reference', // IPTC digital source type URI (trainedAlgorithmicMedia ...)
  'iptc:copyright': 'terms', // IIM 2:116 Copyright Notice / dc:rights
  'iptc:credit': 'credit', // IIM 2:110 Credit / photoshop:Credit
  'iptc:source': 'credit', // IIM 2:115 Source / photoshop:Source
  'iptc:headline': 'caption', // IIM 2:105 / photoshop:Headline
  'iptc:objectName': 'caption', // IIM 2:05 Object Name (often the slug)
  caption: 'caption', // the caption as received
  'caption:notes': 'instructions', // what caption cleaning removed as notes (editor notes, restrictions, file markers)
  'caption:creditTail': 'credit', // the credit at the end of the caption
  'newsml:usageTerms': 'terms', // NewsML-G2 rightsInfo/usageTerms
  'newsml:copyrightNotice': 'terms', // NewsML-G2 rightsInfo/copyrightNotice
  'newsml:copyrightHolder': 'party', // NewsML-G2 rightsInfo/copyrightHolder (name or literal)
  'newsml:edNote': 'instructions', // NewsML-G2 itemMeta/edNote
  'newsml:headline': 'caption', // NewsML-G2 contentMeta/headline
  'nitf:doc.rights': 'terms', // NITF docdata/doc.rights (limitations, geography, dates as "name: value" text)
  'nitf:doc.copyright': 'party', // NITF docdata/doc.copyright (holder, year)
  'nitf:ed-msg': 'instructions', // NITF docdata/ed-msg @info
  'nitf:hedline': 'caption', // NITF body.head/hedline
  manual: 'instructions', // typed by an operator (photowire kill --reason, the desk)
} as const;
export type RightsSource = keyof typeof RIGHTS_SOURCES;
export type RightsSourceKind = (typeof RIGHTS_SOURCES)[RightsSource];
export const rightsSourceSchema = z.enum(Object.keys(RIGHTS_SOURCES) as [RightsSource, ...RightsSource[]]);

/** One input text exactly as received, with where it came from. */
export const sourcedTextSchema = z.object({ source: rightsSourceSchema, text: z.string() });
export type SourcedText = z.infer<typeof sourcedTextSchema>;

/** A place or medium a photo may not be used in ("OUT: CANADA", "MAGS OUT", "NO SALES IN SYRIA"). */
export const marketSchema = z.object({
  /** Display name: "Canada", "magazines", "Toronto Star". */
  name: z.string(),
  kind: z.enum(['country', 'region', 'medium', 'place']),
  /** ISO 3166-1 alpha-2 for a country, the medium id for a medium, else null. */
  code: z.string().nullable(),
  /** As written ("CANADA", "MAGS", "SYR"). */
  raw: z.string(),
});
export type Market = z.infer<typeof marketSchema>;

/** Which rule produced a restriction, advisory or market, and from which text. */
export const rightsMatchSchema = z.object({
  /**
   * The rules phrase that matched ("NO ARCHIVES|ARCHIVE|ARCHIVING|ARCHIVAL", "{places} OUT"), or a
   * built-in reading: "code:<ISO3|medium>OUT" (Reuters' "SYROUT"), "market:<words> OUT",
   * "market:OUT: <list>", "plus:MR-NON", "plus:PR-NON".
   */
  rule: z.string(),
  /** restriction, advisory, out (a market out) or only (a market the photo is limited to). */
  type: z.enum(['restriction', 'advisory', 'out', 'only']),
  /** The restriction or advisory id, or the market's name. */
  value: z.string(),
  source: rightsSourceSchema,
  /** The words that matched, as received. */
  text: z.string(),
});
export type RightsMatch = z.infer<typeof rightsMatchSchema>;

export const rightsSchema = z.object({
  /** Closed vocabulary, in the order of RESTRICTION_IDS. */
  restrictions: z.array(restrictionIdSchema),
  /** Places and media the photo may not be used in. */
  outMarkets: z.array(marketSchema),
  /** Places the photo may be used in only ("FOR USE ONLY IN GERMANY"); empty when not limited. */
  onlyMarkets: z.array(marketSchema),
  advisories: z.array(advisoryIdSchema),
  /** The usage terms as the supplier wrote them: usage-terms fields, else the instructions that held restrictions. */
  usageTerms: z.string().nullable(),
  /** Every input text as received, by source (nothing is dropped, empty texts included). */
  raw: z.array(sourcedTextSchema),
  matched: z.array(rightsMatchSchema),
  /** Parts of instruction and terms texts with restriction words no rule understood: a person should read them. */
  unread: z.array(z.string()),
  /** `low` when `unread` is not empty. */
  confidence: z.enum(['high', 'low']),
  rulesVersion: z.string(),
});
export type Rights = z.infer<typeof rightsSchema>;
