import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { expectedOrg } from './sharedFixtures';

/**
 * Credit strings in the shapes the wires send, beyond the dev file: one row each of raw text,
 * creators, agency, distributor and the flags that must be set (others must not be).
 */
type Row = [raw: string, creators: string[], agency: string | null, distributor: string | null, flags?: string[]];

const ROWS: Row[] = [
  // AP
  ['(AP Photo/Evan Vucci)', ['Evan Vucci'], 'AP', null],
  ['(AP Photo)', [], 'AP', null],
  ['(AP Photo/Mark J. Terrill, File)', ['Mark J. Terrill'], 'AP', null, ['file']],
  ['AP Photo/Susan Walsh, File', ['Susan Walsh'], 'AP', null, ['file']],
  ['(AP Photo/Markus Schreiber, Pool)', ['Markus Schreiber'], 'AP', null, ['pool']],
  ['(Mike Segar/Pool Photo via AP)', ['Mike Segar'], 'AP', null, ['pool']],
  ['(Pool Photo by Jane Doe via AP)', ['Jane Doe'], 'AP', null, ['pool']],
  ['(Brendan Smialowski/Pool via AP)', ['Brendan Smialowski'], 'AP', null, ['pool']],
  ['(Jim Smith/The Gazette via AP)', ['Jim Smith'], 'The Gazette', 'AP'],
  ['(Courtesy of the White House via AP)', [], 'White House', 'AP', ['handout']],
  ['(Chris Pizzello/Invision/AP)', ['Chris Pizzello'], 'INVISION', 'AP'],
  ['(Yonhap via AP)', [], 'YONHAP', 'AP'],
  ['Alex Brandon/AP', ['Alex Brandon'], 'AP', null],
  ['(AP Photo/Str)', [], 'AP', null],
  ['(AP Photo/Evan Vucci) EDITORIAL USE ONLY', ['Evan Vucci'], 'AP', null],
  ['(AP Photo/Jae C. Hong)', ['Jae C. Hong'], 'AP', null],
  // AFP and AFP via Getty
  ['JIM WATSON/AFP via Getty Images', ['Jim Watson'], 'AFP', 'Getty Images'],
  ['(Photo by LUDOVIC MARIN/POOL/AFP via Getty Images)', ['Ludovic Marin'], 'AFP', 'Getty Images', ['pool']],
  ['(Photo by Ludovic MARIN / POOL / AFP)', ['Ludovic Marin'], 'AFP', null, ['pool']],
  ['Photo by STR/AFP via Getty Images', [], 'AFP', 'Getty Images'],
  ['(Photo by -/AFP via Getty Images)', [], 'AFP', 'Getty Images'],
  ['HO/AFP', [], 'AFP', null, ['handout']],
  ['AFP PHOTO / HO / US NAVY', [], 'AFP', null, ['handout']],
  ['AFP PHOTO / FILES / GEORGES GOBET', ['Georges Gobet'], 'AFP', null, ['file']],
  ['AFP PHOTO/FILES/Thomas SAMSON', ['Thomas Samson'], 'AFP', null, ['file']],
  ['LUDOVIC MARIN/AFP/FILE', ['Ludovic Marin'], 'AFP', null, ['file']],
  ['(Photo by Mandel NGAN / AFP) (Photo by MANDEL NGAN/AFP via Getty Images)', ['Mandel Ngan'], 'AFP', 'Getty Images'],
  ['(Photo by KOEN VAN WEEL/ANP/AFP via Getty Images)', ['Koen van Weel'], 'ANP', 'Getty Images'],
  ['AFP PHOTO / CHRISTOF STACHECHRISTOF STACHE/AFP/Getty Images', ['Christof Stache'], 'AFP', 'Getty Images'],
  ['(Photo by DANIEL LEAL-OLIVAS/AFP via Getty Images)', ['Daniel Leal-Olivas'], 'AFP', 'Getty Images'],
  ['(Photo by JUAN DE LA TORRE/AFP via Getty Images)', ['Juan de la Torre'], 'AFP', 'Getty Images'],
  ['(Photo by JUNG YEON-JE/AFP via Getty Images)', ['Jung Yeon-Je'], 'AFP', 'Getty Images'],
  ['SEAN MCCARTHY/AFP', ['Sean McCarthy'], 'AFP', null],
  ['PHOTO: JOHN SMITH/AFP', ['John Smith'], 'AFP', null],
  ['AFP/Getty Images', [], 'AFP', 'Getty Images'],
  ['AFP via Getty Images', [], 'AFP', 'Getty Images'],
  // Getty staff, WireImage, partners through Getty
  ['(Photo by Chip Somodevilla/Getty Images)', ['Chip Somodevilla'], 'GETTY', null],
  ['(Photo by Dan Kitwood - WPA Pool/Getty Images)', ['Dan Kitwood'], 'GETTY', null, ['pool']],
  ['(Photo by Jacquelyn Martin-Pool/Getty Images)', ['Jacquelyn Martin'], 'GETTY', null, ['pool']],
  ['(Photo by WPA Pool/Getty Images)', [], 'GETTY', null, ['pool']],
  ['(Photo by Samir Hussein/WireImage)', ['Samir Hussein'], 'GETTY', null],
  ['(Photo by Stuart C. Wilson/Getty Images)', ['Stuart C. Wilson'], 'GETTY', null],
  ["Photo by Sean O'Brien/Getty Images", ["Sean O'Brien"], 'GETTY', null],
  ['(Photo by Handout/Getty Images)', [], 'GETTY', null, ['handout']],
  ['(Photo by Kevin Mazur/Getty Images for The Recording Academy)', ['Kevin Mazur'], 'GETTY', null],
  ['(Photo by Dimitrios Kambouris/Getty Images for The Met Museum/Vogue)', ['Dimitrios Kambouris'], 'GETTY', null],
  ['Photograph: Dan Kitwood/Getty Images', ['Dan Kitwood'], 'GETTY', null],
  ['Photo: Getty Images', [], 'GETTY', null],
  ['(Photo by Jakub Porzycki/NurPhoto via Getty Images)', ['Jakub Porzycki'], 'NURPHOTO', 'Getty Images'],
  ['(Photo by Chris J Ratcliffe/Bloomberg via Getty Images)', ['Chris J Ratcliffe'], 'BLOOMBERG', 'Getty Images'],
  ['(Photo by Tayfun Coskun/Anadolu Agency via Getty Images)', ['Tayfun Coskun'], 'ANADOLU', 'Getty Images'],
  ['(Photo by Anadolu Agency/Anadolu Agency via Getty Images)', [], 'ANADOLU', 'Getty Images'],
  [
    '(Photo by Jabin Botsford/The Washington Post via Getty Images)',
    ['Jabin Botsford'],
    'The Washington Post',
    'Getty Images',
  ],
  ['Kim Jae-Hwan/SOPA Images/LightRocket via Getty Images', ['Kim Jae-Hwan'], 'SOPA', 'Getty Images'],
  // Reuters
  ['REUTERS/Kevin Lamarque/File Photo', ['Kevin Lamarque'], 'REUTERS', null, ['file']],
  ['REUTERS/Stringer', [], 'REUTERS', null],
  ['REUTERS/Ints Kalnins TPX IMAGES OF THE DAY', ['Ints Kalnins'], 'REUTERS', null],
  ['REUTERS/Mario Anzuoni  (UNITED STATES - Tags: ENTERTAINMENT)', ['Mario Anzuoni'], 'REUTERS', null],
  ['REUTERS/Evelyn Hockstein/Pool', ['Evelyn Hockstein'], 'REUTERS', null, ['pool']],
  ['REUTERS/Carlos Barria/Pool/File Photo', ['Carlos Barria'], 'REUTERS', null, ['file', 'pool']],
  ['Toby Melville/Pool via REUTERS/File Photo', ['Toby Melville'], 'REUTERS', null, ['file', 'pool']],
  ['Reuters/Lucy Nicholson', ['Lucy Nicholson'], 'REUTERS', null],
  ['Amir Cohen/REUTERS', ['Amir Cohen'], 'REUTERS', null],
  ['REUTERS/Dado Ruvic/Illustration', ['Dado Ruvic'], 'REUTERS', null],
  ['Handout via REUTERS', [], 'REUTERS', null, ['handout']],
  ['Social Media via REUTERS', [], 'REUTERS', null],
  ['REUTERS/Syria TV via Reuters TV', [], 'REUTERS', 'Reuters TV'],
  ['Sputnik/Mikhail Klimentyev/Kremlin via REUTERS', ['Mikhail Klimentyev'], 'SPUTNIK', 'Reuters'],
  ['KCNA via REUTERS', [], 'KCNA', 'Reuters'],
  ['Foto: Gonzalo Fuentes/Reuters', ['Gonzalo Fuentes'], 'REUTERS', null],
  ['REUTERS/Stringer NO RESALES. NO ARCHIVES.', [], 'REUTERS', null],
  // PA
  ['Photo credit: Stefan Rousseau/PA', ['Stefan Rousseau'], 'PA', null],
  ['Victoria Jones/PA Wire/PA Images', ['Victoria Jones'], 'PA', null],
  ['Photo credit should read Martin Rickett/PA Wire.', ['Martin Rickett'], 'PA', null],
  ['Ben Birchall/PA Archive/PA Images', ['Ben Birchall'], 'PA', null],
  ['Yui Mok/PA', ['Yui Mok'], 'PA', null],
  // EPA
  ['EPA/ANDY RAIN', ['Andy Rain'], 'EPA', null],
  ['epa/Andy Rain', ['Andy Rain'], 'EPA', null],
  ['EPA-EFE/SHAWN THEW / POOL', ['Shawn Thew'], 'EPA', null, ['pool']],
  ['EPA/STR', [], 'EPA', null],
  ['EPA/NEIL HALL MANDATORY CREDIT', ['Neil Hall'], 'EPA', null, ['mandatory']],
  ['Andy Rain/EPA-EFE/Shutterstock', ['Andy Rain'], 'EPA', 'Shutterstock'],
  ['EPA/ROBIN VAN LONKHUIJSEN NETHERLANDS OUT', ['Robin van Lonkhuijsen'], 'EPA', null],
  ['BELGA PHOTO NICOLAS MAETERLINCK ** BELGIUM OUT **', ['Nicolas Maeterlinck'], 'BELGA', null],
  ['ANSA/ETTORE FERRARI', ['Ettore Ferrari'], 'ANSA', null],
  // Shutterstock / Rex
  [
    'Mandatory Credit: Photo by David Fisher/Shutterstock (12345678a)',
    ['David Fisher'],
    'SHUTTERSTOCK',
    null,
    ['mandatory'],
  ],
  ['Photo by Jonathan Hordle/REX/Shutterstock (9876543bc)', ['Jonathan Hordle'], 'SHUTTERSTOCK', null],
  ['Evan Vucci/AP/Shutterstock', ['Evan Vucci'], 'AP', 'Shutterstock'],
  [
    'Mandatory Credit: Photo by Ken McKay/ITV/Shutterstock (13567890a)',
    ['Ken McKay'],
    'ITV',
    'Shutterstock',
    ['mandatory'],
  ],
  ['Xinhua/Shutterstock', [], 'XINHUA', 'Shutterstock'],
  ['Photo by Stephen Lock/i-Images/Shutterstock', ['Stephen Lock'], 'i-Images', 'Shutterstock'],
  ['Rex Features', [], 'SHUTTERSTOCK', null],
  // Canadian Press
  ['THE CANADIAN PRESS/Sean Kilpatrick', ['Sean Kilpatrick'], 'CP', null],
  [
    'THE CANADIAN PRESS/HO-Annick deGooyer, *MANDATORY CREDIT*',
    ['Annick deGooyer'],
    'CP',
    null,
    ['handout', 'mandatory'],
  ],
  ['THE CANADIAN PRESS IMAGES/Lars Hagberg', ['Lars Hagberg'], 'CP', null],
  ['THE CANADIAN PRESS/AP-Ted S. Warren', ['Ted S. Warren'], 'CP', 'AP'],
  // ZUMA, Corbis, NurPhoto
  [
    '(Credit Image: © Mike Cardew/TNS/ZUMA Wire) --- Image by © Mike Cardew/ZUMA Press/Corbis',
    ['Mike Cardew'],
    'TNS',
    'ZUMA Wire',
  ],
  ['(Credit Image: © John Smith/SOPA Images via ZUMA Press Wire)', ['John Smith'], 'SOPA', 'ZUMA Wire'],
  ['(Credit Image: © Beata Zawrzel/NurPhoto via ZUMA Press)', ['Beata Zawrzel'], 'NURPHOTO', 'ZUMA Wire'],
  ['(Credit Image: ? Mike Cardew/TNS/ZUMA Wire)', ['Mike Cardew'], 'TNS', 'ZUMA Wire'],
  ['© Pat Benic/UPI via ZUMA Press', ['Pat Benic'], 'UPI', 'ZUMA Wire'],
  ['(Credit Image: © Pool/Prensa Internacional via ZUMA Wire)', [], 'Prensa Internacional', 'ZUMA Wire', ['pool']],
  ['Beata Zawrzel/NurPhoto', ['Beata Zawrzel'], 'NURPHOTO', null],
  // handouts and other organisations
  ['Photo courtesy of NASA', [], 'NASA', null, ['handout']],
  ['NASA/Handout via REUTERS', [], 'NASA', 'Reuters', ['handout']],
  ['Handout / SPACEX / AFP', [], 'SPACEX', 'AFP', ['handout']],
  ['© Julie Doe / Mugwum Press', ['Julie Doe'], 'Mugwum Press', null],
  ['John Smith/Bloomberg', ['John Smith'], 'BLOOMBERG', null],
  ['dpa/picture alliance via Getty Images', [], 'DPA', 'Getty Images'],
  ['(AP Photo/Libkos)', ['Libkos'], 'AP', null],
  ['(AP Photo/Patrick Semansky, Pool File)', ['Patrick Semansky'], 'AP', null, ['file', 'pool']],
  // Issue 11: a government body's own picture is a handout (rules 2026.12.1 governmentWords).
  [
    '(Russian Defense Ministry Press Service photo via AP)',
    [],
    'Russian Defense Ministry Press Service',
    'AP',
    ['handout'],
  ],
  ['(Satellite image ©2023 Maxar Technologies via AP)', [], 'Maxar Technologies', 'AP'],
  ['(Photo by Kevin Winter/Getty Images for dcp)', ['Kevin Winter'], 'GETTY', null],
  ['(Dave Chidley/The Canadian Press via AP)', ['Dave Chidley'], 'CP', 'AP'],
  ['CP PHOTO/Tom Hanson', ['Tom Hanson'], 'CP', null],
  ['Credit: ZUMA Press, Inc. / Alamy Live News', [], 'ZUMA', 'Alamy'],
  ['Credit: Guy Bell/Alamy Live News', ['Guy Bell'], 'ALAMY', null],
  ['(Credit Image: © Xinhua via ZUMA Wire)', [], 'XINHUA', 'ZUMA Wire'],
  ['Jonathan Buckmaster/Daily Express/REX/Shutterstock', ['Jonathan Buckmaster'], 'Daily Express', 'Shutterstock'],
  ['PA Photo/Handout', [], 'PA', null, ['handout']],
  ['Chris Radburn/PA Wire/Press Association Images', ['Chris Radburn'], 'PA', null],
  ['Photo by Tolga Akmen/EPA/Shutterstock (10123456a)', ['Tolga Akmen'], 'EPA', 'Shutterstock'],
  ['Sputnik/Sergei Bobylev/Pool via REUTERS', ['Sergei Bobylev'], 'SPUTNIK', 'Reuters', ['pool']],
  ['Jim Lo Scalzo/Pool via REUTERS', ['Jim Lo Scalzo'], 'REUTERS', null, ['pool']],
  [
    '(Photo by BEN STANSALL / AFP) (Photo by BEN STANSALL/AFP via Getty Images)',
    ['Ben Stansall'],
    'AFP',
    'Getty Images',
  ],
  ['AFP PHOTO/Odd ANDERSEN', ['Odd Andersen'], 'AFP', null],
  ['REUTERS/Kremlin', [], 'REUTERS', null],
  [
    'Ukraine Presidential Press Service/Handout via REUTERS ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY. MANDATORY CREDIT. NO RESALES. NO ARCHIVES.',
    [],
    'Ukraine Presidential Press Service',
    'Reuters',
    ['handout', 'mandatory'],
  ],
  ['(Kevin Dietsch/Pool Photo via AP)', ['Kevin Dietsch'], 'AP', null, ['pool']],
  ['(Photo by Samir Hussein/Samir Hussein/WireImage)', ['Samir Hussein'], 'GETTY', null],
  ['Photo by Dave Benett/Getty Images for Burberry', ['Dave Benett'], 'GETTY', null],
  ['(Photo by John Smith and JANE DOE/Getty Images)', ['John Smith', 'Jane Doe'], 'GETTY', null],
];

