import { readRights } from '../../../../src/core/rights/readRights';
import { RESTRICTION_IDS, rightsSchema, type RestrictionId, type RightsSource } from '../../../../src/schemas/rights';

/**
 * Instruction strings written in the styles of AP, AFP, Reuters, Getty, EPA, PA, dpa and The
 * Canadian Press (special instructions, edNotes, usage terms, credits, captions). Held-back
 * material tests the class of each, not these strings.
 */

const instr = (text: string, source: RightsSource = 'iptc:specialInstructions') =>
  readRights({ texts: [{ source, text }] });
const outNames = (text: string, source: RightsSource = 'iptc:specialInstructions') =>
  instr(text, source).outMarkets.map((m) => m.name);

type Case = [style: string, text: string, restrictions: RestrictionId[], out?: string[]];
type Row = [style: string, text: string, restrictions: RestrictionId[], out: string[]];

const CASES: Case[] = [
  // AP
  ['AP', 'MANDATORY CREDIT; NO SALES; NO ARCHIVE', ['mandatory-credit', 'no-sales', 'no-archive']],
  ['AP', 'OUT: CANADA; NO SALES; MAGS OUT', ['no-sales', 'no-magazines'], ['Canada', 'magazines']],
  ['AP', 'OUT: CANADA, NO SALES', ['no-sales'], ['Canada']],
  [
    'AP',
    'MAGS OUT; NO SALES; TV OUT; INTERNET OUT',
    ['no-sales', 'no-magazines', 'no-tv', 'no-internet'],
    ['magazines', 'TV', 'internet'],
  ],
  ['AP', 'CANADA OUT; MANDATORY CREDIT', ['mandatory-credit'], ['Canada']],
  ['AP', 'NORTHAMPTON OUT; MANDATORY CREDIT', ['mandatory-credit'], ['Northampton']],
  ['AP', 'LOCAL TELEVISION OUT; LOCAL PRINT OUT; MANDATORY CREDIT', ['mandatory-credit', 'no-tv'], ['TV', 'print']],
  ['AP', 'JAPAN OUT, NO SALES, EDITORIAL USE ONLY', ['editorial-only', 'no-sales'], ['Japan']],
  [
    'AP',
    'ONLINE OUT; NO SALES; MANDATORY CREDIT: PHOTO BY THE WHITE HOUSE',
    ['no-sales', 'mandatory-credit', 'no-internet'],
    ['internet'],
  ],
  ['AP', 'OUT: U.K., CHINA AND SOUTH KOREA; NO ARCHIVE', ['no-archive'], ['United Kingdom', 'China', 'South Korea']],
  ['AP', 'TORONTO STAR OUT; NO SALES; MANDATORY CREDIT', ['no-sales', 'mandatory-credit'], ['Toronto Star']],
  // AFP
  [
    'AFP',
    'RESTRICTED TO EDITORIAL USE - MANDATORY CREDIT "AFP PHOTO / KENSINGTON PALACE / PRINCE OF WALES" - NO MARKETING NO ADVERTISING CAMPAIGNS - DISTRIBUTED AS A SERVICE TO CLIENTS',
    ['editorial-only', 'no-commercial', 'mandatory-credit', 'third-party-supplied'],
  ],
  [
    'AFP',
    'RESTRICTED TO EDITORIAL USE - MANDATORY MENTION OF THE ARTIST UPON PUBLICATION - TO ILLUSTRATE THE EVENT AS SPECIFIED IN THE CAPTION',
    ['editorial-only', 'mandatory-credit', 'news-context-only'],
  ],
  ['AFP', 'RESTRICTED TO EDITORIAL USE - NO USE IN BOOKS', ['editorial-only', 'no-books'], ['books']],
  [
    'AFP',
    '---EDITORS NOTE--- RESTRICTED TO EDITORIAL USE - MANDATORY CREDIT "AFP PHOTO / HO / SANA" - NO MARKETING NO ADVERTISING CAMPAIGNS - DISTRIBUTED AS A SERVICE TO CLIENTS - AFP is using pictures from alternative sources as it was not authorised to cover this event, which has been independently verified',
    ['editorial-only', 'no-commercial', 'mandatory-credit', 'handout', 'third-party-supplied'],
  ],
  ['AFP', 'RESTRICTED TO EDITORIAL USE / FRANCE OUT', ['editorial-only'], ['France']],
  // Reuters
  [
    'Reuters',
    'ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. IT IS DISTRIBUTED, EXACTLY AS RECEIVED BY REUTERS, AS A SERVICE TO CLIENTS. NO RESALES. NO ARCHIVES.',
    ['no-sales', 'no-archive', 'third-party-supplied'],
  ],
  [
    'Reuters',
    'ATTENTION EDITORS - THIS IMAGE WAS PROVIDED BY A THIRD PARTY. REUTERS IS UNABLE TO INDEPENDENTLY VERIFY THIS IMAGE. MANDATORY CREDIT. SYRIA OUT. NO COMMERCIAL OR EDITORIAL SALES IN SYRIA',
    ['mandatory-credit', 'third-party-supplied'],
    ['Syria'],
  ],
  [
    'Reuters',
    'SALESOUT NARCH EUO 3TP SYROUT',
    ['editorial-only', 'no-sales', 'no-archive', 'third-party-supplied'],
    ['Syria'],
  ],
  ['Reuters', 'EDITORIAL USE ONLY. NO RESALES. NO ARCHIVES', ['editorial-only', 'no-sales', 'no-archive']],
  [
    'Reuters',
    'FOR EDITORIAL USE ONLY - NOT FOR SALE FOR MARKETING OR ADVERTISING CAMPAIGNS',
    ['editorial-only', 'no-commercial'],
  ],
  ['Reuters', 'NO THIRD PARTY SALES. NOT FOR USE BY REUTERS THIRD PARTY DISTRIBUTORS', ['no-third-party-sales']],
  [
    'Reuters',
    'ISRAEL OUT. NO COMMERCIAL OR EDITORIAL SALES IN ISRAEL. MANDATORY CREDIT',
    ['mandatory-credit'],
    ['Israel'],
  ],
  ['Reuters', 'CHINA OUT. NO COMMERCIAL OR EDITORIAL SALES IN CHINA', [], ['China']],
  // Getty
  [
    'Getty',
    'EDITORIAL USE ONLY - MANDATORY CREDIT - "KENSINGTON PALACE / PRINCE OF WALES" - NO MARKETING NO ADVERTISING CAMPAIGNS - DISTRIBUTED AS A SERVICE TO CLIENTS - NO ARCHIVES',
    ['editorial-only', 'no-commercial', 'no-archive', 'mandatory-credit', 'third-party-supplied'],
  ],
  [
    'Getty',
    'THIS IMAGE IS FOR EDITORIAL USE ONLY. NO COMMERCIAL USE, MERCHANDISING, OR ENDORSEMENTS.',
    ['editorial-only', 'no-commercial'],
  ],
  // EPA
  ['EPA', 'HANDOUT EDITORIAL USE ONLY/NO SALES', ['editorial-only', 'no-sales', 'handout']],
  ['EPA', 'HANDOUT EDITORIAL USE ONLY/NO SALES/NO ARCHIVES', ['editorial-only', 'no-sales', 'no-archive', 'handout']],
  ['EPA', 'EDITORIAL USE ONLY, NO SALES, NO ARCHIVES', ['editorial-only', 'no-sales', 'no-archive']],
  ['EPA', 'POOL MANDATORY CREDIT', ['mandatory-credit', 'pool']],
  // PA
  [
    'PA',
    'Use subject to restrictions. Editorial use only. No commercial use. Call 44 (0)1158 447447 for further information.',
    ['editorial-only', 'no-commercial', 'restrictions-apply'],
  ],
  [
    'PA',
    'EDITORIAL USE ONLY No use with unauthorised audio, video, data, fixture lists, club/league logos or "live" services. Online in-match use limited to 120 images, no video emulation. No use in betting, games or single club/league/player publications.',
    ['editorial-only', 'no-betting-games', 'no-video-emulation'],
  ],
  [
    'PA',
    'RESTRICTIONS: Use subject to FA restrictions. Editorial use only. Commercial use only with prior written consent of the FA. No editing except cropping.',
    ['editorial-only', 'no-alteration', 'restrictions-apply', 'permission-required'],
  ],
  [
    'PA',
    'NOTE TO EDITORS: Editorial use only, no commercial use without prior written permission of Kensington Palace. No digital alteration, manipulation or modification of the picture is permitted.',
    ['editorial-only', 'no-commercial', 'no-alteration', 'permission-required'],
  ],
  [
    'PA',
    'Strictly no use in books or magazines without prior consent.',
    ['no-magazines', 'no-books', 'permission-required'],
    ['books', 'magazines'],
  ],
  // dpa
  [
    'dpa',
    'ACHTUNG: Nur zur redaktionellen Verwendung im Zusammenhang mit der aktuellen Berichterstattung und nur mit vollständiger Nennung des vorstehenden Credits',
    ['editorial-only', 'mandatory-credit', 'news-context-only'],
  ],
  ['dpa', 'Nutzung nur nach vertraglicher Vereinbarung', ['permission-required']],
  ['dpa', 'Keine Verwendung in Österreich', [], ['Austria']],
  // The Canadian Press
  [
    'CP',
    'HANDOUT PHOTO; ONE TIME USE ONLY; NO ARCHIVES; NotForResale; MANDATORY CREDIT THE CANADIAN PRESS PROVIDES ACCESS TO THIS HANDOUT PHOTO TO BE USED SOLELY TO ILLUSTRATE NEWS REPORTING OR COMMENTARY ON THE FACTS OR EVENTS DEPICTED IN THIS IMAGE. THIS IMAGE MAY BE USED ONLY FOR 14 DAYS FROM THE TIME OF TRANSMISSION',
    ['no-sales', 'no-archive', 'one-time-use', 'time-limited', 'mandatory-credit', 'handout', 'news-context-only'],
  ],
  ['CP', 'MANDATORY CREDIT - NO SALES - NO ARCHIVES', ['no-sales', 'no-archive', 'mandatory-credit']],
  ['CP', 'NO SALES - NO ARCHIVES - TORONTO STAR OUT', ['no-sales', 'no-archive'], ['Toronto Star']],
  ['CP', 'CANADA OUT - MANDATORY CREDIT', ['mandatory-credit'], ['Canada']],
  // IPTC reference files and other licensors
  ['IPTC', 'Newsmagazines Out', ['no-magazines'], ['magazines']],
  [
    'IPTC',
    'Newspapers Out, Original Artixscan 4000 of color negative file, 160 ISO (frame 35a) is 7.6 x 11.2 at 500ppi, in Adobe RGB.',
    ['no-newspapers'],
    ['newspapers'],
  ],
  [
    'IPTC',
    'No usage or third party sales granted without prior permission.',
    ['no-third-party-sales', 'permission-required'],
  ],
  ['Corbis', 'For latest restrictions check www.corbisimages.com', []],
  ['EFE', 'SOLO USO EDITORIAL/PROHIBIDA SU VENTA', ['editorial-only', 'no-sales']],
  [
    'AFP (French)',
    "USAGE EDITORIAL UNIQUEMENT - PAS DE VENTES - PAS D'ARCHIVES",
    ['editorial-only', 'no-sales', 'no-archive'],
  ],
];

