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

/** What the line must also say: the credit's pool and handout markers and the partner agencies named. */
export interface LineMarks {
  pool: boolean;
  handout: boolean;
  partners: readonly OrgRef[];
}

const NO_MARKS: LineMarks = { pool: false, handout: false, partners: [] };

/**
 * The credit rebuilt in the house style: the agency's own template when the rules give one
 * ("AP Photo/{creators}", "REUTERS/{creators}"), its printed form with a partner agency
 * ("EPA-EFE/{creators}"), else the default "{creators}/{agency}{via}{for}" ("Leon Neal/AFP via
 * Getty Images", "Dominic Lipinski/PA", "Michael Loccisano/Getty Images for CNN"). `{pool:TEXT}`
 * and `{handout:TEXT}` print TEXT on a pool or handout picture ("POOL/AFP",
 * "THE CANADIAN PRESS/HO-Annick deGooyer"). With no agency, a distributor alone (a stock site)
 * is printed in its place ("John Doe/Dreamstime").
 */
export function houseLine(
  rules: CreditRules,
  creators: string[],
  agency: OrgRef | null,
  distributor: OrgRef | null,
  client: OrgRef | null,
  marks: LineMarks = NO_MARKS,
): string | null {
  if (!agency && distributor) return houseLine(rules, creators, distributor, null, client, marks);
  if (!agency) return creators.length ? joinCreators(rules, creators) : null;
  const entry = agency.id ? rules.agencies[agency.id] : undefined;
  const joint = entry?.withPartner
    ? Object.entries(entry.withPartner).find(([id]) => marks.partners.some((p) => p.id === id))?.[1]
    : undefined;
  const hs = rules.houseStyle;
  const template = creators.length
    ? (joint?.line ?? entry?.line ?? hs.line)
    : (joint?.lineNoCreators ?? entry?.lineNoCreators ?? hs.lineNoCreators);
  const values: Record<string, string> = {
    creators: joinCreators(rules, creators),
    agency: orgName(rules, agency),
    distributor: distributor ? distributorName(rules, distributor) : '',
    client: client ? orgName(rules, client) : '',
  };
  const fill = (t: string) =>
    t.replace(/\{(\w+)(?::([^{}]*))?\}/g, (_m, k: string, text: string | undefined) => {
      if (text !== undefined) return (k === 'pool' && marks.pool) || (k === 'handout' && marks.handout) ? text : '';
      return values[k] ?? '';
    });
  values.via = distributor ? fill(hs.via) : '';
  values.for = client ? fill(hs.for) : '';
  const line = fill(template)
    .replace(/\s{2,}/g, ' ')
    .trim();
  return line || null;
}