const rules = loadCreditRules();
const FLAGS = ['file', 'pool', 'handout', 'mandatory'] as const;
const PARTNERS = new Set(Object.keys(rules.partners));

describe('credit shapes of the wires', () => {
  it.each(ROWS)('%s', (raw, creators, agency, distributor, flags = []) => {
    const credit = normalizeCredit(
      { captionTail: raw, byline: [], creditLine: null, source: null, copyright: null },
      rules,
    );
    // Expected agencies are written as rules ids or aliases: the credit holds the display name ("Getty Images") and the id.
    const a = expectedOrg(rules, agency);
    const d = expectedOrg(rules, distributor);
    expect({ creators: credit.creators, agency: credit.agency, distributor: credit.distributor }).toEqual({
      creators,
      agency: a.name,
      distributor: d.name,
    });
    expect([credit.agencyId, credit.distributorId]).toEqual([a.id, d.id]);
    expect(FLAGS.filter((f) => credit.flags[f])).toEqual(FLAGS.filter((f) => flags.includes(f)));
    // An organisation the rules list neither as an agency nor as a partner is at most `medium`.
    const known = a.id !== null || PARTNERS.has(agency ?? '');
    expect(credit.confidence).toBe(known ? 'high' : 'medium');
    expect(credit.raw.captionTail).toBe(raw);
  });

  it('reads usage restrictions and supplier references', () => {
    const f = (raw: string) =>
      normalizeCredit({ captionTail: raw, byline: [], creditLine: null, source: null, copyright: null }, rules).flags;
    expect(f('EPA/ROBIN VAN LONKHUIJSEN NETHERLANDS OUT').restrictions).toEqual(['Netherlands OUT']);
    expect(f('ANP/REMKO DE WAAL NETHERLANDS OUT - BELGIUM OUT').restrictions).toEqual([
      'Netherlands OUT',
      'Belgium OUT',
    ]);
    expect(f('AFP PHOTO / MARTY MELVILLE / NEW ZEALAND OUT').restrictions).toEqual(['New Zealand OUT']);
    expect(f('REUTERS/Stringer NO RESALES. NO ARCHIVES.').restrictions).toEqual(['NO RESALES', 'NO ARCHIVES']);
    expect(f('Photo by Matt Baron/Shutterstock (10447845ab)').supplierRef).toBe('10447845ab');
    // TEMPLATE OUT is an editors' note, not a restriction.
    expect(f('REUTERS/Stringer TEMPLATE OUT').restrictions).toEqual([]);
  });

  it('keeps partners: agencies in the chain, pools, clients, TV channels', () => {
    const p = (raw: string) =>
      normalizeCredit({ captionTail: raw, byline: [], creditLine: null, source: null, copyright: null }, rules)
        .partners;
    expect(p('REUTERS/Syria TV via Reuters TV')).toEqual(['Syria TV']);
    expect(p('Sputnik/Mikhail Klimentyev/Kremlin via REUTERS')).toEqual(['Kremlin']);
    expect(p('(Photo by KOEN VAN WEEL/ANP/AFP via Getty Images)')).toEqual(['AFP']);
    expect(p('(Photo by Dan Kitwood - WPA Pool/Getty Images)')).toEqual(['WPA Pool']);
    expect(p('(Credit Image: © Mike Cardew/TNS/ZUMA Wire) --- Image by © Mike Cardew/ZUMA Press/Corbis')).toEqual([
      'Corbis',
    ]);
  });
});
