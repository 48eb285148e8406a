import type { CreditRules } from './rulesSchema';
import type { OrgRef } from './compileRules';

/** Display name of an organisation as the rules spell it ("GETTY" -> "Getty Images"). */
export function orgName(rules: CreditRules, org: OrgRef): string {
  return org.id ? (rules.agencies[org.id]?.name ?? org.name) : org.name;
}

/** Display name of a distributor ("Getty Images", "Shutterstock", "AP"). */
export function distributorName(rules: CreditRules, org: OrgRef): string {
  return (org.id && rules.distributors[org.id]) || orgName(rules, org);
}

function joinCreators(rules: CreditRules, creators: string[]): string {
  if (creators.length <= 1) return creators.join('');
  const { creatorJoin, creatorLastJoin } = rules.houseStyle;
  return creators.slice(0, -1).join(creatorJoin) + creatorLastJoin + creators[creators.length - 1];
}

/**
 * The credit rebuilt in the house style: the agency's own template when the rules give one
 * ("AP Photo/{creators}", "REUTERS/{creators}"), else the default "{creators}/{agency}{via}{for}"
 * ("Leon Neal/AFP via Getty Images", "Dominic Lipinski/PA", "Michael Loccisano/Getty Images for CNN").
 */
export function houseLine(
  rules: CreditRules,
  creators: string[],
  agency: OrgRef | null,
  distributor: OrgRef | null,
  client: OrgRef | null,
): string | null {
  if (!agency) return creators.length ? joinCreators(rules, creators) : null;
  const entry = agency.id ? rules.agencies[agency.id] : undefined;
  const hs = rules.houseStyle;
  const template = creators.length ? (entry?.line ?? hs.line) : (entry?.lineNoCreators ?? hs.lineNoCreators);
  const values: Record<string, string> = {
    creators: joinCreators(rules, creators),
    agency: orgName(rules, agency),
    distributor: distributor ? distributorName(rules, distributor) : '',
    client: client ? orgName(rules, client) : '',
  };
  values.via = distributor ? hs.via.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '') : '';
  values.for = client ? hs.for.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '') : '';
  const line = template.replace(/\{(\w+)\}/g, (_m, k: string) => values[k] ?? '').replace(/\s{2,}/g, ' ').trim();
  return line || null;
}
