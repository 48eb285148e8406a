import type { CreditRules } from './rulesSchema';

/** An organisation named in a credit: a rules agency (id set) or a name as written. */
export interface OrgRef {
  id: string | null;
  name: string;
  /** One of the rules' `partners` (CNN, Kremlin, NASA): known, though not an agency. */
  partner?: true;
}

/** Lookup tables built once per rules object; normalizing thousands of credits reuses them. */
export interface CompiledRules {
  rules: CreditRules;
  orgs: Map<string, OrgRef>;
  orgWords: Set<string>;
  placeholders: Set<string>;
  fileWords: Set<string>;
  poolWords: Set<string>;
  handoutWords: Set<string>;
  restrictionPhrases: RegExp | null;
  placeOut: RegExp;
  particles: Set<string>;
  exceptions: Map<string, string>;
  distributorIds: Set<string>;
  /** An agency alias followed by "/" (optionally "PHOTO /"): where an agency-first credit starts. */
  agencyFirst: RegExp;
  /** "Bild: ", "Fotó : ": a credit label in another language, at the start. */
  labelPrefix: RegExp | null;
  /** A rank or rate at the start of a name ("Photographer's Mate 3rd Class "), bounded, anchored. */
  rankPrefix: RegExp | null;
  /** "(AW)", "(AW/SW)", "(RELEASE)": brackets to drop. */
  ignoredBrackets: RegExp | null;
  governmentWords: Set<string>;
  stockSites: Set<string>;
  /** "Getty Images/iStockphoto" (orgKey) -> agency and distributor, read as one piece before a chain is split. */
  chainAliases: Map<string, { agency: OrgRef; distributor: OrgRef | null }>;
  /** "DIGITAL IMAGE. " at the start of a credit: never part of it. */
  ignoredPrefix: RegExp | null;
  /** "Image created by X using Midjourney": X and the tool (bounded, anchored). */
  generative: RegExp | null;
  studioWords: Set<string>;
  givenNames: Set<string>;
  /** Camera defaults, upper case, spaces single. */
  notCredits: Set<string>;
}

const cache = new WeakMap<CreditRules, CompiledRules>();

