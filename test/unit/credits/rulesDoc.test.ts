import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { normalizeCredit } from '../../../src/core/credits/normalizeCredit';
import { defaultCreditRules } from '../../../src/core/credits/rules';

/** Every dry-run example of src/core/credits/RULES.md ("Credits outside the seed's styles") is what the rules give. */
const doc = readFileSync(path.join(__dirname, '../../../src/core/credits/RULES.md'), 'utf8');
const block = doc.slice(doc.indexOf('<!-- examples:start -->'), doc.indexOf('<!-- examples:end -->'));
const rows = block
  .split('\n')
  .filter((l) => l.startsWith('| `'))
  .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()))
  .map(([credit, creators, agency, distributor, handout]) => [credit.replace(/^`|`$/g, ''), creators, agency, distributor, handout] as const);

describe('RULES.md examples (issue 11, credits outside the seed)', () => {
  it('has examples', () => expect(rows.length).toBeGreaterThanOrEqual(10));
  it.each(rows)('%s', (credit, creators, agency, distributor, handout) => {
    const c = normalizeCredit({ captionTail: credit, byline: [], creditLine: null, source: null, copyright: null }, defaultCreditRules());
    expect({ creators: c.creators.join(', '), agency: c.agency ?? '', distributor: c.distributor ?? '', handout: c.flags.handout ? 'yes' : '' }).toEqual({
      creators,
      agency,
      distributor,
      handout,
    });
  });
});
