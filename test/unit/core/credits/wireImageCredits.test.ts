import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';

/**
 * The IPTC fields of the shared wire-image fixtures as `exiftool -a -G1` reads them (the image
 * reader is another module's job): caption, By-line, Credit, Source, Copyright Notice.
 */
const FIXTURES = {
  'getty.jpg': {
    caption:
      "Austria's Matthias Mayer attends the men's downhill training of the FIS Alpine Skiing World Cup in Kitzbuehel, Austria, on January 22, 2015.       AFP PHOTO / CHRISTOF STACHECHRISTOF STACHE/AFP/Getty Images",
    byline: ['CHRISTOF STACHE'],
    credit: 'AFP/Getty Images',
    source: 'AFP',
    copyright: 'CHRISTOF STACHE',
  },
  'cp.jpg': {
    caption:
      'The Montreal Police logo is seen on a police car in Montreal on Wednesday, July 8, 2020. THE CANADIAN PRESS/Paul Chiasson',
    byline: ['Paul Chiasson'],
    credit: 'The Canadian Press',
    source: 'The Canadian Press',
    copyright: null,
  },
  'corbis.jpg': {
    caption:
      '01 Apr 2015, Akron, Ohio, USA --- April 1, 2015 - Akron, Ohio, U.S. - Former Navy SEAL CHRISTOPHER HEBEN gestures as he describes how he could only see the eyes for the driver of the car before he was shot during questioning by his lawyer James L. Burdon as he testifies in his own defense in Akron Municipal Court. Heben, 45, is charged with falsification and obstructing official business. (Credit Image: © Mike Cardew/TNS/ZUMA Wire) --- Image by © Mike Cardew/ZUMA Press/Corbis',
    byline: ['Mike Cardew'],
    credit: '© Mike Cardew/ZUMA Press/Corbis',
    source: 'Corbis',
    copyright: '© Corbis.  All Rights Reserved.',
  },
  'reuters-GM1EA7M13RP01-thumb.jpg': {
    caption:
      'Cast member Vin Diesel arrives at the premiere of "Guardians of the Galaxy" in Hollywood, California July 21, 2014. The movie opens in the U.S. on August 1. REUTERS/Mario Anzuoni  (UNITED STATES - Tags: ENTERTAINMENT)',
    byline: ['MARIO ANZUONI'],
    credit: 'REUTERS',
    source: 'X90045',
    copyright: null,
  },
  'reuters-LYNXMPEA6F0MS-thumb.jpg': {
    caption:
      "A still image taken from video shows Syria's President Bashar al-Assad arriving to be sworn in for a new seven-year term at the presidential palace in Damascus July 16, 2014.  REUTERS/Syria TV via Reuters TV",
    byline: ['REUTERS TV'],
    credit: 'REUTERS',
    source: 'X00514',
    copyright: null,
  },
  'pa.jpg': {
    caption:
      "File photo dated 24-06-2014 of England's Moeen Ali. PRESS ASSOCIATION Photo. Issue date: Thursday April 2, 2015. Moeen Ali is planning to join England for the latter stages of their Test tour of the West Indies, as his side injury continues to improve. See PA story CRICKET England Moeen. Photo credit should read Martin Rickett/PA Wire.",
    byline: ['Martin Rickett'],
    credit: 'PA',
    source: 'PA',
    copyright: 'PA Wire',
  },
  'GAC103-thumb.jpg': {
    caption:
      'West Kelowna resident Annick deGooyer and her husband Rob Baker went on a bus tour on Sept. 1 to take a first-hand look at their burned-down home in Traders Cove, seen in an undated handout photo, a place in which they have lived for over twenty years. THE CANADIAN PRESS/HO-Annick deGooyer, *MANDATORY CREDIT*',
    byline: ['Annick deGooyer'],
    credit: 'The Canadian Press',
    source: 'HO',
    copyright: null,
  },
  'Bush-dog.jpg': {
    caption:
      'President Bush, along with first lady, Laura Bush, and members of the Waco Midway Little League Softball World Series championship team, react as Bush accidentally drops his dog, Barney, Saturday, Aug. 30, 2003, at TSTC Airfield in Waco, Texas. Bush quickly scooped up the dog who was not injured. (AP Photo/Duane A. Laverty)',
    byline: ['DUANE A. LAVERTY'],
    credit: 'AP',
    source: 'AP',
    copyright: null,
  },
  'cech.jpg': {
    caption:
      '(FILE PHOTO) Petr Cech has announced he is retiring at the end of the season LONDON - AUGUST 20:  Czech Republic goalkeeper Petr Cech in action during the international friendly match between England and the Czech Republic at Wembley Stadium on August 20, 2008 in London, England.  (Photo by Phil Cole/Getty Images)',
    byline: ['Phil Cole'],
    credit: 'Getty Images',
    source: 'Getty Images Europe',
    copyright: '2008 Getty Images',
  },
  'iptc-staff-photographer-example.jpg': {
    caption:
      'After digging the furrows another ten yards with the tractor, Jim Moore hops off to hand-set more leeks and onions.',
    byline: ['John Doe'],
    credit: 'Big Newspaper',
    source: 'John Doe / Big Newspaper',
    copyright: '©2010 Big Newspaper, all rights reserved',
  },
} as const;