describe('readRights on agency-style special instructions', () => {
  // Every row has its four values (no markets: []), so jest does not take a missing one for `done`.
  const rows: Row[] = CASES.map(([style, text, restrictions, out]) => [style, text, restrictions, out ?? []]);
  it.each(rows)('%s: %s', (_style, text, restrictions, out) => {
    const r = instr(text);
    expect(r.restrictions).toEqual([...restrictions].sort((a, b) => order(a) - order(b)));
    expect(r.outMarkets.map((m) => m.name)).toEqual(out);
    expect(() => rightsSchema.parse(r)).not.toThrow();
  });
});

function order(id: RestrictionId): number {
  return RESTRICTION_IDS.indexOf(id);
}

describe('markets', () => {
  it('normalizes places after OUT: and before OUT to countries with ISO codes, media to their ids', () => {
    const r = instr('OUT: CANADA, U.S.A. & NEW ZEALAND; MAGS OUT; SYROUT');
    expect(r.outMarkets).toEqual([
      { name: 'Canada', kind: 'country', code: 'CA', raw: 'CANADA' },
      { name: 'United States', kind: 'country', code: 'US', raw: 'U.S.A.' },
      { name: 'New Zealand', kind: 'country', code: 'NZ', raw: 'NEW ZEALAND' },
      { name: 'magazines', kind: 'medium', code: 'magazines', raw: 'MAGS' },
      { name: 'Syria', kind: 'country', code: 'SY', raw: 'SYR' },
    ]);
  });

  it('reads regions, home nations and unknown outlets written in capitals', () => {
    expect(outNames('NORTH AMERICA OUT; SCOTLAND OUT; MONTREAL GAZETTE OUT')).toEqual([
      'North America',
      'Scotland',
      'Montreal Gazette',
    ]);
    expect(instr('MONTREAL GAZETTE OUT').outMarkets[0]).toMatchObject({ kind: 'place', code: null });
  });

  it('reads out markets in usage terms and in German', () => {
    expect(
      outNames('Not available for license and invoicing to customers located in Finland.', 'xmp:xmpRights:UsageTerms'),
    ).toEqual(['Finland']);
    expect(
      instr('Not available for license and invoicing to customers located in Finland.', 'xmp:xmpRights:UsageTerms')
        .confidence,
    ).toBe('high');
    expect(outNames('Keine Verwendung in Deutschland und Österreich', 'newsml:usageTerms')).toEqual([
      'Germany',
      'Austria',
    ]);
  });

  it('reads the only markets a photo may be used in', () => {
    const r = instr('FOR USE ONLY IN GERMANY, AUSTRIA AND SWITZERLAND');
    expect(r.onlyMarkets.map((m) => m.code)).toEqual(['DE', 'AT', 'CH']);
    expect(r.outMarkets).toEqual([]);
    expect(instr('Verwendung nur in Deutschland', 'newsml:usageTerms').onlyMarkets.map((m) => m.name)).toEqual([
      'Germany',
    ]);
  });

  it('does not read words that only look like markets', () => {
    expect(outNames('SOLD OUT; NO SALES')).toEqual([]);
    expect(outNames('WAY OUT')).toEqual([]);
    expect(outNames('the team was knocked out in the semi-final')).toEqual([]);
  });
});

