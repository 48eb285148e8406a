import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { normalizeCredit, type CreditInput } from '../../../../src/core/credits/normalizeCredit';
import { defaultCreditRules } from '../../../../src/core/credits/rules';

/**
 * Credits from outside the big five wires, one class at a time (rules 2026.12.3, RULES.md "Credits
 * from the wider world"). Strings are real credits or written the way their sources write them.
 */
const rules = defaultCreditRules();
const credit = (captionTail: string, more: Partial<CreditInput> = {}) =>
  normalizeCredit({ captionTail, byline: [], creditLine: null, source: null, copyright: null, ...more }, rules);
const split = (captionTail: string, more: Partial<CreditInput> = {}) => {
  const c = credit(captionTail, more);
  return { creators: c.creators, agency: c.agency, distributor: c.distributor };
};

describe('1. chains of three: the first organisation is the agency, the last the distributor', () => {
  it('keeps a member paper as the agency of an AP photo, never as a second photographer', () => {
    expect(split('Luis Sánchez Saturno/Santa Fe New Mexican/AP')).toEqual({
      creators: ['Luis Sánchez Saturno'],
      agency: 'Santa Fe New Mexican',
      distributor: 'AP',
    });
  });
  it('keeps dpa as the distributor of an AP or Europa Press picture', () => {
    expect(split('Markus Schreiber/AP/dpa')).toEqual({
      creators: ['Markus Schreiber'],
      agency: 'AP',
      distributor: 'dpa',
    });
    expect(split('Eduardo Parra/EUROPA PRESS/dpa')).toEqual({
      creators: ['Eduardo Parra'],
      agency: 'Europa Press',
      distributor: 'dpa',
    });
    expect(split('Koji Sasahara/Kyodo/Reuters')).toEqual({
      creators: ['Koji Sasahara'],
      agency: 'Kyodo',
      distributor: 'REUTERS',
    });
  });
  it('still reads a photographer named twice and agency-first chains as before', () => {
    expect(split('(Photo by Samir Hussein/Samir Hussein/WireImage)')).toEqual({
      creators: ['Samir Hussein'],
      agency: 'Getty Images',
      distributor: null,
    });
    expect(credit('EPA-EFE/JUSTIN LANE')).toMatchObject({ agency: 'EPA', distributor: null, partners: ['EFE'] });
  });
});

describe('2. pools: the supplier the Source names, the via agency distributing', () => {
  it('makes the pool supplier the agency and keeps "Pool via AP" in the line', () => {
    const c = credit('(Andrew Harnik/Pool via AP)', { byline: ['Andrew Harnik'], source: 'POOL Getty Images' });
    expect(c).toMatchObject({
      creators: ['Andrew Harnik'],
      agency: 'Getty Images',
      distributor: 'AP',
      line: 'Andrew Harnik/Pool via AP',
      confidence: 'high',
    });
    expect(c.flags.pool).toBe(true);
  });
  it("leaves an AP pool photographer AP's, whatever the Source", () => {
    expect(credit('(AP Photo/Hiro Komae, Pool)', { byline: ['Hiro Komae'], source: 'Pool AP' })).toMatchObject({
      agency: 'AP',
      distributor: null,
      line: 'AP Photo/Hiro Komae, Pool',
    });
  });
});

describe('3. stock aliases', () => {
  it('reads "Getty Images/iStockphoto" as iStock distributed by Getty Images, the handle as a guessed creator', () => {
    expect(credit('Getty Images/iStockphoto', { byline: ['vgajic'] })).toMatchObject({
      creators: ['vgajic'],
      agency: 'iStock',
      agencyId: 'ISTOCK',
      distributor: 'Getty Images',
      confidence: 'low',
    });
  });
});

