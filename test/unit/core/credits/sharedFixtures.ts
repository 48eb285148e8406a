import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalOrg } from '../../../../src/core/credits/orgNames';
import type { CreditRules } from '../../../../src/core/credits/rules';

import { SHARED_DIR } from '../../../helpers/sharedDir';
export { SHARED_DIR };

export interface DevCreditRow {
  line: number;
  raw: string;
  creators: string[];
  agency: string;
  distributor: string | null;
  flags: string[];
}

/** credits-dev.tsv: raw credit, creators (;-separated), agency, distributor, flags (;-separated). */
export function readDevCredits(): DevCreditRow[] {
  const text = readFileSync(path.join(SHARED_DIR, 'fixtures/credits-dev.tsv'), 'utf8');
  const rows: DevCreditRow[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim() || l.startsWith('#')) return;
    const [raw, creators = '', agency = '', distributor = '', flags = ''] = l.replace(/\r$/, '').split('\t');
    const list = (s: string) =>
      s
        .split(';')
        .map((x) => x.trim())
        .filter(Boolean);
    rows.push({
      line: i + 1,
      raw,
      creators: list(creators),
      agency,
      distributor: distributor.trim() || null,
      flags: list(flags),
    });
  });
  return rows;
}

export interface SeedItem {
  counter: string;
  title: string;
  caption: string;
}

/** The seed gallery's 41 items: a title line ending in "(NN of41)", then the caption line. */
export function readSeedGallery(): SeedItem[] {
  const lines = readFileSync(path.join(SHARED_DIR, 'seeds/wire-gallery-2012.txt'), 'utf8').split('\n');
  const items: SeedItem[] = [];
  lines.forEach((l, i) => {
    const m = /^(.*?)\s*\((\d+) of(\d+)\)\s*$/.exec(l);
    if (m) items.push({ counter: m[2], title: m[1], caption: (lines[i + 1] ?? '').replace(/\r$/, '') });
  });
  return items;
}

/**
 * What a credit must hold for an expected organisation written as a rules id or alias ("GETTY",
 * "CP", "Getty Images"): the rules' display name and id. One the rules do not list is expected
 * as written, with no id.
 */
export function expectedOrg(rules: CreditRules, value: string | null): { name: string | null; id: string | null } {
  if (value === null) return { name: null, id: null };
  const org = canonicalOrg(rules, value);
  return org ? { name: org.name, id: org.id } : { name: value, id: null };
}
