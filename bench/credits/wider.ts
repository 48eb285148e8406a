import * as fs from 'node:fs';
import * as path from 'node:path';
import { creditOfLine } from '../../src/core/credits/creditOfLine';
import { defaultBoilerplateRules } from '../../src/core/captions/boilerplate';
import { orgKey } from '../../src/core/credits/compileRules';
import { canonicalOrg } from '../../src/core/credits/orgNames';
import type { CreditRules } from '../../src/core/credits/rules';
import type { Credit } from '../../src/schemas/credit';
import { repoRoot } from '../common/paths';

/** One labelled line of test/fixtures/credits-wider/credits-wider.tsv (origins in its ORIGIN.md). */
export interface WiderRow {
  line: number;
  credit: string;
  byline: string[];
  source: string | null;
  creators: string[];
  agency: string | null;
  distributor: string | null;
  origin: string;
}

export function widerSetPath(): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'credits-wider', 'credits-wider.tsv');
}

export function readWiderSet(file = widerSetPath()): WiderRow[] {
  const rows: WiderRow[] = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (!l.trim() || l.startsWith('#')) return;
      const [credit, byline = '', source = '', creators = '', agency = '', distributor = '', origin = ''] = l
        .replace(/\r$/, '')
        .split('\t');
      const list = (s: string) =>
        s
          .split(';')
          .map((x) => x.trim())
          .filter(Boolean);
      const opt = (s: string) => (s.trim() ? s.trim() : null);
      rows.push({
        line: i + 1,
        credit,
        byline: list(byline),
        source: opt(source),
        creators: list(creators),
        agency: opt(agency),
        distributor: opt(distributor),
        origin: origin.trim(),
      });
    });
  return rows;
}

/** A name as a desk compares it: case, accents kept, commas and runs of spaces ignored ("Younger, Jr." is "Younger Jr."). */
const personKey = (s: string) => s.normalize('NFC').toLowerCase().replace(/,/g, ' ').replace(/\s+/g, ' ').trim();

/** Whether the credit names the expected organisation: by rules id when the rules know it, else by name. */
function sameOrgAs(
  rules: CreditRules,
  expected: string | null,
  name: string | null,
  id: string | null | undefined,
): boolean {
  if (expected === null) return name === null;
  if (name === null) return false;
  const known = canonicalOrg(rules, expected);
  if (known && id) return known.id === id;
  return orgKey(expected) === orgKey(name);
}

export interface WiderResult {
  row: WiderRow;
  credit: Credit;
  creatorsOk: boolean;
  agencyOk: boolean;
  distributorOk: boolean;
}

export interface WiderScore {
  rows: number;
  creators: number;
  agency: number;
  both: number;
  distributor: number;
  /** Rows whose split is wrong but whose confidence is not `low`: a guess presented as sure. */
  confidentMisses: number;
  results: WiderResult[];
}

/** `photowire credits` (the same line logic, with the row's By-line and Source) over the labelled set. */
export function scoreWiderSet(rules: CreditRules, rows: WiderRow[] = readWiderSet()): WiderScore {
  const boilerplate = defaultBoilerplateRules();
  const results = rows.map((row) => {
    const { credit } = creditOfLine(row.credit, rules, boilerplate, { byline: row.byline, source: row.source });
    const creatorsOk =
      credit.creators.length === row.creators.length &&
      credit.creators.every((c, i) => personKey(c) === personKey(row.creators[i]));
    return {
      row,
      credit,
      creatorsOk,
      agencyOk: sameOrgAs(rules, row.agency, credit.agency, credit.agencyId),
      distributorOk: sameOrgAs(rules, row.distributor, credit.distributor, credit.distributorId),
    };
  });
  const count = (f: (r: WiderResult) => boolean) => results.filter(f).length;
  return {
    rows: rows.length,
    creators: count((r) => r.creatorsOk),
    agency: count((r) => r.agencyOk),
    both: count((r) => r.creatorsOk && r.agencyOk),
    distributor: count((r) => r.distributorOk),
    confidentMisses: count((r) => !(r.creatorsOk && r.agencyOk) && r.credit.confidence !== 'low'),
    results,
  };
}

const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;

/** The score as a person reads it, each miss on its own line with what was expected and what came out. */
export function formatWiderScore(s: WiderScore, label: string): string {
  const out = [
    `${label}: ${s.rows} credits; creators ${s.creators} (${pct(s.creators, s.rows)}), agency ${s.agency} (${pct(s.agency, s.rows)}), ` +
      `both ${s.both} (${pct(s.both, s.rows)}), distributor ${s.distributor} (${pct(s.distributor, s.rows)}); ` +
      `wrong but not low confidence: ${s.confidentMisses}`,
  ];
  for (const r of s.results) {
    if (r.creatorsOk && r.agencyOk) continue;
    out.push(
      `  MISS line ${r.row.line} [${r.row.origin}] ${JSON.stringify(r.row.credit)}\n` +
        `       expected creators ${JSON.stringify(r.row.creators)} agency ${JSON.stringify(r.row.agency)}\n` +
        `       got      creators ${JSON.stringify(r.credit.creators)} agency ${JSON.stringify(r.credit.agency)} (${r.credit.confidence}, ${r.credit.rule})`,
    );
  }
  return out.join('\n');
}