describe('4. prefixes before the credit are never the creator', () => {
  it('drops "DIGITAL IMAGE." before Mandatory Credit and sets the mandatory flag', () => {
    const c = credit('DIGITAL IMAGE. Mandatory Credit: Tom Jenkins/Getty Images');
    expect(c).toMatchObject({ creators: ['Tom Jenkins'], agency: 'Getty Images', line: 'Tom Jenkins/Getty Images' });
    expect(c.flags.mandatory).toBe(true);
  });
  it('reads "created by X using <generative tool>" as X, with the photo-illustration flag', () => {
    const c = credit('Image created by Jane Doe using Midjourney');
    expect(c).toMatchObject({ creators: ['Jane Doe'], agency: null, confidence: 'low' });
    expect(c.flags.illustration).toBe(true);
    expect(credit('Photo by Jane Doe/Getty Images').flags.illustration).toBeUndefined();
  });
  it('reads the labels of the Guardian, dpa and Lehtikuva', () => {
    expect(split('Photograph: Sarah Lee.')).toEqual({ creators: ['Sarah Lee'], agency: null, distributor: null });
    expect(split('Photo: Kay Nietfeld/dpa')).toEqual({ creators: ['Kay Nietfeld'], agency: 'dpa', distributor: null });
    expect(split('Kuva: Markku Ulander / Lehtikuva')).toEqual({
      creators: ['Markku Ulander'],
      agency: 'Lehtikuva',
      distributor: null,
    });
  });
});

describe('5. studios and companies', () => {
  it("gives a person's studio its owner as creator and keeps the studio as the agency", () => {
    expect(credit('Jane Doe Photography LLC')).toMatchObject({
      creators: ['Jane Doe'],
      agency: 'Jane Doe Photography LLC',
      confidence: 'medium',
    });
    expect(split('JOHN SMITH PHOTO LTD')).toEqual({
      creators: ['John Smith'],
      agency: 'JOHN SMITH PHOTO LTD',
      distributor: null,
    });
  });
  it('gives an organisation-only line an agency and no creator', () => {
    expect(split('HEALY RACING PHOTO')).toEqual({ creators: [], agency: 'HEALY RACING', distributor: null });
    expect(split('RACINGFOTOS.COM')).toEqual({ creators: [], agency: 'RACINGFOTOS.COM', distributor: null });
  });
});

describe('6. one-word credits', () => {
  it('keeps a first name, a surname in capitals and a handle as the creator, at low confidence', () => {
    expect(credit('Patrik')).toMatchObject({ creators: ['Patrik'], agency: null, confidence: 'low' });
    expect(credit('MUSTERMANN')).toMatchObject({ creators: ['Mustermann'], agency: null, confidence: 'low' });
    expect(credit('(Credit: @leogronlund_outdoors)')).toMatchObject({
      creators: ['@leogronlund_outdoors'],
      agency: null,
      confidence: 'low',
    });
  });
  it('never makes a known given name an agency, even in the IPTC Credit field', () => {
    expect(credit('Eric')).toMatchObject({ creators: ['Eric'], agency: null, confidence: 'low' });
    expect(
      normalizeCredit({ captionTail: null, byline: [], creditLine: 'Eric', source: null, copyright: null }, rules)
        .agency,
    ).toBeNull();
  });
  it('still reads a one-word organisation as one (medium) and an agency photographer as before', () => {
    expect(credit('(Photo by DPPI)')).toMatchObject({ creators: [], agency: 'DPPI', confidence: 'medium' });
    expect(credit('(AP Photo/Libkos)')).toMatchObject({ creators: ['Libkos'], agency: 'AP', confidence: 'high' });
  });
});

describe('7. government and archives', () => {
  it('reads the Navy rank and a By-line cut at 32 bytes inside it', () => {
    const byline = "Photographer's Mate 3rd Class (A"; // IIM 2:80 keeps 32 bytes
    expect(
      credit("U.S. Navy photo by Photographer's Mate 3rd Class (AW) Elizabeth Thompson", { byline: [byline] }),
    ).toMatchObject({
      creators: ['Elizabeth Thompson'],
      agency: 'U.S. Navy',
      confidence: 'medium',
    });
  });
  it('reads one-word services, "/Released" and a name with ", Jr."', () => {
    expect(split('(DOD photo by Sgt. 1st Class Raymond Piper)')).toEqual({
      creators: ['Raymond Piper'],
      agency: 'DOD',
      distributor: null,
    });
    expect(split('( Navy photo by Mass Communication Specialist 3rd Class Alex Corona/Released)')).toEqual({
      creators: ['Alex Corona'],
      agency: 'Navy',
      distributor: null,
    });
    expect(split('(U.S. Navy photo by Mass Communication Specialist 2nd Class Huey D. Younger, Jr./Released)')).toEqual(
      {
        creators: ['Huey D. Younger Jr.'],
        agency: 'U.S. Navy',
        distributor: null,
      },
    );
    expect(split('National Archives and Records Administration')).toEqual({
      creators: [],
      agency: 'National Archives and Records Administration',
      distributor: null,
    });
  });
});

