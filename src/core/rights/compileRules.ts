import countries from 'i18n-iso-countries';
import { RIGHTS_SOURCES, type AdvisoryId, type RestrictionId, type RightsSourceKind } from '../../schemas/rights';
import { zoneFromRule, type Zone } from '../release/zones';
import { NameTrie, PhraseSet, type GroupOptions, type Lexicon } from './phraseMatcher';
import { TEXT_KINDS, type PhraseGroup, type RightsRules } from './rulesSchema';

/** A country, region, known place or medium a market phrase can name. */
export interface MarketRef {
  name: string;
  kind: 'country' | 'region' | 'place' | 'medium';
  /** ISO 3166-1 alpha-2 of a country, the id of a medium, else null. */
  code: string | null;
  /** The restriction a medium implies when it is out. */
  restriction: RestrictionId | null;
}

export type RightsValue =
  | { type: 'restriction'; id: RestrictionId }
  | { type: 'advisory'; id: AdvisoryId }
  | { type: 'ignore' }
  | { type: 'out' }
  | { type: 'only' };

export type ReleaseValue = { type: 'embargo' } | { type: 'hold' } | { type: 'expiry' } | { type: 'usageWindow' };
export type NoticeKind = 'kill' | 'withdraw' | 'correction';
export type NoticeValue = { type: 'heading' | 'phrase'; kind: NoticeKind } | { type: 'idContext' };

/** Lookup structures built once per rules object; reading thousands of items reuses them. */
export interface CompiledRightsRules {
  rules: RightsRules;
  lexicon: Lexicon & { places: NameTrie<MarketRef>; media: NameTrie<MarketRef> };
  rights: PhraseSet<RightsValue>;
  release: PhraseSet<ReleaseValue>;
  notices: PhraseSet<NoticeValue>;
  /** Words that may open a rights phrase ("NO", "MANDATORY"): an "OUT:" list stops there. */
  restrictionStarts: ReadonlySet<string>;
  cueWords: ReadonlySet<string>;
  notAPlace: ReadonlySet<string>;
  prefixes: NameTrie<true>;
  /** ISO 3166-1 alpha-3 → country, for Reuters-style codes ("SYROUT"). */
  alpha3: ReadonlyMap<string, MarketRef>;
  /** Single-word media aliases, for codes such as "MAGSOUT". */
  mediaWords: ReadonlyMap<string, MarketRef>;
  zones: NameTrie<Zone>;
  agencyZones: ReadonlyMap<string, Zone>;
}

const cache = new WeakMap<RightsRules, CompiledRightsRules>();
const ALL_KINDS: RightsSourceKind[] = [...TEXT_KINDS];

function options(g: PhraseGroup): GroupOptions {
  return {
    in: new Set(g.in ?? ALL_KINDS),
    anyCase: g.anyCase ?? false,
    upper: g.upper ?? false,
    start: g.start ?? false,
    end: g.end ?? false,
  };
}

function addGroups<T>(set: PhraseSet<T>, groups: readonly PhraseGroup[] | undefined, value: T): void {
  for (const g of groups ?? []) {
    const opts = options(g);
    for (const p of g.phrases) set.add(p, value, opts);
  }
}

let displayNames: Intl.DisplayNames | null | undefined;
function countryDisplayName(code: string): string {
  if (displayNames === undefined) {
    try {
      displayNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    } catch {
      displayNames = null;
    }
  }
  const intl = displayNames?.of(code);
  return intl && !intl.includes(' - ') ? intl : (countries.getName(code, 'en') ?? code);
}