describe('credits and captions', () => {
  const credit = (text: string) => readRights({ texts: [{ source: 'iptc:credit', text }] });
  const caption = (text: string) => readRights({ texts: [{ source: 'caption', text }] });

  it('reads handout, pool and mandatory credit from credit lines', () => {
    expect(credit('HO/Kensington Palace/AFP').restrictions).toEqual(['handout']);
    expect(credit('Handout via REUTERS').restrictions).toEqual(['handout']);
    expect(credit('Pool Photo via AP').restrictions).toEqual(['pool']);
    expect(credit('Jacquelyn Martin/Pool via REUTERS').restrictions).toEqual(['pool']);
    expect(credit('Mandatory Credit: Photo by Jose Breton/NurPhoto/Shutterstock (16507315bs)').restrictions).toEqual([
      'mandatory-credit',
    ]);
  });

  it('does not read a Vietnamese name or a plain credit as a handout', () => {
    expect(credit('Ho Van Nam/AP').restrictions).toEqual([]);
    expect(credit('AP Photo/Evan Vucci').restrictions).toEqual([]);
    expect(credit('Dominic Lipinski/PA').restrictions).toEqual([]);
  });

  it('reads notices written in capitals inside captions and AP-style handout wording', () => {
    expect(
      caption(
        'Smoke rises over the city. REUTERS/Stringer ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. NO RESALES. NO ARCHIVES.',
      ).restrictions,
    ).toEqual(['no-sales', 'no-archive', 'third-party-supplied']);
    expect(
      caption('In this photo provided by the U.S. Navy, sailors stand on the deck of the USS Carney.').restrictions,
    ).toEqual(['handout']);
    expect(
      caption('This handout photo released by Kensington Palace shows the Princess of Wales.').restrictions,
    ).toEqual(['handout']);
  });

  it('does not read ordinary caption prose as restrictions', () => {
    const negatives = [
      'Children cool off in a swimming pool during a heatwave in Madrid, Spain, July 10, 2023.',
      'A volunteer gives out food during a handout in Gaza City.',
      'Fans celebrate after the match. LIGHTS OUT AT THE STADIUM',
      'TURKEY OUT OF WORLD CUP AFTER DEFEAT',
      'NO SALES TAX ON FOOD, SAYS MINISTER',
      'The editorial board of the newspaper meets in New York.',
      'The house is not for sale, the owner said.',
      'Workers archive documents at the national library.',
      'Pool party: guests jump into the water at a hotel in Las Vegas.',
      'The sale of the club was completed on Monday. There was no sale of tickets.',
    ];
    for (const text of negatives)
      expect({ text, r: caption(text).restrictions, m: caption(text).outMarkets }).toEqual({ text, r: [], m: [] });
  });
});