type Want = {
  creators: string[];
  agency: string | null;
  distributor: string | null;
  line: string | null;
  confidence: 'high' | 'medium' | 'low';
  dateCreated: string | null;
};
const WANT: Record<keyof typeof FIXTURES, Want> = {
  'getty.jpg': {
    creators: ['Christof Stache'],
    agency: 'AFP',
    distributor: 'Getty Images',
    line: 'Christof Stache/AFP via Getty Images',
    confidence: 'high',
    dateCreated: '2015-01-22',
  },
  'cp.jpg': {
    creators: ['Paul Chiasson'],
    agency: 'The Canadian Press',
    distributor: null,
    line: 'THE CANADIAN PRESS/Paul Chiasson',
    confidence: 'high',
    dateCreated: '2020-07-08',
  },
  'corbis.jpg': {
    creators: ['Mike Cardew'],
    agency: 'TNS',
    distributor: 'ZUMA Wire',
    line: 'Mike Cardew/TNS via ZUMA Wire',
    confidence: 'high',
    dateCreated: '2015-04-01',
  },
  'reuters-GM1EA7M13RP01-thumb.jpg': {
    creators: ['Mario Anzuoni'],
    agency: 'REUTERS',
    distributor: null,
    line: 'REUTERS/Mario Anzuoni',
    confidence: 'high',
    dateCreated: '2014-07-21',
  },
  'reuters-LYNXMPEA6F0MS-thumb.jpg': {
    creators: [],
    agency: 'REUTERS',
    distributor: 'Reuters TV',
    line: 'REUTERS',
    confidence: 'high',
    dateCreated: '2014-07-16',
  },
  'pa.jpg': {
    creators: ['Martin Rickett'],
    agency: 'PA',
    distributor: null,
    line: 'Martin Rickett/PA',
    confidence: 'high',
    dateCreated: '2014-06-24',
  },
  'GAC103-thumb.jpg': {
    creators: ['Annick deGooyer'],
    agency: 'The Canadian Press',
    distributor: null,
    line: 'THE CANADIAN PRESS/HO-Annick deGooyer',
    confidence: 'high',
    dateCreated: null,
  },
  'Bush-dog.jpg': {
    creators: ['Duane A. Laverty'],
    agency: 'AP',
    distributor: null,
    line: 'AP Photo/Duane A. Laverty',
    confidence: 'high',
    dateCreated: '2003-08-30',
  },
  'cech.jpg': {
    creators: ['Phil Cole'],
    agency: 'Getty Images',
    distributor: null,
    line: 'Phil Cole/Getty Images',
    confidence: 'high',
    dateCreated: '2008-08-20',
  },
  'iptc-staff-photographer-example.jpg': {
    creators: ['John Doe'],
    agency: 'Big Newspaper',
    distributor: null,
    line: 'John Doe/Big Newspaper',
    confidence: 'low',
    dateCreated: null,
  },
};

const rules = loadCreditRules();

describe('wire-image fixtures: credits consistent with their IPTC', () => {
  it.each(Object.entries(FIXTURES))('%s', (file, f) => {
    const cleaned = cleanCaption(f.caption);
    const credit = normalizeCredit(
      {
        captionTail: cleaned.creditTail,
        byline: [...f.byline],
        creditLine: f.credit,
        source: f.source,
        copyright: f.copyright,
      },
      rules,
    );
    const want = WANT[file as keyof typeof FIXTURES];
    expect({
      creators: credit.creators,
      agency: credit.agency,
      distributor: credit.distributor,
      line: credit.line,
      confidence: credit.confidence,
      dateCreated: cleaned.dateCreated,
    }).toEqual(want);
    expect(cleaned.caption).not.toMatch(/PHOTO \/|Photo by|Photo credit|REUTERS\/|CANADIAN PRESS\/|Credit Image|Tags:/);
  });

  it('flags what the agencies flagged', () => {
    const gac = FIXTURES['GAC103-thumb.jpg'];
    const credit = normalizeCredit(
      {
        captionTail: cleanCaption(gac.caption).creditTail,
        byline: [...gac.byline],
        creditLine: gac.credit,
        source: gac.source,
        copyright: null,
      },
      rules,
    );
    expect(credit.flags).toMatchObject({ handout: true, mandatory: true });
    const syria = FIXTURES['reuters-LYNXMPEA6F0MS-thumb.jpg'];
    const tv = normalizeCredit(
      {
        captionTail: cleanCaption(syria.caption).creditTail,
        byline: [...syria.byline],
        creditLine: syria.credit,
        source: syria.source,
        copyright: null,
      },
      rules,
    );
    expect(tv.partners).toEqual(['Syria TV']);
    const corbis = FIXTURES['corbis.jpg'];
    const zuma = normalizeCredit(
      {
        captionTail: cleanCaption(corbis.caption).creditTail,
        byline: [...corbis.byline],
        creditLine: corbis.credit,
        source: corbis.source,
        copyright: corbis.copyright,
      },
      rules,
    );
    expect(zuma.partners).toEqual(['Corbis']);
  });
});
