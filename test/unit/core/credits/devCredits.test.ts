import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { expectedOrg, readDevCredits } from './sharedFixtures';

const rules = loadCreditRules();
const rows = readDevCredits();
const FLAG_NAMES = ['file', 'pool', 'handout', 'mandatory'] as const;

const fromTail = (raw: string) =>
  normalizeCredit({ captionTail: raw, byline: [], creditLine: null, source: null, copyright: null }, rules);

describe('credits-dev.tsv', () => {
  it('has the rows the issue lists', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
  });

  it.each(rows.map((r) => [r.line, r.raw, r] as const))('line %i: %s', (_line, raw, row) => {
    const credit = fromTail(raw);
    expect(credit.creators).toEqual(row.creators);
    // The TSV names agencies by rules id ("GETTY", "CP"): the credit holds the display name and the id.
    const agency = expectedOrg(rules, row.agency);
    const distributor = expectedOrg(rules, row.distributor);
    expect([credit.agency, credit.agencyId]).toEqual([agency.name, agency.id]);
    expect([credit.distributor, credit.distributorId]).toEqual([distributor.name, distributor.id]);
    const setFlags = FLAG_NAMES.filter((f) => credit.flags[f]);
    expect(setFlags).toEqual(FLAG_NAMES.filter((f) => row.flags.includes(f)));
    expect(credit.confidence).toBe('high');
    expect(credit.raw.captionTail).toBe(raw);
    expect(credit.rulesVersion).toBe(rules.version);
    expect(credit.rule).toEqual(expect.any(String));
  });

  it('gives the supplier reference and house-style lines of the rows', () => {
    const byRaw = new Map(rows.map((r) => [r.raw, fromTail(r.raw)]));
    const get = (start: string) => [...byRaw.entries()].find(([raw]) => raw.startsWith(start))![1];
    expect(get('Mandatory Credit: Photo by Jose Breton').flags.supplierRef).toBe('16507315bs');
    expect(get('AFP PHOTO / LEON NEAL').line).toBe('Leon Neal/AFP via Getty Images');
    expect(get('(AP Photo/Lefteris').line).toBe('AP Photo/Lefteris Pitarakis');
    expect(get('REUTERS/Mario').line).toBe('REUTERS/Mario Anzuoni');
    expect(get('Photo credit: Dominic').line).toBe('Dominic Lipinski/PA');
    expect(get('Michael Loccisano').line).toBe('Michael Loccisano/Getty Images for CNN');
    expect(get('Michael Loccisano').partners).toEqual(['CNN']);
    expect(get('EPA-EFE/JUSTIN LANE').partners).toEqual(['EFE']);
    expect(get('(Ronen Zvulun').partners).toEqual(['Pool']);
  });
});
