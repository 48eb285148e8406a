import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { readSeedGallery } from '../credits/sharedFixtures';

const rules = loadCreditRules();
const items = readSeedGallery();

type Expected = { creators: string[]; agency: string; distributor: string | null; line: string; file?: boolean };
const pa = (name: string): Expected => ({ creators: [name], agency: 'PA', distributor: null, line: `${name}/PA` });
const afp = (name: string, file = false): Expected => ({
  creators: [name],
  agency: 'AFP',
  distributor: 'Getty Images',
  line: `${name}/AFP via Getty Images`,
  file,
});
const getty = (name: string): Expected => ({
  creators: [name],
  agency: 'Getty Images',
  distributor: null,
  line: `${name}/Getty Images`,
});
const ap = (name: string): Expected => ({
  creators: [name],
  agency: 'AP',
  distributor: null,
  line: `AP Photo/${name}`,
});

const EXPECTED: Record<string, Expected> = {
  '01': pa('Dominic Lipinski'),
  '02': pa('Dominic Lipinski'),
  '03': pa('Dominic Lipinski'),
  '04': pa('Yui Mok'),
  '05': pa('Yui Mok'),
  '06': pa('Lewis Whyld'),
  '07': pa('Dominic Lipinski'),
  '08': pa('Dominic Lipinski'),
  '09': pa('Dominic Lipinski'),
  '10': pa('Dominic Lipinski'),
  '11': pa('Dominic Lipinski'),
  '12': afp('Leon Neal'),
  '13': afp('Leon Neal'),
  '14': afp('Leon Neal'),
  '15': afp('Leon Neal'),
  '16': getty('Oli Scarff'),
  '17': afp('Carl Court'),
  '18': afp('Carl Court', true),
  '19': getty('Oli Scarff'),
  '20': getty('Oli Scarff'),
  '21': afp('Miguel Medina'),
  '22': getty('Oli Scarff'),
  '23': afp('Miguel Medina'),
  '24': afp('Geoff Caddick'),
  '25': afp('Ben Stansall'),
  '26': afp('Ben Stansall'),
  '27': getty('Oli Scarff'),
  '28': afp('Leon Neal'),
  '29': afp('Leon Neal', true),
  '30': getty('Oli Scarff'),
  '31': afp('Leon Neal'),
  '32': ap('Lefteris Pitarakis'),
  '33': ap('Lefteris Pitarakis'),
  '34': ap('Lefteris Pitarakis'),
  '35': ap('Lefteris Pitarakis'),
  '36': ap('Lefteris Pitarakis'),
  '37': ap('Lefteris Pitarakis'),
  '38': ap('Lefteris Pitarakis'),
  '39': ap('Dolores Ochoa'),
  '40': ap('Tim Hales'),
  '41': ap('Tim Hales'),
};

const byCounter = new Map(items.map((i) => [i.counter, i]));
const clean = (counter: string) =>
  cleanCaption(byCounter.get(counter)!.caption, { title: byCounter.get(counter)!.title });

