import { creditSchema } from '../../../../src/schemas/credit';
import { normalizeCredit, type CreditInput } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';

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
      input({
        captionTail: 'REUTERS/Mario Anzuoni  (UNITED STATES - Tags: ENTERTAINMENT)',
        byline: ['MARIO ANZUONI'],
        creditLine: 'REUTERS',
        source: 'X90045',
      }),
      rules,
    );
    expect(credit).toMatchObject({
      creators: ['Mario Anzuoni'],
      agency: 'REUTERS',
      distributor: null,
      line: 'REUTERS/Mario Anzuoni',
      confidence: 'high',
    });
    expect(credit.partners).toEqual([]);
  });

  it('lets "Photo credit should read" win over the prefix before it', () => {
    const credit = normalizeCredit(
      input({ captionTail: 'AFP PHOTO / JOHN DOE (Photo credit should read JANE ROE/AFP/Getty Images)' }),
      rules,
    );
    expect(credit.creators).toEqual(['Jane Roe']);
    expect(credit.line).toBe('Jane Roe/AFP via Getty Images');
  });

  it('takes creators from By-line and the agency from Credit when the caption has no credit', () => {
    const credit = normalizeCredit(input({ byline: ['DUANE A. LAVERTY'], creditLine: 'AP', source: 'AP' }), rules);
    expect(credit).toMatchObject({
      creators: ['Duane A. Laverty'],
      agency: 'AP',
      line: 'AP Photo/Duane A. Laverty',
      confidence: 'high',
      rule: 'iptc-credit',
    });
  });

  it('reads the distributor from the Credit field when the tail names only the agency', () => {
    const credit = normalizeCredit(
      input({ captionTail: 'AFP PHOTO / CHRISTOF STACHE', creditLine: 'AFP/Getty Images' }),
      rules,
    );
    expect(credit).toMatchObject({
      agency: 'AFP',
      distributor: 'Getty Images',
      line: 'Christof Stache/AFP via Getty Images',
    });
  });

  it('never makes a creator of a placeholder or an organisation in By-line', () => {
    const credit = normalizeCredit(
      input({ byline: ['STR', 'REUTERS TV', 'HO', 'Ravi Menon/Shutterstock'], creditLine: 'Shutterstock' }),
      rules,
    );
    expect(credit.creators).toEqual(['Ravi Menon']);
    expect([credit.agency, credit.agencyId]).toEqual(['Shutterstock', 'SHUTTERSTOCK']);
  });

  it('marks a handout from an IIM Source of "HO"', () => {
    const credit = normalizeCredit(
      input({ byline: ['Annick deGooyer'], creditLine: 'The Canadian Press', source: 'HO' }),
      rules,
    );
    expect(credit).toMatchObject({
      creators: ['Annick deGooyer'],
      agency: 'The Canadian Press',
      agencyId: 'CP',
      confidence: 'high',
    });
    expect(credit.flags.handout).toBe(true);
  });

  it('falls back to Copyright for the agency only when it names a known agency', () => {
    expect(
      normalizeCredit(
        input({ byline: ['Mara Lindqvist'], copyright: 'Copyright 2026 The Associated Press. All rights reserved.' }),
        rules,
      ).agency,
    ).toBe('AP');
    expect(
      normalizeCredit(input({ byline: ['Christof Stache'], copyright: 'CHRISTOF STACHE' }), rules).agency,
    ).toBeNull();
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
    const credit = normalizeCredit(
      input({ byline: ['John Doe'], creditLine: 'Big Newspaper', source: 'John Doe / Big Newspaper' }),
      rules,
    );
    expect(credit).toMatchObject({ creators: ['John Doe'], agency: 'Big Newspaper', confidence: 'low' });
  });

  it('gives an empty, low-confidence credit when nothing is known', () => {
    const credit = normalizeCredit(input({}), rules);
    expect(credit).toMatchObject({
      creators: [],
      agency: null,
      distributor: null,
      line: null,
      confidence: 'low',
      rule: null,
    });
  });

  it('joins several creators in the house style', () => {
    const credit = normalizeCredit(input({ captionTail: '(Photo by John Smith and JANE DOE/Getty Images)' }), rules);
    expect(credit.creators).toEqual(['John Smith', 'Jane Doe']);
    expect(credit.line).toBe('John Smith and Jane Doe/Getty Images');
  });

  describe('issue 11: one name, the house line, what confidence asks a person to check', () => {
    it('holds the display name and the rules id of the agency and the distributor, and the schema accepts it', () => {
      const c = normalizeCredit(
        input({ captionTail: 'Jose Breton/NurPhoto/Shutterstock', creditLine: 'GETTY' }),
        rules,
      );
      expect(c).toMatchObject({
        agency: 'NurPhoto',
        agencyId: 'NURPHOTO',
        distributor: 'Shutterstock',
        distributorId: 'SHUTTERSTOCK',
      });
      expect(normalizeCredit(input({ creditLine: 'GETTY', byline: ['Oli Scarff'] }), rules)).toMatchObject({
        agency: 'Getty Images',
        agencyId: 'GETTY',
      });
      expect(normalizeCredit(input({ captionTail: 'Jane Roe/Acme Press' }), rules)).toMatchObject({
        agency: 'Acme Press',
        agencyId: null,
        confidence: 'medium',
      });
      expect(creditSchema.safeParse(c).success).toBe(true);
    });

    it('names Reuters TV as the distributor of "via Reuters TV"', () => {
      expect(
        normalizeCredit(input({ captionTail: 'REUTERS/Syria TV via Reuters TV', byline: ['REUTERS TV'] }), rules),
      ).toMatchObject({
        creators: [],
        agency: 'REUTERS',
        distributor: 'Reuters TV',
        distributorId: 'REUTERS_TV',
        partners: ['Syria TV'],
      });
    });

    it('is low when the caption tail names another photographer than the By-line, keeping both in raw', () => {
      const c = normalizeCredit(input({ captionTail: 'Leon Neal/AFP', byline: ['Peter Parker'] }), rules);
      expect(c).toMatchObject({ creators: ['Leon Neal'], agency: 'AFP', confidence: 'low' });
      expect(c.raw).toMatchObject({ captionTail: 'Leon Neal/AFP', byline: ['Peter Parker'] });
      // The same person written otherwise is no conflict; a shared particle ("van") is not a shared name.
      expect(normalizeCredit(input({ captionTail: 'Leon Neal/AFP', byline: ['LEON NEAL'] }), rules).confidence).toBe(
        'high',
      );
      expect(normalizeCredit(input({ captionTail: 'Leon Neal/AFP', byline: ['L. Neal/AFP'] }), rules).confidence).toBe(
        'high',
      );
      expect(
        normalizeCredit(input({ captionTail: '(AP Photo/Koen van Weel)', byline: ['Jan van Dijk'] }), rules).confidence,
      ).toBe('low');
    });

    it('never gives high to an agency the rules do not list: a bare word, a government body', () => {
      expect(normalizeCredit(input({ captionTail: 'Foto: Mustermann' }), rules).confidence).toBe('medium');
      expect(normalizeCredit(input({ captionTail: 'John Doe/Fooagency' }), rules).confidence).toBe('medium');
      expect(
        normalizeCredit(
          input({ captionTail: 'U.S. Navy photo by Mass Communication Specialist 2nd Class John Doe' }),
          rules,
        ),
      ).toMatchObject({
        creators: ['John Doe'],
        agency: 'U.S. Navy',
        confidence: 'medium',
      });
      // Partners the rules list (the Kremlin, NASA) are known.
      expect(normalizeCredit(input({ captionTail: '(Courtesy of the White House via AP)' }), rules).confidence).toBe(
        'high',
      );
    });

    it('makes a pure stock credit creator + distributor, with no agency', () => {
      expect(normalizeCredit(input({ captionTail: '© John Doe | Dreamstime.com' }), rules)).toMatchObject({
        creators: ['John Doe'],
        agency: null,
        agencyId: null,
        distributor: 'Dreamstime',
        distributorId: 'DREAMSTIME',
        line: 'John Doe/Dreamstime',
        confidence: 'high',
      });
    });

    it('keeps in the house line what the desk must print', () => {
      const line = (t: string) => normalizeCredit(input({ captionTail: t }), rules).line;
      expect(line('EPA-EFE/ANDY RAIN')).toBe('EPA-EFE/Andy Rain');
      expect(line('EPA/ANDY RAIN')).toBe('EPA/Andy Rain');
      expect(line('POOL/AFP')).toBe('POOL/AFP');
      expect(line('THE CANADIAN PRESS/HO-Annick deGooyer')).toBe('THE CANADIAN PRESS/HO-Annick deGooyer');
      expect(line('THE CANADIAN PRESS/Paul Chiasson')).toBe('THE CANADIAN PRESS/Paul Chiasson');
    });
  });
});