/** The key an organisation is looked up by: case, a leading "The", spacing and a final dot ignored. */
export function orgKey(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ').trim().replace(/^the /, '').replace(/\.$/, '').trim();
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function compileRules(rules: CreditRules): CompiledRules {
  const hit = cache.get(rules);
  if (hit) return hit;

  const orgs = new Map<string, OrgRef>();
  // Partners first so an agency alias spelled the same wins.
  const add = (alias: string, ref: OrgRef) => {
    orgs.set(orgKey(alias), ref);
    // "GettyImages", "REXShutterstock": the same name with its spaces lost in transmission.
    const squeezed = orgKey(alias).replace(/ /g, '');
    if (!orgs.has(squeezed) || orgs.get(squeezed)!.id === null) orgs.set(squeezed, ref);
  };
  for (const [name, aliases] of Object.entries(rules.partners)) {
    for (const a of [name, ...aliases]) add(a, { id: null, name, partner: true });
  }
  for (const [id, a] of Object.entries(rules.agencies)) {
    for (const alias of [id, a.name, ...a.aliases]) add(alias, { id, name: a.name });
  }
  const upperSet = (xs: readonly string[]) => new Set(xs.map((x) => x.toUpperCase().replace(/\s+/g, ' ').trim()));

  const phrases = [...rules.restrictions.phrases]
    .sort((a, b) => b.length - a.length)
    .map((p) => escapeRe(p).replace(/\s+/g, '\\s+'));
  const places = [...rules.restrictions.multiWordPlaces]
    .sort((a, b) => b.length - a.length)
    .map((p) => escapeRe(p).replace(/\s+/g, '\\s+'));
  // Agency-first credits: "REUTERS/", "AFP PHOTO /", "EPA-EFE/", "THE CANADIAN PRESS/". Short
  // aliases only match in capitals or as written, so "ap/" inside a word never starts a credit.
  const starters = new Set<string>();
  for (const a of Object.values(rules.agencies)) for (const alias of [a.name, ...a.aliases]) starters.add(alias);
  const starterAlt = [...starters]
    .sort((a, b) => b.length - a.length)
    .map((s) => escapeRe(s).replace(/\s+/g, '\\s+'))
    .join('|');

  const alt = (xs: readonly string[] | undefined) =>
    [...(xs ?? [])]
      .sort((a, b) => b.length - a.length)
      .map((p) => escapeRe(p).replace(/\s+/g, '\\s{1,3}'))
      .join('|');
  const labels = alt(rules.labelWords);
  const prefixes = alt(rules.ignoredPrefixes);
  const tools = alt(rules.generativeTools);
  const chainAliases = new Map<string, { agency: OrgRef; distributor: OrgRef | null }>();
  const ref = (id: string): OrgRef => ({ id, name: rules.agencies[id]?.name ?? id });
  for (const [text, a] of Object.entries(rules.chainAliases ?? {})) {
    chainAliases.set(orgKey(text), { agency: ref(a.agency), distributor: a.distributor ? ref(a.distributor) : null });
  }
  const ranks = alt(rules.ranks);
  const brackets = alt(rules.ignoredBrackets);

  const compiled: CompiledRules = {
    rules,
    orgs,
    orgWords: new Set(rules.organisationWords.map((w) => w.toLowerCase())),
    placeholders: upperSet(rules.placeholders),
    fileWords: upperSet(rules.flagWords.file),
    poolWords: upperSet(rules.flagWords.pool),
    handoutWords: upperSet(rules.flagWords.handout),
    restrictionPhrases: phrases.length
      ? new RegExp(`(?<![\\p{L}\\d])(?:${phrases.join('|')})(?![\\p{L}\\d])`, 'giu')
      : null,
    // A place is at most 40 characters: unbounded, "A-A-A-..." made every letter after a hyphen
    // start a scan to the end of the text (test/unit/core/credits/linearity.test.ts).
    placeOut: new RegExp(
      `(?<![\\p{L}\\d])(${places.length ? `${places.join('|')}|` : ''}[A-Z][A-Z'.-]{1,40})\\s+OUT(?![\\p{L}\\d])`,
      'gu',
    ),
    particles: new Set(rules.nameCasing.particles.map((p) => p.toLowerCase())),
    distributorIds: new Set(Object.keys(rules.distributors)),
    exceptions: new Map(Object.entries(rules.nameCasing.exceptions).map(([k, v]) => [k.toUpperCase(), v])),
    labelPrefix: labels ? new RegExp(`^(?:${labels})\\s{0,3}:\\s{0,3}`, 'iu') : null,
    // Up to three ranks in a row ("Chief Mass Communication Specialist", "Lt. Col."), each with an
    // optional class ("3rd Class"): bounded, so a long text costs nothing more.
    rankPrefix: ranks
      ? new RegExp(`^(?:(?:${ranks})(?:\\s{1,3}(?:1st|2nd|3rd|first|second|third)\\s{1,3}class)?\\s{1,3}){1,3}`, 'iu')
      : null,
    ignoredBrackets: brackets
      ? new RegExp(`\\(\\s{0,3}(?:${brackets})(?:\\s{0,3}[/,]\\s{0,3}(?:${brackets})){0,4}\\s{0,3}\\)`, 'giu')
      : null,
    governmentWords: new Set((rules.governmentWords ?? []).map((w) => w.toLowerCase())),
    stockSites: new Set(rules.stockSites ?? []),
    chainAliases,
    ignoredPrefix: prefixes ? new RegExp(`^(?:${prefixes})\\.?\\s{0,3}`, 'iu') : null,
    // The name is at most 80 characters and the verb list fixed: tried once, at the start of a part.
    generative: tools
      ? new RegExp(
          `^(?:(?:photo|image|picture|illustration|artwork|graphic)s?\\s{1,3})?(?:created|generated|made|produced)\\s{1,3}(?:by|with)\\s{1,3}(\\S.{0,80}?)\\s{1,3}(?:using|with|via|in|on)\\s{1,3}(?:${tools})(?![\\p{L}\\d])`,
          'iu',
        )
      : null,
    studioWords: new Set((rules.studioWords ?? []).map((w) => w.toLowerCase())),
    givenNames: new Set((rules.givenNames ?? []).map((w) => w.toLowerCase())),
    notCredits: upperSet(rules.notCredits ?? []),
    agencyFirst: new RegExp(
      `(?<![\\p{L}\\d/])(?:THE\\s+)?(?:${starterAlt})(?:-[\\p{L}]{1,30})?(?:\\s*\\/|\\s+(?:PHOTO|FOTO|IMAGES|PICTURES)\\s*\\/|\\s+(?:PHOTO|FOTO)\\s+(?=\\p{Lu}))`,
      'giu',
    ),
  };
  cache.set(rules, compiled);
  return compiled;
}

/** The organisation a text names, when the rules know it ("AFP PHOTO" and "GettyImages" included). */
export function lookupOrg(c: CompiledRules, text: string): OrgRef | null {
  const key = orgKey(text);
  const bare = key.replace(/\s+(?:photos?|pictures?|images?|foto|pics?)$/, '');
  for (const k of [key, bare]) {
    const hit = c.orgs.get(k) ?? c.orgs.get(k.replace(/ /g, ''));
    if (hit) return hit;
  }
  return null;
}