describe('the seed gallery', () => {
  it('has 41 items', () => {
    expect(items.map((i) => i.counter)).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(items.map((i) => [i.counter, i] as const))('item %s', (counter, item) => {
    const cleaned = cleanCaption(item.caption, { title: item.title });
    const credit = normalizeCredit(
      { captionTail: cleaned.creditTail, byline: [], creditLine: null, source: null, copyright: null },
      rules,
    );

    it('has the right credit', () => {
      const want = EXPECTED[counter];
      expect({
        creators: credit.creators,
        agency: credit.agency,
        distributor: credit.distributor,
        line: credit.line,
      }).toEqual({
        creators: want.creators,
        agency: want.agency,
        distributor: want.distributor,
        line: want.line,
      });
      expect(credit.flags.file).toBe(want.file ?? false);
      expect(credit.confidence).toBe('high');
    });

    it('loses the credit tail and publisher suffix and keeps the rest of the text', () => {
      expect(cleaned.caption).not.toMatch(/\(credit:|Photo credit|AFP PHOTO|\(Photo by|\(AP Photo|of41\)|See PA story/);
      expect(cleaned.removed.find((r) => r.kind === 'credit-tail')?.text).toBe(
        cleaned.creditTail!.replace(/\s*\(credit:[^)]*\)$/, ''),
      );
      // Whatever is not a removed part is the caption, word for word and in order.
      let rebuilt = item.caption;
      for (const r of cleaned.removed) rebuilt = rebuilt.replace(r.text, ' ');
      const words = (s: string) => s.split(/\s+/).filter(Boolean);
      expect(words(cleaned.caption).map((w) => w.toLowerCase())).toEqual(words(rebuilt).map((w) => w.toLowerCase()));
    });
  });

  it('gives exact cleaned captions', () => {
    expect(clean('02').caption).toBe(
      'Masked supporters of Julian Assange outside the Embassy of Ecuador in Knightsbridge, central London, as the diplomatic row between the UK and Ecuador over WikiLeaks founder Julian Assange deepened after the Foreign Office said the Government would seek to extradite him even if he is granted political asylum by the South American nation. The Ecuadorian authorities have accused the Government of threatening to enter its embassy in London to seize Mr Assange, who faces sexual assault charges in Sweden.',
    );
    expect(clean('02').removed).toEqual([
      { kind: 'story-ref', text: 'See PA story LEGAL Assange.' },
      { kind: 'credit-tail', text: 'Photo credit: Dominic Lipinski/PA' },
    ]);
    expect(clean('06').caption).toBe(
      'Julian Assange. The UK Government has told the Ecuadorian authorities it believes it can enter its embassy in London and arrest the WikiLeaks founder, who is seeking political asylum in the South American country, sources said.',
    );
    expect(clean('06').removed[0]).toEqual({ kind: 'file-marker', text: 'File photo dated 27/2/2012 of' });
    expect(clean('12').caption).toBe(
      "A supporter of Wikileaks founder Julian Assange stands with placards outside the Supreme Court in central London on May 30, 2012 ahead of the verdict on Assange's bid to avoid extradition to Sweden. Britain's Supreme Court ruled that Assange can be extradited to Sweden over alleged sex crimes, as it rejected his appeal.",
    );
    expect(clean('12').removed).toEqual([
      { kind: 'credit-tail', text: 'AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages)' },
      { kind: 'publisher-suffix', text: '(credit:Getty)' },
    ]);
    expect(clean('12').creditTail).toBe(
      'AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages) (credit:Getty)',
    );
    expect(clean('18').caption).toMatch(
      /^In a file photo taken on February 27, 2012, WikiLeaks founder Julian Assange talks during a press conference in central London\. /,
    );
    expect(clean('18').caption).toMatch(/announced on March 17, 2012 on Twitter\.$/);
    expect(clean('29').caption).toMatch(/^A file photo taken on November 2, 2011, shows WikiLeaks founder/);
    expect(clean('40').caption).toBe(
      'Demonstrators protest outside the Ecuadorian Embassy, London, Thursday June 21, 2012. Wikileaks founder Julian Assange entered the embassy on Tuesday in an attempt to gain political asylum.',
    );
  });

  it('reads dates and datelines', () => {
    expect(clean('16')).toMatchObject({
      dateCreated: '2012-05-30',
      dateline: { text: 'LONDON, ENGLAND - MAY 30', city: 'London', state: null, country: 'England' },
    });
    expect(clean('06')).toMatchObject({ dateCreated: '2012-02-27', dateline: null });
    expect(clean('32')).toMatchObject({ dateCreated: '2012-06-22', dateline: null });
    expect(clean('12')).toMatchObject({ dateCreated: '2012-05-30', dateline: null });
    // The photo's own date wins over a later one in the text.
    expect(clean('18').dateCreated).toBe('2012-02-27');
    expect(clean('29').dateCreated).toBe('2011-11-02');
    expect(clean('19')).toMatchObject({ dateCreated: '2012-02-02', dateline: { city: 'London', country: 'England' } });
  });
});
