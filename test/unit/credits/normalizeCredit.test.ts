import { creditSchema } from '../../../src/schemas/credit';
import { normalizeCredit, type CreditInput } from '../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../src/core/credits/rules';

const rules = loadCreditRules();
const input = (over: Partial<CreditInput>): CreditInput => ({
  captionTail: null,
  byline: [],
  creditLine: null,
  source: null,
  copyright: null,
  ...over,
});

describe('normalizeCredit', () => {
  it('returns a credit matching the record schema, with the input kept exactly as received', () => {
    const given = input({
      captionTail: '  AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages) (credit:Getty)',
      byline: ['LEON NEAL '],
      creditLine: 'AFP/Getty Images',
      source: 'AFP',
      copyright: '2012 AFP',
    });
    const credit = normalizeCredit(given, rules);
    expect(creditSchema.parse(credit)).toEqual(credit);
    expect(credit.raw).toEqual({
      captionTail: given.captionTail,
      byline: ['LEON NEAL '],
      creditLine: 'AFP/Getty Images',
      source: 'AFP',
      copyright: '2012 AFP',
    });
    expect(credit.rulesVersion).toBe(rules.version);
  });

  it('prefers the caption tail over IIM Source, which Reuters fills with a photographer code', () => {
    const credit = normalizeCredit(
      input({ captionTail: 'REUTERS/Mario Anzuoni  (UNITED STATES - Tags: ENTERTAINMENT)', byline: ['MARIO ANZUONI'], creditLine: 'REUTERS', source: 'X90045' }),
      rules,
    );
    expect(credit).toMatchObject({ creators: ['Mario Anzuoni'], agency: 'REUTERS', distributor: null, line: 'REUTERS/Mario Anzuoni', confidence: 'high' });
    expect(credit.partners).toEqual([]);
  });

  it('lets "Photo credit should read" win over the prefix before it', () => {
    const credit = normalizeCredit(input({ captionTail: 'AFP PHOTO / JOHN DOE (Photo credit should read JANE ROE/AFP/Getty Images)' }), rules);
    expect(credit.creators).toEqual(['Jane Roe']);
    expect(credit.line).toBe('Jane Roe/AFP via Getty Images');
  });

  it('takes creators from By-line and the agency from Credit when the caption has no credit', () => {
    const credit = normalizeCredit(input({ byline: ['DUANE A. LAVERTY'], creditLine: 'AP', source: 'AP' }), rules);
    expect(credit).toMatchObject({ creators: ['Duane A. Laverty'], agency: 'AP', line: 'AP Photo/Duane A. Laverty', confidence: 'high', rule: 'iptc-credit' });
  });

  it('reads the distributor from the Credit field when the tail names only the agency', () => {
    const credit = normalizeCredit(input({ captionTail: 'AFP PHOTO / CHRISTOF STACHE', creditLine: 'AFP/Getty Images' }), rules);
    expect(credit).toMatchObject({ agency: 'AFP', distributor: 'Getty Images', line: 'Christof Stache/AFP via Getty Images' });
  });

  it('never makes a creator of a placeholder or an organisation in By-line', () => {
    const credit = normalizeCredit(input({ byline: ['STR', 'REUTERS TV', 'HO', 'Ravi Menon/Shutterstock'], creditLine: 'Shutterstock' }), rules);
    expect(credit.creators).toEqual(['Ravi Menon']);
    expect(credit.agency).toBe('SHUTTERSTOCK');
  });

  it('marks a handout from an IIM Source of "HO"', () => {
    const credit = normalizeCredit(input({ byline: ['Annick deGooyer'], creditLine: 'The Canadian Press', source: 'HO' }), rules);
    expect(credit).toMatchObject({ creators: ['Annick deGooyer'], agency: 'CP', confidence: 'high' });
    expect(credit.flags.handout).toBe(true);
  });

  it('falls back to Copyright for the agency only when it names a known agency', () => {
    expect(normalizeCredit(input({ byline: ['Mara Lindqvist'], copyright: 'Copyright 2026 The Associated Press. All rights reserved.' }), rules).agency).toBe('AP');
    expect(normalizeCredit(input({ byline: ['Christof Stache'], copyright: 'CHRISTOF STACHE' }), rules).agency).toBeNull();
  });

  it('gives low confidence, the raw text and no invented names for a credit it cannot read', () => {
    for (const raw of ['Some Random Text', 'hello world', 'Jane Doe', 'taken by a friend of mine at the beach']) {
      const credit = normalizeCredit(input({ captionTail: raw }), rules);
      expect(credit.confidence).toBe('low');
      expect(credit.raw.captionTail).toBe(raw);
      expect(credit.creators).toEqual([]);
      expect(credit.agency).toBeNull();
      expect(credit.line).toBeNull();
    }
  });

  it('gives low confidence when part of a credit is not understood, keeping what was', () => {
    const credit = normalizeCredit(input({ captionTail: 'REUTERS/Mario Anzuoni/taken with a drone' }), rules);
    expect(credit.confidence).toBe('low');
    expect(credit.creators).toEqual(['Mario Anzuoni']);
  });

  it('gives low confidence when IPTC Credit names a different agency than the caption', () => {
    const credit = normalizeCredit(input({ captionTail: '(AP Photo/Evan Vucci)', creditLine: 'REUTERS' }), rules);
    expect(credit.agency).toBe('AP');
    expect(credit.confidence).toBe('low');
  });

  it('gives low confidence for IPTC-only credits from an organisation the rules do not know', () => {
    const credit = normalizeCredit(input({ byline: ['John Doe'], creditLine: 'Big Newspaper', source: 'John Doe / Big Newspaper' }), rules);
    expect(credit).toMatchObject({ creators: ['John Doe'], agency: 'Big Newspaper', confidence: 'low' });
  });

  it('gives an empty, low-confidence credit when nothing is known', () => {
    const credit = normalizeCredit(input({}), rules);
    expect(credit).toMatchObject({ creators: [], agency: null, distributor: null, line: null, confidence: 'low', rule: null });
  });

  it('joins several creators in the house style', () => {
    const credit = normalizeCredit(input({ captionTail: '(Photo by John Smith and JANE DOE/Getty Images)' }), rules);
    expect(credit.creators).toEqual(['John Smith', 'Jane Doe']);
    expect(credit.line).toBe('John Smith and Jane Doe/Getty Images');
  });
});
