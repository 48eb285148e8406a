import { ADVISORY_IDS, RESTRICTION_IDS } from '../../schemas/rights';
import { invalidRules, invalidShippedRules, readRulesFile, type RulesIssue } from '../rulesFile';
import defaults from './default-rules.json';
import { compilePhrase } from './phraseMatcher';
import {
  operatorRightsRulesSchema,
  rightsRulesSchema,
  type OperatorRightsRules,
  type PhraseGroup,
  type RightsRules,
} from './rulesSchema';

export type { RightsRules } from './rulesSchema';

const DEFAULT_RULES_NAME = 'src/core/rights/default-rules.json (shipped with photowire)';

/** Groups whose phrases must each hold one of the given slots. */
const SLOT_REQUIRED: Array<{ path: string[]; slots: string[] }> = [
  { path: ['markets', 'out'], slots: ['places', 'media'] },
  { path: ['markets', 'only'], slots: ['places'] },
  { path: ['release', 'usageWindow'], slots: ['duration'] },
];

/** Problems zod cannot see: a market phrase without a {places} slot names no market. */
function slotIssues(rules: unknown): RulesIssue[] {
  const issues: RulesIssue[] = [];
  for (const { path, slots } of SLOT_REQUIRED) {
    let node: unknown = rules;
    for (const key of path)
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (!Array.isArray(node)) continue;
    (node as PhraseGroup[]).forEach((g, gi) =>
      g.phrases.forEach((p, pi) => {
        const ok = compilePhrase(p).every((v) => v.some((el) => el.kind === 'slot' && slots.includes(el.slot)));
        if (!ok) {
          issues.push({
            code: 'custom',
            path: [...path, gi, 'phrases', pi],
            message: `phrase "${p}" needs ${slots.map((s) => `{${s}}`).join(' or ')} (it names no ${path[1] === 'usageWindow' ? 'duration' : 'market'})`,
          });
        }
      }),
    );
  }
  return issues;
}

let shippedDefaults: RightsRules | undefined;

/** The rules shipped with photowire, validated once. */
export function defaultRightsRules(): RightsRules {
  if (!shippedDefaults) {
    const parsed = rightsRulesSchema.safeParse(defaults);
    const issue = parsed.success ? slotIssues(parsed.data)[0] : parsed.error.issues[0];
    if (!parsed.success || issue) throw invalidShippedRules('RIGHTS_RULES', DEFAULT_RULES_NAME, issue!);
    shippedDefaults = parsed.data;
  }
  return shippedDefaults;
}

/**
 * The rights rules in force: the shipped defaults, extended by the operator's file when `path`
 * is given (the caller reads PHOTOWIRE_RIGHTS_RULES). A file that cannot be read, is not JSON,
 * or does not match the schema is refused with its line and the reason.
 */
export function loadRightsRules(path?: string): RightsRules {
  const base = defaultRightsRules();
  if (path === undefined || path === '') return base;

  const file = readRulesFile('RIGHTS_RULES', path);
  const fail = (issue: RulesIssue) => invalidRules(file, issue, closedVocabulary);
  const op = operatorRightsRulesSchema.safeParse(file.value);
  if (!op.success) throw fail(op.error.issues[0]);
  const opSlots = slotIssues(op.data);
  if (opSlots.length) throw fail(opSlots[0]);
  const merged = rightsRulesSchema.safeParse(mergeRightsRules(base, op.data));
  if (!merged.success) throw fail(merged.error.issues[0]);
  return merged.data;
}

/** Restriction and advisory ids are a closed vocabulary: an unknown one is named as such. */
function closedVocabulary(parent: ReadonlyArray<string | number>): string | null {
  if (parent.length !== 1) return null;
  if (parent[0] === 'restrictions')
    return `not a restriction id: the vocabulary is closed (${RESTRICTION_IDS.join(', ')})`;
  if (parent[0] === 'advisories') return `not an advisory id: the vocabulary is closed (${ADVISORY_IDS.join(', ')})`;
  return null;
}

function union(a: readonly string[], b: readonly string[] | undefined): string[] {
  const out = [...a];
  const seen = new Set(a.map((s) => s.toUpperCase()));
  for (const s of b ?? []) {
    if (!seen.has(s.toUpperCase())) {
      seen.add(s.toUpperCase());
      out.push(s);
    }
  }
  return out;
}

function mergeGroupMap<K extends string>(
  base: Partial<Record<K, PhraseGroup[]>>,
  op: Partial<Record<K, PhraseGroup[]>> | undefined,
): Partial<Record<K, PhraseGroup[]>> {
  const out: Partial<Record<K, PhraseGroup[]>> = { ...base };
  for (const [k, groups] of Object.entries(op ?? {}) as Array<[K, PhraseGroup[]]>)
    out[k] = [...(base[k] ?? []), ...groups];
  return out;
}

function mergeNameMap(
  base: Record<string, string[]>,
  op: Record<string, string[]> | undefined,
): Record<string, string[]> {
  const out = { ...base };
  for (const [k, v] of Object.entries(op ?? {})) out[k] = union(out[k] ?? [], v);
  return out;
}

/** Operator rules over the defaults: groups and lists added to, maps merged key by key (operator wins). */
export function mergeRightsRules(base: RightsRules, op: OperatorRightsRules): unknown {
  const media: Record<string, unknown> = { ...base.markets.media };
  for (const [id, entry] of Object.entries(op.markets?.media ?? {})) {
    const prev = base.markets.media[id];
    media[id] = prev
      ? { ...prev, ...entry, aliases: union(prev.aliases, entry.aliases) }
      : { restriction: null, ...entry, aliases: entry.aliases ?? [] };
  }
  const notice = (k: 'kill' | 'withdraw' | 'correction') => ({
    headings: [...base.notices[k].headings, ...(op.notices?.[k]?.headings ?? [])],
    phrases: [...base.notices[k].phrases, ...(op.notices?.[k]?.phrases ?? [])],
  });
  return {
    version: `${base.version}+${op.version}`,
    restrictions: mergeGroupMap(base.restrictions, op.restrictions),
    advisories: mergeGroupMap(base.advisories, op.advisories),
    ignore: [...base.ignore, ...(op.ignore ?? [])],
    markets: {
      out: [...base.markets.out, ...(op.markets?.out ?? [])],
      only: [...base.markets.only, ...(op.markets?.only ?? [])],
      media,
      regions: mergeNameMap(base.markets.regions, op.markets?.regions),
      places: mergeNameMap(base.markets.places, op.markets?.places),
      countryAliases: mergeNameMap(base.markets.countryAliases, op.markets?.countryAliases),
      countryNameLanguages: union(base.markets.countryNameLanguages, op.markets?.countryNameLanguages),
      notAPlace: union(base.markets.notAPlace, op.markets?.notAPlace),
    },
    cueWords: union(base.cueWords, op.cueWords),
    release: {
      embargo: [...base.release.embargo, ...(op.release?.embargo ?? [])],
      hold: [...base.release.hold, ...(op.release?.hold ?? [])],
      expiry: [...base.release.expiry, ...(op.release?.expiry ?? [])],
      usageWindow: [...base.release.usageWindow, ...(op.release?.usageWindow ?? [])],
      zones: { ...base.release.zones, ...op.release?.zones },
      agencyZones: { ...base.release.agencyZones, ...op.release?.agencyZones },
    },
    notices: {
      kill: notice('kill'),
      withdraw: notice('withdraw'),
      correction: notice('correction'),
      prefixes: union(base.notices.prefixes, op.notices?.prefixes),
      idContexts: [...base.notices.idContexts, ...(op.notices?.idContexts ?? [])],
    },
  };
}
