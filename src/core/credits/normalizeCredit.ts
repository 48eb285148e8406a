import type { Credit } from '../../schemas/credit';
import { normalizeText } from '../captions/normalizeText';
import { compileRules, type OrgRef } from './compileRules';
import { distributorName, houseLine, orgName } from './houseLine';
import { bylineCreators, emptyFlags, mergeFlags, parseCreditText, sameOrg, type ParsedCredit } from './parseCreditText';
import type { CreditRules } from './rulesSchema';

/** What is known of an item's credit: the caption's credit tail and the IPTC fields, as received. */
export interface CreditInput {
  captionTail: string | null;
  byline: string[];
  creditLine: string | null;
  source: string | null;
  copyright: string | null;
}

/** Reuters and others put a photographer or desk code in Source ("X90045"): not an organisation. */
const SOURCE_CODE = /^[A-Z]{0,3}\d{3,}[A-Z]?$/i;

function parseField(text: string | null, rules: ReturnType<typeof compileRules>): ParsedCredit | null {
  if (text === null) return null;
  const t = normalizeText(text);
  return t ? parseCreditText(t, rules) : null;
}

/**
 * One structured credit from everything known of an item. The caption's credit tail is read
 * first and wins ("Photo credit should read X" within it wins over what precedes it); IPTC Credit,
 * Source and Copyright only fill an agency the tail does not give, By-line only creators. A tail
 * that cannot be read, or IPTC fields that contradict it, give `confidence: "low"`. `raw` is the
 * input exactly as received, and no name is ever made up from unreadable text.
 */
export function normalizeCredit(input: CreditInput, rules: CreditRules): Credit {
  const c = compileRules(rules);
  const flags = emptyFlags();

  const tail = parseField(input.captionTail, c);
  const creditLine = parseField(input.creditLine, c);
  let source: ParsedCredit | null = null;
  if (input.source !== null) {
    const s = normalizeText(input.source);
    if (s && !SOURCE_CODE.test(s)) source = parseCreditText(s, c);
  }
  const copyrightText = input.copyright === null ? null : normalizeText(input.copyright).replace(/^(?:©|\(c\)|copyright)?\s*\d{4}\s+/i, '');
  const copyright = parseField(copyrightText, c);

  const byline: string[] = [];
  for (const b of input.byline) {
    for (const n of bylineCreators(b, c, flags)) if (!byline.some((x) => x.toLowerCase() === n.toLowerCase())) byline.push(n);
  }

  const primary = tail?.recognised ? tail : null;
  const iptc = [creditLine, source].find((p) => p?.recognised && p.agency) ?? null;
  for (const p of [tail, creditLine, source]) if (p) mergeFlags(flags, p.flags);

  let agency: OrgRef | null = primary?.agency ?? null;
  let distributor: OrgRef | null = primary?.distributor ?? null;
  let client: OrgRef | null = primary?.client ?? null;
  const partners: OrgRef[] = [...(primary?.partners ?? [])];
  if (!agency) {
    const fallback = iptc ?? (copyright?.recognised && copyright.agency?.id ? copyright : null);
    if (fallback) {
      agency = fallback.agency;
      distributor = fallback.distributor;
      client ??= fallback.client;
      partners.push(...fallback.partners);
    }
  } else if (!distributor && creditLine?.recognised && sameOrg(creditLine.agency, agency)) {
    // Caption "AFP PHOTO / X", Credit "AFP/Getty Images": the Credit field says who licenses it.
    distributor = creditLine.distributor;
  }
  if (creditLine?.recognised && sameOrg(creditLine.agency, agency)) {
    for (const p of creditLine.partners) if (!sameOrg(p, distributor) && !partners.some((x) => sameOrg(x, p))) partners.push(p);
  }

  let creators: string[] = primary?.creators ?? [];
  if (creators.length === 0) creators = byline;
  if (creators.length === 0 && !primary && iptc) creators = iptc.creators;

  let confidence: 'high' | 'low';
  if (input.captionTail !== null && normalizeText(input.captionTail) !== '') {
    confidence = tail?.recognised && tail.unknown.length === 0 && agency ? 'high' : 'low';
  } else {
    confidence = agency?.id && iptc && iptc.unknown.length === 0 && (creators.length > 0 || flags.handout) ? 'high' : 'low';
  }
  // IPTC naming a different agency than the caption is worth a person's look.
  const iptcAgency = iptc?.agency ?? null;
  if (primary && iptcAgency?.id && agency && !sameOrg(iptcAgency, agency) && !sameOrg(iptcAgency, distributor) && !partners.some((p) => sameOrg(p, iptcAgency))) {
    confidence = 'low';
  }

  let rule: string | null = null;
  if (primary) rule = primary.rule;
  else if (iptc === creditLine && iptc) rule = 'iptc-credit';
  else if (iptc) rule = 'iptc-source';
  else if (agency) rule = 'iptc-copyright';
  else if (creators.length) rule = 'iptc-byline';

  return {
    raw: {
      captionTail: input.captionTail,
      byline: [...input.byline],
      creditLine: input.creditLine,
      source: input.source,
      copyright: input.copyright,
    },
    creators,
    agency: agency ? (agency.id ?? agency.name) : null,
    // A stock site (Dreamstime, iStock, Alamy...) is who distributes the contributor's picture.
    distributor: distributor
      ? distributorName(rules, distributor)
      : agency?.id && c.stockSites.has(agency.id)
        ? distributorName(rules, agency)
        : null,
    partners: partners.filter((p, i) => partners.findIndex((q) => sameOrg(p, q)) === i).map((p) => orgName(rules, p)),
    flags,
    line: houseLine(rules, creators, agency, distributor, client),
    confidence,
    rule,
    rulesVersion: rules.version,
  };
}
