import type { Credit } from '../../schemas/credit';
import { normalizeText } from '../captions/normalizeText';
import { compileRules, lookupOrg, type OrgRef } from './compileRules';
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

/** Words of a name, without accents, particles ("van", "de") and initials. */
const nameWords = (n: string, particles: ReadonlySet<string>) =>
  n
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\d]+/u)
    .filter((w) => w.length >= 2 && !particles.has(w));

/** Whether two lists of creators name one person in common (a shared word: "L. Neal" and "LEON NEAL"). */
function samePeople(a: string[], b: string[], particles: ReadonlySet<string>): boolean {
  const words = new Set(a.flatMap((n) => nameWords(n, particles)));
  return b.some((n) => nameWords(n, particles).some((w) => words.has(w)));
}

function parseField(
  text: string | null,
  rules: ReturnType<typeof compileRules>,
  orgField = false,
): ParsedCredit | null {
  if (text === null) return null;
  const t = normalizeText(text);
  return t ? parseCreditText(t, rules, { orgField }) : null;
}

/** "POOL Getty Images", "Pool/WPA": the organisation a pool picture's Source names as its supplier. */
function poolSupplier(source: string | null, c: ReturnType<typeof compileRules>): OrgRef | null {
  if (source === null) return null;
  const m = /^\s*pool\s{0,3}[/:-]?\s{0,3}(\S.{0,80})$/i.exec(normalizeText(source));
  const org = m ? lookupOrg(c, m[1]) : null;
  return org?.id ? org : null;
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
  const creditLine = parseField(input.creditLine, c, true);
  let source: ParsedCredit | null = null;
  if (input.source !== null) {
    const s = normalizeText(input.source);
    if (s && !SOURCE_CODE.test(s)) source = parseCreditText(s, c, { orgField: true });
  }
  const copyrightText =
    input.copyright === null ? null : normalizeText(input.copyright).replace(/^(?:©|\(c\)|copyright)?\s*\d{4}\s+/i, '');
  const copyright = parseField(copyrightText, c, true);

  const byline: string[] = [];
  const bylineGuesses: string[] = [];
  for (const b of input.byline) {
    for (const n of bylineCreators(b, c, flags, bylineGuesses))
      if (!byline.some((x) => x.toLowerCase() === n.toLowerCase())) byline.push(n);
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
    for (const p of creditLine.partners)
      if (!sameOrg(p, distributor) && !partners.some((x) => sameOrg(x, p))) partners.push(p);
  }

  // "(Name/Pool via AP)" with Source "POOL Getty Images": the pool picture is the supplier's (Getty
  // Images), AP distributes it. Only when the credit itself names no other agency than the via one.
  let poolVia = false;
  const supplier = flags.pool ? poolSupplier(input.source, c) : null;
  if (supplier && agency && !distributor && !sameOrg(supplier, agency) && primary?.viaOnly) {
    distributor = agency;
    agency = supplier;
    poolVia = true;
  }

  let creators: string[] = primary?.creators ?? [];
  let guessed = (primary?.guesses.length ?? 0) > 0;
  if (creators.length === 0) {
    creators = byline;
    guessed = bylineGuesses.length > 0;
  }
  if (creators.length === 0 && !primary && iptc) creators = iptc.creators;

  // A pure stock credit ("© John Doe | Dreamstime.com", "Jane Roe/iStockphoto"): the site is who
  // distributes the contributor's picture, not an agency. Shutterstock and Alamy are not listed as
  // stock sites: named alone ("Tim Ireland/REX Shutterstock") they are the agency.
  if (agency?.id && c.stockSites.has(agency.id) && !distributor) {
    distributor = agency;
    agency = null;
  }
  const credited = agency ?? distributor;

  let confidence: Credit['confidence'];
  if (input.captionTail !== null && normalizeText(input.captionTail) !== '') {
    confidence = tail?.recognised && tail.unknown.length === 0 && credited ? 'high' : 'low';
  } else {
    confidence =
      agency?.id && iptc && iptc.unknown.length === 0 && (creators.length > 0 || flags.handout) ? 'high' : 'low';
  }
  // IPTC naming a different agency than the caption is worth a person's look.
  const iptcAgency = iptc?.agency ?? null;
  if (
    primary &&
    iptcAgency?.id &&
    agency &&
    !sameOrg(iptcAgency, agency) &&
    !sameOrg(iptcAgency, distributor) &&
    !partners.some((p) => sameOrg(p, iptcAgency))
  ) {
    confidence = 'low';
  }
  // An organisation the rules do not list (a government body, a newspaper, a new agency, a bare
  // word after a name) is read as one, but a person should confirm it: never `high`.
  if (confidence === 'high' && credited && credited.id === null && !credited.partner) confidence = 'medium';
  // The caption names one photographer, the IPTC By-line another: both are kept in `raw`.
  if (primary && primary.creators.length > 0 && byline.length > 0 && !samePeople(primary.creators, byline, c.particles))
    confidence = 'low';
  // A one-word credit, a handle: who it names is a guess.
  if (guessed && creators.length > 0) confidence = 'low';

  const uniquePartners = partners.filter((p, i) => partners.findIndex((q) => sameOrg(p, q)) === i);
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
    // One name for one organisation: the rules' display name ("Getty Images", never "GETTY"), the id beside it.
    agency: agency ? orgName(rules, agency) : null,
    distributor: distributor ? orgName(rules, distributor) : null,
    agencyId: agency?.id ?? null,
    distributorId: distributor?.id ?? null,
    partners: uniquePartners.map((p) => orgName(rules, p)),
    flags,
    line:
      poolVia && rules.houseStyle.poolVia && distributor
        ? poolViaLine(rules.houseStyle.poolVia, rules, creators, distributor)
        : houseLine(rules, creators, agency, distributor, client, {
            pool: flags.pool,
            handout: flags.handout,
            partners: uniquePartners,
          }),
    confidence,
    rule,
    rulesVersion: rules.version,
  };
}

/** The line of a pool picture whose supplier only the Source names: the credit's own "Name/Pool via AP". */
function poolViaLine(template: string, rules: CreditRules, creators: string[], distributor: OrgRef): string {
  const names =
    creators.length <= 1
      ? creators.join('')
      : creators.slice(0, -1).join(rules.houseStyle.creatorJoin) +
        rules.houseStyle.creatorLastJoin +
        creators[creators.length - 1];
  return template
    .replace('{creators}', names)
    .replace('{distributor}', distributorName(rules, distributor))
    .replace(/^\/+/, '')
    .trim();
}
