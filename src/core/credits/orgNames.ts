import type { Credit } from '../../schemas/credit';
import { compileRules, lookupOrg, orgKey } from './compileRules';
import { orgName } from './houseLine';
import type { CreditRules } from './rulesSchema';

/** An organisation as the rules name it: its id ("GETTY") and display name ("Getty Images"). */
export interface CanonicalOrg {
  id: string;
  name: string;
}

/**
 * The rules agency a text names, by id, display name or alias, ignoring case, a leading "The" and
 * lost spaces: "GETTY", "getty", "Getty Images", "GettyImages" and "WireImage" all give
 * `{ id: "GETTY", name: "Getty Images" }`. Null for a text the rules do not list as an agency.
 */
export function canonicalOrg(rules: CreditRules, text: string): CanonicalOrg | null {
  const c = compileRules(rules);
  const hit = lookupOrg(c, text);
  if (!hit?.id) return null;
  return { id: hit.id, name: orgName(rules, hit) };
}

/**
 * Every spelling of one organisation, for a search: its id, display name and aliases, lower case.
 * A text the rules do not know is its own only spelling.
 */
export function orgSpellings(rules: CreditRules, text: string): string[] {
  const org = canonicalOrg(rules, text);
  if (!org) return [orgKey(text)];
  const a = rules.agencies[org.id];
  return [...new Set([org.id, a.name, ...a.aliases].map(orgKey))];
}

/**
 * A credit in today's shape: records made before rules 2026.12.2 hold the rules id in `agency`
 * ("GETTY", "CP"). The display name and the id are filled from the rules; everything else, `raw`
 * above all, is kept as stored. A credit already in this shape is returned as it is.
 */
export function canonicalCredit(credit: Credit, rules: CreditRules): Credit {
  if (credit.agencyId !== undefined && credit.distributorId !== undefined) return credit;
  const fix = (value: string | null) => {
    if (value === null) return { name: null, id: null };
    const org = canonicalOrg(rules, value);
    return org ? { name: org.name, id: org.id } : { name: value, id: null };
  };
  const agency = fix(credit.agency);
  const distributor = fix(credit.distributor);
  return {
    ...credit,
    agency: agency.name,
    agencyId: agency.id,
    distributor: distributor.name,
    distributorId: distributor.id,
  };
}