export function compileRightsRules(rules: RightsRules): CompiledRightsRules {
  const hit = cache.get(rules);
  if (hit) return hit;

  const places = new NameTrie<MarketRef>();
  const media = new NameTrie<MarketRef>();
  const alpha3 = new Map<string, MarketRef>();
  const mediaWords = new Map<string, MarketRef>();
  const m = rules.markets;

  // Rules' own names first: they win over the library's when both spell a name the same way.
  for (const [name, aliases] of Object.entries(m.places)) {
    const ref: MarketRef = { name, kind: 'place', code: null, restriction: null };
    for (const a of [name, ...aliases]) places.add(a, ref);
  }
  for (const [name, aliases] of Object.entries(m.regions)) {
    const ref: MarketRef = { name, kind: 'region', code: null, restriction: null };
    for (const a of [name, ...aliases]) places.add(a, ref);
  }
  const countryRefs = new Map<string, MarketRef>();
  const countryRef = (code: string): MarketRef => {
    let ref = countryRefs.get(code);
    if (!ref)
      countryRefs.set(code, (ref = { name: countryDisplayName(code), kind: 'country', code, restriction: null }));
    return ref;
  };
  for (const [code, aliases] of Object.entries(m.countryAliases))
    for (const a of aliases) places.add(a, countryRef(code));
  for (const lang of m.countryNameLanguages) {
    const names = countries.getNames(lang, { select: 'all' });
    for (const [code, list] of Object.entries(names)) for (const n of list) places.add(n, countryRef(code));
  }
  for (const [a2, a3] of Object.entries(countries.getAlpha2Codes())) alpha3.set(a3, countryRef(a2));

  for (const [id, medium] of Object.entries(m.media)) {
    const ref: MarketRef = { name: medium.name, kind: 'medium', code: id, restriction: medium.restriction };
    for (const a of medium.aliases) {
      media.add(a, ref);
      if (!/\s/.test(a.trim())) mediaWords.set(a.toUpperCase(), ref);
    }
  }
  const lexicon = { places, media };

  const rights = new PhraseSet<RightsValue>(lexicon);
  for (const [id, groups] of Object.entries(rules.restrictions))
    addGroups(rights, groups, { type: 'restriction', id: id as RestrictionId });
  for (const [id, groups] of Object.entries(rules.advisories))
    addGroups(rights, groups, { type: 'advisory', id: id as AdvisoryId });
  addGroups(rights, rules.ignore, { type: 'ignore' });
  addGroups(rights, m.out, { type: 'out' });
  addGroups(rights, m.only, { type: 'only' });

  const release = new PhraseSet<ReleaseValue>(lexicon);
  addGroups(release, rules.release.embargo, { type: 'embargo' });
  addGroups(release, rules.release.hold, { type: 'hold' });
  addGroups(release, rules.release.expiry, { type: 'expiry' });
  addGroups(release, rules.release.usageWindow, { type: 'usageWindow' });

  const notices = new PhraseSet<NoticeValue>(lexicon);
  for (const kind of ['kill', 'withdraw', 'correction'] as const) {
    addGroups(notices, rules.notices[kind].headings, { type: 'heading', kind });
    addGroups(notices, rules.notices[kind].phrases, { type: 'phrase', kind });
  }
  addGroups(notices, rules.notices.idContexts, { type: 'idContext' });

  const prefixes = new NameTrie<true>();
  for (const p of rules.notices.prefixes) prefixes.add(p, true);

  const zones = new NameTrie<Zone>();
  for (const [name, value] of Object.entries(rules.release.zones)) {
    const z = zoneFromRule(value);
    if (z) zones.add(name, { ...z, name: zoneLabel(name, z) });
  }
  const agencyZones = new Map<string, Zone>();
  for (const [agency, value] of Object.entries(rules.release.agencyZones)) {
    const z = zoneFromRule(value);
    if (z) agencyZones.set(agency, z);
  }

  const upperSet = (xs: readonly string[]) => new Set(xs.map((x) => x.toUpperCase().trim()));
  const compiled: CompiledRightsRules = {
    rules,
    lexicon,
    rights,
    release,
    notices,
    restrictionStarts: rights.firstWords,
    cueWords: upperSet(rules.cueWords),
    notAPlace: upperSet(m.notAPlace),
    prefixes,
    alpha3,
    mediaWords,
    zones,
    agencyZones,
  };
  cache.set(rules, compiled);
  return compiled;
}

/** "GMT (+00:00)" for a fixed zone named in the rules, the IANA name otherwise. */
function zoneLabel(name: string, z: Zone): string {
  return z.iana ?? `${name.toUpperCase()} (${z.name})`;
}

/** The kind of text a source is read as. */
export function sourceKind(source: keyof typeof RIGHTS_SOURCES): RightsSourceKind {
  return RIGHTS_SOURCES[source];
}
