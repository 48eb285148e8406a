import {
  ADVISORY_IDS,
  RESTRICTION_IDS,
  RIGHTS_SOURCES,
  type AdvisoryId,
  type Market,
  type RestrictionId,
  type Rights,
  type RightsMatch,
  type RightsSource,
  type RightsSourceKind,
  type SourcedText,
} from '../../schemas/rights';
import { compileRightsRules, type CompiledRightsRules, type MarketRef, type RightsValue } from './compileRules';
import type { ItemRightsInput } from './input';
import { LIST_WORDS, selectHits, type ListItem } from './phraseMatcher';
import { defaultRightsRules, type RightsRules } from './rules';
import { spanText, tokenize, type Token } from './tokens';

/** A market as written: which reference and which words. */
interface MarketHit {
  ref: MarketRef;
  raw: string;
}

/** One reading of a span of a text, before the longest readings are kept. */
interface RightsHit {
  from: number;
  to: number;
  type: RightsValue['type'];
  id?: RestrictionId | AdvisoryId;
  markets: MarketHit[];
  rule: string;
}

const MAX_UNREAD = 5;
const MAX_UNREAD_CHARS = 200;
const USAGE_TERMS_SOURCES: ReadonlySet<RightsSource> = new Set([
  'xmp:xmpRights:UsageTerms',
  'newsml:usageTerms',
  'nitf:doc.rights',
]);

