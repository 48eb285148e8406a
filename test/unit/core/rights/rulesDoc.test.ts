import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dryRun } from '../../../../src/core/rights/dryRun';

/** docs/RIGHTS.md's examples are what the shipped rules do. */

const DOC = readFileSync(path.resolve(__dirname, '../../../../docs/RIGHTS.md'), 'utf8');

/** The rows of the first table after a heading, as trimmed cells with backticks removed. */
function table(heading: string): string[][] {
  const at = DOC.indexOf(heading);
  if (at < 0) throw new Error(`docs/RIGHTS.md has no "${heading}"`);
  const lines = DOC.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    rows.push(
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim().replace(/^`|`$/g, '')),
    );
  }
  return rows;
}
const list = (cell: string) => (cell ? cell.split(',').map((s) => s.trim()) : []);

describe('docs/RIGHTS.md examples', () => {
  it.each(table('#### Examples: restrictions'))('%s', (text, restrictions, out, advisories) => {
    const r = dryRun(text).rights;
    expect([r.restrictions, r.outMarkets.map((m) => m.name), r.advisories]).toEqual([
      list(restrictions),
      list(out),
      list(advisories),
    ]);
  });

  it.each(table('#### Examples: embargo and expiry'))('%s', (text, agency, embargo, expires) => {
    const r = dryRun(text, { agency, referenceTime: '2024-03-05T12:00:00Z' }).release;
    const at = (t: { at: string | null } | null) => (t === null ? '' : (t.at ?? 'until further notice'));
    expect([at(r.embargoUntil), at(r.expires)]).toEqual([embargo, expires]);
  });

  it.each(table('#### Examples: notices'))('%s', (text, kind, targets) => {
    const n = dryRun(text).notice;
    expect(n === null ? ['none', []] : [n.kind, n.targets]).toEqual([kind, list(targets)]);
  });

  it('the dry run with an operator file gives what the doc shows', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-rights-doc-'));
    try {
      const file = path.join(dir, 'desk.json');
      writeFileSync(file, '{ "version": "desk-1", "restrictions": { "no-sales": [ { "phrases": ["NO FORNS"] } ] } }');
      expect(dryRun('MANDATORY CREDIT; NO FORNS', { rules: file }).rights).toMatchObject({
        restrictions: ['no-sales', 'mandatory-credit'],
        unread: [],
        confidence: 'high',
        rulesVersion: '2026.12.2+desk-1',
      });
      const shown = DOC.split('\n').find((l) => l.startsWith('{"embargoUntil"'))!;
      expect(
        JSON.stringify(
          dryRun('EMBARGOED TO 0001 SATURDAY MARCH 9', { agency: 'PA', referenceTime: '2024-03-05T12:00:00Z' }).release,
        ),
      ).toBe(shown);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