describe('advisories', () => {
  it('reads file photos, illustrations, quality, verification and graphic warnings', () => {
    expect(instr('EDS NOTE:A FILE PHOTO').advisories).toEqual(['file-photo']);
    expect(instr('FILE - In this Sept. 5, 2019, file photo, a man walks past.').advisories).toEqual(['file-photo']);
    expect(instr('(EDITORS NOTE: This image has been digitally altered)').advisories).toEqual(['photo-illustration']);
    expect(instr('BEST QUALITY AVAILABLE').advisories).toEqual(['best-quality-available']);
    expect(instr('WARNING: GRAPHIC CONTENT').advisories).toEqual(['graphic-content']);
    expect(
      instr(
        'THIS PICTURE WAS PROCESSED BY REUTERS TO ENHANCE QUALITY. AN UNPROCESSED VERSION HAS BEEN PROVIDED SEPARATELY.',
      ).advisories,
    ).toEqual(['processed']);
    expect(
      instr(
        'REUTERS IS UNABLE TO INDEPENDENTLY VERIFY THIS IMAGE. THIS IMAGE HAS BEEN DISTRIBUTED EXACTLY AS RECEIVED BY REUTERS',
      ).advisories,
    ).toEqual(['unverified', 'distributed-as-received']);
    expect(
      instr('AFP is using pictures from alternative sources, which has been independently verified').advisories,
    ).toEqual([]);
  });

  it('does not take "file" in prose for a file photo', () => {
    expect(
      readRights({ texts: [{ source: 'caption', text: 'Lawyers file a motion in court in Miami.' }] }).advisories,
    ).toEqual([]);
    expect(instr('Please file your pictures by 6pm').advisories).toEqual([]);
  });
});

