import { invalidRules, invalidShippedRules, readRulesFile } from '../rulesFile';
import defaults from './default-rules.json';
import { creditRulesSchema, operatorRulesSchema, type CreditRules, type OperatorRules } from './rulesSchema';

export type { CreditRules } from './rulesSchema';

const DEFAULT_RULES_NAME = 'default-rules.json (shipped with photowire)';

let shippedDefaults: CreditRules | undefined;

/** The rules shipped with photowire, validated once. */
export function defaultCreditRules(): CreditRules {
  if (!shippedDefaults) {
    const parsed = creditRulesSchema.safeParse(defaults);
    if (!parsed.success) {
      throw invalidShippedRules('CREDIT_RULES', DEFAULT_RULES_NAME, parsed.error.issues[0]);
    }
    shippedDefaults = parsed.data;
  }
  return shippedDefaults;
}

/**
 * The credit rules in force: the shipped defaults, extended or overridden by the operator's file
 * when `path` is given (the caller reads PHOTOWIRE_CREDIT_RULES). A file that cannot be read,
 * is not JSON, or does not match the schema is refused with its line and the reason.
 */
export function loadCreditRules(path?: string): CreditRules {
  const base = defaultCreditRules();
  if (path === undefined || path === '') return base;

  const file = readRulesFile('CREDIT_RULES', path);
  const op = operatorRulesSchema.safeParse(file.value);
  if (!op.success) throw invalidRules(file, op.error.issues[0]);
  const merged = creditRulesSchema.safeParse(mergeRules(base, op.data));
  if (!merged.success) throw invalidRules(file, merged.error.issues[0]);
  return merged.data;
}

function union(a: readonly string[], b: readonly string[] | undefined): string[] {
  const out = [...a];
  const seen = new Set(a.map((s) => s.toLowerCase()));
  for (const s of b ?? []) {
    if (!seen.has(s.toLowerCase())) {
      seen.add(s.toLowerCase());
      out.push(s);
    }
  }
  return out;
}

/** Operator rules over the defaults: maps merged key by key (operator wins), lists added to. */
export function mergeRules(base: CreditRules, op: OperatorRules): unknown {
  const agencies: Record<string, unknown> = { ...base.agencies };
  for (const [id, entry] of Object.entries(op.agencies ?? {})) {
    const prev = base.agencies[id];
    agencies[id] = prev
      ? {
          ...prev,
          ...entry,
          aliases: union(prev.aliases, entry.aliases),
          ...(prev.withPartner || entry.withPartner
            ? { withPartner: { ...prev.withPartner, ...entry.withPartner } }
            : {}),
        }
      : { ...entry, aliases: entry.aliases ?? [] };
  }
  const partners: Record<string, string[]> = { ...base.partners };
  for (const [name, aliases] of Object.entries(op.partners ?? {}))
    partners[name] = union(partners[name] ?? [], aliases);
  return {
    version: `${base.version}+${op.version}`,
    houseStyle: { ...base.houseStyle, ...op.houseStyle },
    agencies,
    distributors: { ...base.distributors, ...op.distributors },
    partners,
    organisationWords: union(base.organisationWords, op.organisationWords),
    placeholders: union(base.placeholders, op.placeholders),
    flagWords: {
      file: union(base.flagWords.file, op.flagWords?.file),
      pool: union(base.flagWords.pool, op.flagWords?.pool),
      handout: union(base.flagWords.handout, op.flagWords?.handout),
    },
    restrictions: {
      phrases: union(base.restrictions.phrases, op.restrictions?.phrases),
      multiWordPlaces: union(base.restrictions.multiWordPlaces, op.restrictions?.multiWordPlaces),
    },
    labelWords: union(base.labelWords ?? [], op.labelWords),
    ranks: union(base.ranks ?? [], op.ranks),
    ignoredBrackets: union(base.ignoredBrackets ?? [], op.ignoredBrackets),
    governmentWords: union(base.governmentWords ?? [], op.governmentWords),
    stockSites: union(base.stockSites ?? [], op.stockSites),
    chainAliases: { ...base.chainAliases, ...op.chainAliases },
    ignoredPrefixes: union(base.ignoredPrefixes ?? [], op.ignoredPrefixes),
    generativeTools: union(base.generativeTools ?? [], op.generativeTools),
    studioWords: union(base.studioWords ?? [], op.studioWords),
    givenNames: union(base.givenNames ?? [], op.givenNames),
    notCredits: union(base.notCredits ?? [], op.notCredits),
    nameCasing: {
      particles: union(base.nameCasing.particles, op.nameCasing?.particles),
      exceptions: { ...base.nameCasing.exceptions, ...op.nameCasing?.exceptions },
    },
  };
}