describe('8. science credits', () => {
  it('makes the people creators and the space agencies agency and partner; institutes are neither', () => {
    expect(credit('NASA, ESA, Jane Doe (STScI), and John Roe (JHU)')).toMatchObject({
      creators: ['Jane Doe', 'John Roe'],
      agency: 'NASA',
      partners: ['ESA'],
    });
    expect(credit('(Photo by NASA/ESA/Hubble Heritage Team (STScI/AURA) via AP Photo)')).toMatchObject({
      creators: [],
      agency: 'NASA',
      distributor: 'AP',
    });
  });
});

describe('9. not a credit at all', () => {
  it('gives a camera info block and a camera default no credit and no creator', () => {
    for (const text of ['Breite (GPS) : N/A\r\nLänge (GPS) : N/A', 'OLYMPUS DIGITAL CAMERA']) {
      expect(credit(text)).toMatchObject({ creators: [], agency: null, partners: [], confidence: 'low' });
    }
  });
});

describe('10. Reuters tails', () => {
  it('keeps the photographer before SEARCH ... FOR THIS STORY', () => {
    const tail =
      'REUTERS/Ivan Alvarado      SEARCH "GLOBAL POY" FOR THIS STORY. SEARCH "WIDER IMAGE" FOR ALL STORIES. TPX IMAGES OF THE DAY';
    expect(credit(tail)).toMatchObject({
      creators: ['Ivan Alvarado'],
      agency: 'REUTERS',
      line: 'REUTERS/Ivan Alvarado',
      confidence: 'high',
    });
  });
});

describe('caption tails', () => {
  const clean = (s: string) => cleanCaption(s, { rules });
  it('removes the Guardian\'s "Photograph: Name." and "Photo: Name." at the end as the credit tail', () => {
    for (const label of ['Photograph', 'Photo']) {
      const c = clean(`Protesters gather outside parliament in London on Tuesday. ${label}: Sarah Lee.`);
      expect(c.caption).toBe('Protesters gather outside parliament in London on Tuesday.');
      expect(c.removed).toEqual([{ kind: 'credit-tail', text: `${label}: Sarah Lee.` }]);
    }
  });
  it('removes a credit in capitals ending in PHOTO', () => {
    const c = clean('Rachael Blackmore returns to the parade ring at Cheltenham on Tuesday. HEALY RACING PHOTO');
    expect(c.caption).toBe('Rachael Blackmore returns to the parade ring at Cheltenham on Tuesday.');
    expect(c.removed).toEqual([{ kind: 'credit-tail', text: 'HEALY RACING PHOTO' }]);
  });
  it("removes dpa's story reference as PA's is removed: kind story-ref", () => {
    const dpa = clean(
      'Ein Polizist steht vor dem Bundestag in Berlin. (zu dpa "Streit um Haushalt geht weiter") Foto: Kay Nietfeld/dpa',
    );
    expect(dpa.caption).toBe('Ein Polizist steht vor dem Bundestag in Berlin.');
    expect(dpa.removed.map((r) => r.kind)).toEqual(['story-ref', 'credit-tail']);
    const pa = clean(
      'Fans outside the ground in Leeds. See PA story SOCCER Leeds. Photo credit should read: Danny Lawson/PA Wire.',
    );
    expect(pa.removed.map((r) => r.kind)).toEqual(['story-ref', 'credit-tail']);
  });
  it('never cuts inside a camera info block', () => {
    const c = clean('Blick auf den Hafen von Hamburg am Morgen. Breite (GPS) : N/A\r\nLänge (GPS) : N/A');
    expect(c.caption).toBe('Blick auf den Hafen von Hamburg am Morgen. Breite (GPS) : N/A Länge (GPS) : N/A');
    expect(c.removed).toEqual([]);
    expect(c.creditTail).toBeNull();
  });
});
