import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { defaultCreditRules } from '../../../../src/core/credits/rules';

/**
 * Every dry-run example of src/core/credits/RULES.md ("Credits outside the seed's styles") is what
 * the rules give: creators, agency and distributor (display names), handout, house line and
 * confidence, with an optional IPTC By-line beside the caption's credit.
 */
const doc = readFileSync(path.join(__dirname, '../../../../src/core/credits/RULES.md'), 'utf8');
const block = doc.slice(doc.indexOf('<!-- examples:start -->'), doc.indexOf('<!-- examples:end -->'));
// Cells are split on "|" not written "\|" ("© John Doe \| Dreamstime.com").
const cells = (l: string) =>
  l
    .split(/(?<!\\)\|/)
    .slice(1, -1)
    .map((c) => c.trim().replace(/\\\|/g, '|').replace(/^`|`$/g, ''));
const lines = block.split('\n').filter((l) => l.startsWith('|'));
const header = cells(lines[0]);
const rows = lines
  .filter((l) => l.startsWith('| `'))
  .map((l) => Object.fromEntries(cells(l).map((c, i) => [header[i], c])) as Record<string, string>);

describe('RULES.md examples (credits outside the seed)', () => {
  it('has examples, with the columns the test reads', () => {
    expect(rows.length).toBeGreaterThanOrEqual(30);
    expect(header).toEqual(['credit', 'by-line', 'creators', 'agency', 'distributor', 'handout', 'line', 'confidence']);
  });
  it.each(rows.map((r) => [`${r.credit}${r['by-line'] ? ` (by-line ${r['by-line']})` : ''}`, r] as const))(
    '%s',
    (_name, r) => {
      const c = normalizeCredit(
        {
          captionTail: r.credit,
          byline: r['by-line'] ? [r['by-line']] : [],
          creditLine: null,
          source: null,
          copyright: null,
        },
        defaultCreditRules(),
      );
      expect({
        creators: c.creators.join(', '),
        agency: c.agency ?? '',
        distributor: c.distributor ?? '',
        handout: c.flags.handout ? 'yes' : '',
        line: c.line ?? '',
        confidence: c.confidence,
      }).toEqual({
        creators: r.creators,
        agency: r.agency,
        distributor: r.distributor,
        handout: r.handout,
        line: r.line,
        confidence: r.confidence,
      });
    },
  );
});