describe('provenance, raw input and confidence', () => {
  it('keeps every input as received, by source, and says which rule matched', () => {
    const texts = [
      { source: 'iptc:specialInstructions' as const, text: 'NO ARCHIVES' },
      { source: 'xmp:photoshop:Instructions' as const, text: 'NO ARCHIVES' },
      { source: 'xmp:xmpRights:WebStatement' as const, text: 'https://example.com/terms' },
      { source: 'xmp:plus:Licensor' as const, text: 'Mugwum Press' },
      { source: 'caption' as const, text: '' },
    ];
    const r = readRights({ texts });
    expect(r.raw).toEqual(texts);
    expect(r.matched).toEqual([
      {
        rule: 'NO ARCHIVES|ARCHIVE|ARCHIVING|ARCHIVAL',
        type: 'restriction',
        value: 'no-archive',
        source: 'iptc:specialInstructions',
        text: 'NO ARCHIVES',
      },
    ]);
    expect(r.rulesVersion).toMatch(/^\d{4}\.\d+\.\d+$/);
  });

  it('gives the usage terms as written, else the instructions that restrict', () => {
    expect(
      instr('Licensed to Big Larch Publishing, all other rights reserved.', 'xmp:xmpRights:UsageTerms').usageTerms,
    ).toBe('Licensed to Big Larch Publishing, all other rights reserved.');
    expect(instr('NO SALES; NO ARCHIVE').usageTerms).toBe('NO SALES; NO ARCHIVE');
    expect(instr('What instructions').usageTerms).toBeNull();
  });

  it('lists restriction words it could not read and lowers its confidence, inventing nothing', () => {
    const r = instr('MANDATORY CREDIT; NO FORNS; NOT FOR TRANSMISSION TO SUBSCRIBERS OF FEED B');
    expect(r.restrictions).toEqual(['mandatory-credit']);
    expect(r.confidence).toBe('low');
    expect(r.unread).toEqual(['NO FORNS', 'NOT FOR TRANSMISSION TO SUBSCRIBERS OF FEED B']);
    expect(instr('NO SALES').confidence).toBe('high');
    expect(instr('Special instructions: call the desk').confidence).toBe('high');
  });

  it('reads PLUS model and property release statuses', () => {
    const r = readRights({
      texts: [
        { source: 'xmp:plus:ModelReleaseStatus', text: 'http://ns.useplus.org/ldf/vocab/MR-NON' },
        { source: 'xmp:plus:PropertyReleaseStatus', text: 'PR-NON' },
      ],
    });
    expect(r.restrictions).toEqual(['model-release-missing', 'property-release-missing']);
    expect(
      readRights({ texts: [{ source: 'xmp:plus:ModelReleaseStatus', text: 'http://ns.useplus.org/ldf/vocab/MR-UMR' }] })
        .restrictions,
    ).toEqual([]);
    expect(instr('NO MODEL RELEASE').restrictions).toEqual(['model-release-missing']);
  });

  it('reads PLUS credit-line and alteration codes and the IPTC digital source type; codes that allow say nothing', () => {
    const coded = (source: RightsSource, text: string) => readRights({ texts: [{ source, text }] });
    expect(coded('xmp:plus:CreditLineRequired', 'http://ns.useplus.org/ldf/vocab/CR-COI').restrictions).toEqual([
      'mandatory-credit',
    ]);
    expect(coded('xmp:plus:CreditLineRequired', 'http://ns.useplus.org/ldf/vocab/CR-NRQ').restrictions).toEqual([]);
    expect(coded('xmp:plus:ImageAlterationConstraints', 'AL-MRG').restrictions).toEqual(['no-alteration']);
    expect(coded('xmp:plus:ImageAlterationConstraints', 'something else').restrictions).toEqual([]);
    const ai = coded(
      'xmp:Iptc4xmpExt:DigitalSourceType',
      'http://cv.iptc.org/newscodes/digitalsourcetype/compositeWithTrainedAlgorithmicMedia',
    );
    expect(ai.advisories).toEqual(['photo-illustration']);
    expect(
      coded('xmp:Iptc4xmpExt:DigitalSourceType', 'http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture')
        .advisories,
    ).toEqual([]);
    expect(
      coded(
        'xmp:Iptc4xmpExt:DigitalSourceType',
        'http://cv.iptc.org/newscodes/digitalsourcetype/algorithmicallyEnhanced',
      ).advisories,
    ).toEqual(['processed']);
    expect(coded('xmp:plus:OtherConstraints', 'NO ARCHIVES').restrictions).toEqual(['no-archive']);
  });

  it('reads copyright owners and suppliers only into raw', () => {
    const r = readRights({
      texts: [
        { source: 'xmp:plus:ImageSupplier', text: 'HANDOUT SUPPLIES LTD' },
        { source: 'nitf:doc.copyright', text: 'NO ARCHIVE INC' },
      ],
    });
    expect(r.restrictions).toEqual([]);
    expect(r.raw).toHaveLength(2);
  });
});