/** Title case for a market written in capitals that the rules do not know ("TORONTO STAR" → "Toronto Star"). */
function displayCase(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(^|[\s'-])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase());
}

function marketsOf(text: string, tokens: readonly Token[], items: readonly unknown[]): MarketHit[] {
  return (items as ListItem[]).map((it) => ({
    ref: it.value as MarketRef,
    raw: spanText(text, tokens, it.from, it.to),
  }));
}

/** "SYROUT", "MAGSOUT": a country's ISO 3166-1 alpha-3 code or a medium glued to OUT (Reuters' instructions). */
function codeHits(c: CompiledRightsRules, text: string, tokens: readonly Token[]): RightsHit[] {
  const out: RightsHit[] = [];
  tokens.forEach((t, k) => {
    if (!t.upper || t.norm.length < 5 || t.norm.length > 12 || !t.norm.endsWith('OUT')) return;
    const prefix = t.norm.slice(0, -3);
    const ref = (prefix.length === 3 ? c.alpha3.get(prefix) : undefined) ?? c.mediaWords.get(prefix);
    if (!ref) return;
    out.push({
      from: k,
      to: k + 1,
      type: 'out',
      markets: [{ ref, raw: text.slice(t.start, t.start + prefix.length) }],
      rule: `code:${prefix}OUT`,
    });
  });
  return out;
}

function knownEndsAt(c: CompiledRightsRules, tokens: readonly Token[], end: number): boolean {
  const max = Math.max(c.lexicon.places.maxWords, c.lexicon.media.maxWords);
  for (let len = 1; len <= max && end - len >= 0; len++) {
    const at = end - len;
    for (const trie of [c.lexicon.places, c.lexicon.media]) if (trie.longestAt(tokens, at)?.to === end) return true;
  }
  return false;
}

/** A word that can be part of a market the rules do not know: written in capitals, not a restriction word. */
function marketWord(c: CompiledRightsRules, t: Token): boolean {
  return (
    t.upper &&
    /^\p{L}/u.test(t.norm.slice(0, 2)) &&
    !c.notAPlace.has(t.norm) &&
    !c.cueWords.has(t.norm) &&
    !c.restrictionStarts.has(t.norm) &&
    !LIST_WORDS.has(t.norm)
  );
}

/**
 * "X OUT" where X is not a known place or medium ("TORONTO STAR OUT", "NORTHAMPTON OUT"), and
 * "OUT: CANADA, JAPAN; NO SALES" lists. Only in capitals, never in captions (a headline's "LIGHTS
 * OUT" is not a market).
 */
function outHits(c: CompiledRightsRules, text: string, tokens: readonly Token[], kind: RightsSourceKind): RightsHit[] {
  const hits: RightsHit[] = [];
  const n = tokens.length;
  for (let t = 0; t < n; t++) {
    if (tokens[t].norm !== 'OUT') continue;
    const next = tokens[t + 1];
    // "OUT: CANADA, JAPAN AND CHINA"
    if (next && next.sep.includes(':') && (kind !== 'caption' || tokens[t].upper)) {
      const markets: MarketHit[] = [];
      let j = t + 1;
      while (j < n && markets.length < 24) {
        const known = [c.lexicon.places.longestAt(tokens, j), c.lexicon.media.longestAt(tokens, j)]
          .filter((x): x is { to: number; value: MarketRef } => x !== null)
          .sort((a, b) => b.to - a.to)[0];
        let end = j;
        if (known) {
          markets.push({ ref: known.value, raw: spanText(text, tokens, j, known.to) });
          end = known.to;
        } else {
          while (end < n && end - j < 4 && (end === j || !tokens[end].breakBefore) && marketWord(c, tokens[end])) end++;
          if (end === j) break;
          const raw = spanText(text, tokens, j, end);
          markets.push({ ref: { name: displayCase(raw), kind: 'place', code: null, restriction: null }, raw });
        }
        j = end;
        if (j >= n) break;
        const sepd = /^[,/&]+$/.test(tokens[j].sep);
        if (sepd && !c.restrictionStarts.has(tokens[j].norm)) continue;
        if (!tokens[j].breakBefore && LIST_WORDS.has(tokens[j].norm)) {
          j++;
          continue;
        }
        break;
      }
      if (markets.length) {
        hits.push({ from: t, to: j, type: 'out', markets, rule: 'market:OUT: <list>' });
        continue;
      }
    }
    // "TORONTO STAR OUT"
    if (kind === 'caption' || t === 0 || tokens[t].breakBefore || !tokens[t].upper) continue;
    const endsSegment = !next || next.breakBefore || c.restrictionStarts.has(next.norm);
    if (!endsSegment || knownEndsAt(c, tokens, t)) continue;
    let s = t;
    while (s > 0 && t - s < 3 && !tokens[s].breakBefore && marketWord(c, tokens[s - 1])) s--;
    if (s === t) continue;
    const raw = spanText(text, tokens, s, t);
    hits.push({
      from: s,
      to: t + 1,
      type: 'out',
      markets: [{ ref: { name: displayCase(raw), kind: 'place', code: null, restriction: null }, raw }],
      rule: 'market:<words> OUT',
    });
  }
  return hits;
}

/** Every reading of one text, the longest kept. */
function readText(
  c: CompiledRightsRules,
  text: string,
  kind: RightsSourceKind,
): { tokens: Token[]; hits: RightsHit[] } {
  const tokens = tokenize(text);
  const all: RightsHit[] = [];
  for (const h of c.rights.findAll(tokens, kind)) {
    const v = h.pattern.value;
    const markets: MarketHit[] = [];
    for (const slot of h.slots)
      if (slot.slot === 'places' || slot.slot === 'media') markets.push(...marketsOf(text, tokens, slot.values));
    all.push({
      from: h.from,
      to: h.to,
      type: v.type,
      id: v.type === 'restriction' || v.type === 'advisory' ? v.id : undefined,
      markets,
      rule: h.pattern.phrase,
    });
  }
  if (kind === 'instructions') all.push(...codeHits(c, text, tokens));
  all.push(...outHits(c, text, tokens, kind));
  return { tokens, hits: selectHits(all) };
}

/** Segments (between hard breaks) holding a cue word no rule read: what a person should look at. */
function unreadSegments(
  c: CompiledRightsRules,
  text: string,
  tokens: readonly Token[],
  covered: ReadonlySet<number>,
): string[] {
  const out: string[] = [];
  let segStart = 0;
  let cue = false;
  const flush = (end: number) => {
    if (cue && end > segStart) {
      const s = spanText(text, tokens, segStart, end).replace(/\s+/g, ' ').trim();
      out.push(s.length > MAX_UNREAD_CHARS ? `${s.slice(0, MAX_UNREAD_CHARS - 1)}…` : s);
    }
  };
  for (let k = 0; k < tokens.length; k++) {
    if (k > 0 && tokens[k].breakBefore) {
      flush(k);
      segStart = k;
      cue = false;
    }
    if (!covered.has(k) && c.cueWords.has(tokens[k].norm)) cue = true;
  }
  flush(tokens.length);
  return out;
}

/** Token indexes read by release and kill rules: their words explain cue words too ("EMBARGOED", "NOT"). */
function coveredByOtherRules(
  c: CompiledRightsRules,
  tokens: readonly Token[],
  kind: RightsSourceKind,
  into: Set<number>,
): void {
  for (const h of [...c.release.findAll(tokens, kind), ...c.notices.findAll(tokens, kind)])
    for (let k = h.from; k < h.to; k++) into.add(k);
}

/** Distinct texts, leaving out one that is the start of another (IIM's 256-byte cut of the XMP instructions). */
function withoutCutCopies(texts: readonly string[]): string[] {
  const unique = [...new Set(texts)];
  return unique.filter((t) => !unique.some((o) => o !== t && o.length > t.length && o.startsWith(t)));
}

function plusStatus(value: string, prefix: 'MR' | 'PR' | 'CR' | 'AL'): string | null {
  const m = new RegExp(`(?:^|/)(${prefix}-[A-Z]{3})\\s*$`).exec(value.trim().slice(-80).toUpperCase());
  if (m) return m[1];
  return /^\s*(none|no|nein|non)\s*$/i.test(value.length < 20 ? value : '') ? `${prefix}-NON` : null;
}

/** IPTC digital source types (the URI's last segment) that make a picture an illustration, or processed. */
const GENERATED_SOURCES = new Set([
  'trainedalgorithmicmedia',
  'compositewithtrainedalgorithmicmedia',
  'algorithmicmedia',
  'compositesynthetic',
  'composite',
]);
const ENHANCED_SOURCES = new Set(['algorithmicallyenhanced']);

type CodedHit =
  { type: 'restriction'; id: RestrictionId; rule: string } | { type: 'advisory'; id: AdvisoryId; rule: string };

/**
 * A coded field that says something by itself (PLUS release, credit-line and alteration codes,
 * the IPTC digital source type); null when `source` is not one of them. Unknown codes say nothing.
 */
function codedRights(source: SourcedText['source'], text: string): CodedHit[] | null {
  switch (source) {
    case 'xmp:plus:ModelReleaseStatus':
    case 'xmp:plus:PropertyReleaseStatus': {
      const model = source === 'xmp:plus:ModelReleaseStatus';
      const code = plusStatus(text, model ? 'MR' : 'PR');
      if (code !== (model ? 'MR-NON' : 'PR-NON')) return [];
      return [
        { type: 'restriction', id: model ? 'model-release-missing' : 'property-release-missing', rule: `plus:${code}` },
      ];
    }
    case 'xmp:plus:CreditLineRequired': {
      const code = plusStatus(text, 'CR');
      return code && code !== 'CR-NRQ' && code !== 'CR-NON'
        ? [{ type: 'restriction', id: 'mandatory-credit', rule: `plus:${code}` }]
        : [];
    }
    case 'xmp:plus:ImageAlterationConstraints': {
      const code = plusStatus(text, 'AL');
      return code && code !== 'AL-NON' ? [{ type: 'restriction', id: 'no-alteration', rule: `plus:${code}` }] : [];
    }
    case 'xmp:Iptc4xmpExt:DigitalSourceType': {
      const kind = (/([A-Za-z]+)\s*$/.exec(text.slice(-120))?.[1] ?? '').toLowerCase();
      if (GENERATED_SOURCES.has(kind))
        return [{ type: 'advisory', id: 'photo-illustration', rule: `digitalsourcetype:${kind}` }];
      if (ENHANCED_SOURCES.has(kind)) return [{ type: 'advisory', id: 'processed', rule: `digitalsourcetype:${kind}` }];
      return [];
    }
    default:
      return null;
  }
}

/**
 * Rights and restrictions of one item, from every text that can carry them. Pure: the same input
 * and rules give the same output. Nothing is invented: a text no rule understands is listed in
 * `unread` and makes the confidence low.
 */
export function readRights(input: Pick<ItemRightsInput, 'texts'>, rules: RightsRules = defaultRightsRules()): Rights {
  const c = compileRightsRules(rules);
  const restrictions = new Set<RestrictionId>();
  const advisories = new Set<AdvisoryId>();
  const outMarkets: Market[] = [];
  const onlyMarkets: Market[] = [];
  const matched: RightsMatch[] = [];
  const unread: string[] = [];
  const raw: SourcedText[] = input.texts.map((t) => ({ source: t.source, text: t.text }));
  const seen = new Set<string>();
  const restrictiveTexts: string[] = [];

  const addMarket = (list: Market[], m: MarketHit) => {
    const key = `${m.ref.kind}:${m.ref.code ?? m.ref.name.toUpperCase()}`;
    if (!list.some((x) => `${x.kind}:${x.code ?? x.name.toUpperCase()}` === key)) {
      list.push({ name: m.ref.name, kind: m.ref.kind, code: m.ref.code, raw: m.raw });
    }
  };

  for (const { source, text } of input.texts) {
    const kind = RIGHTS_SOURCES[source];
    const coded = codedRights(source, text);
    if (coded) {
      for (const h of coded) {
        if (h.type === 'restriction') restrictions.add(h.id);
        else advisories.add(h.id);
        matched.push({ rule: h.rule, type: h.type, value: h.id, source, text });
      }
      continue;
    }
    if (kind === 'party' || kind === 'reference' || !text.trim()) continue;
    const dedupeKey = `${kind}\u0000${text.trim()}`;
    if (seen.has(dedupeKey)) continue; // 2:40 and photoshop:Instructions usually say the same thing
    seen.add(dedupeKey);

    const { tokens, hits } = readText(c, text, kind);
    const covered = new Set<number>();
    let restrictive = false;
    for (const h of hits) {
      for (let k = h.from; k < h.to; k++) covered.add(k);
      const words = spanText(text, tokens, h.from, h.to);
      if (h.type === 'restriction' && h.id) {
        restrictions.add(h.id as RestrictionId);
        matched.push({ rule: h.rule, type: 'restriction', value: h.id, source, text: words });
        restrictive = true;
      } else if (h.type === 'advisory' && h.id) {
        advisories.add(h.id as AdvisoryId);
        matched.push({ rule: h.rule, type: 'advisory', value: h.id, source, text: words });
      } else if (h.type === 'out' || h.type === 'only') {
        for (const m of h.markets) {
          addMarket(h.type === 'out' ? outMarkets : onlyMarkets, m);
          matched.push({ rule: h.rule, type: h.type, value: m.ref.name, source, text: words });
          if (h.type === 'out' && m.ref.restriction) {
            restrictions.add(m.ref.restriction);
            matched.push({ rule: h.rule, type: 'restriction', value: m.ref.restriction, source, text: words });
          }
        }
        restrictive = true;
      }
    }
    if (restrictive && kind === 'instructions') restrictiveTexts.push(text.trim());
    if (kind === 'instructions' || kind === 'terms') {
      coveredByOtherRules(c, tokens, kind, covered);
      for (const s of unreadSegments(c, text, tokens, covered))
        if (unread.length < MAX_UNREAD && !unread.includes(s)) unread.push(s);
    }
  }

  const terms = [
    ...new Set(input.texts.filter((t) => USAGE_TERMS_SOURCES.has(t.source) && t.text.trim()).map((t) => t.text.trim())),
  ];
  const usageTerms = terms.length
    ? withoutCutCopies(terms).join('\n')
    : restrictiveTexts.length
      ? withoutCutCopies(restrictiveTexts).join('\n')
      : null;

  return {
    restrictions: RESTRICTION_IDS.filter((id) => restrictions.has(id)),
    outMarkets,
    onlyMarkets,
    advisories: ADVISORY_IDS.filter((id) => advisories.has(id)),
    usageTerms,
    raw,
    matched,
    unread,
    confidence: unread.length ? 'low' : 'high',
    rulesVersion: rules.version,
  };
}
