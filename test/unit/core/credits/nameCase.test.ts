import { compileRules } from '../../../../src/core/credits/compileRules';
import { displayCaseName } from '../../../../src/core/credits/nameCase';
import { loadCreditRules } from '../../../../src/core/credits/rules';

const c = compileRules(loadCreditRules());

describe('displayCaseName', () => {
  it.each([
    ['LEON NEAL', 'Leon Neal'],
    ['KOEN VAN WEEL', 'Koen van Weel'],
    ['KOEN VAN DER BERG', 'Koen van der Berg'],
    ['JUAN DE LA TORRE', 'Juan de la Torre'],
    ['DUANE A. LAVERTY', 'Duane A. Laverty'],
    ['J.J. ABRAMS', 'J.J. Abrams'],
    ['JEAN-PAUL ROUX', 'Jean-Paul Roux'],
    ['DANIEL LEAL-OLIVAS', 'Daniel Leal-Olivas'],
    ['SEAN MCCARTHY', 'Sean McCarthy'],
    ['JOHN MACDOUGALL', 'John MacDougall'],
    ['EMMANUEL MACHADO', 'Emmanuel Machado'],
    ["SEAN O'BRIEN", "Sean O'Brien"],
    ["PAOLO D'ALESSANDRO", "Paolo D'Alessandro"],
    ["NIKLAS HALLE'N", "Niklas Halle'n"],
    ['MARTIN LUTHER KING JR.', 'Martin Luther King Jr.'],
    ['LOUIS III', 'Louis III'],
    ['ÉMILIE LÉGER', 'Émilie Léger'],
  ])('%s -> %s', (raw, expected) => {
    expect(displayCaseName(raw, c)).toBe(expected);
  });

  it('keeps words already in mixed case as the photographer spells them', () => {
    expect(displayCaseName('Annick deGooyer', c)).toBe('Annick deGooyer');
    expect(displayCaseName('Hannah Mckay', c)).toBe('Hannah Mckay');
    expect(displayCaseName('Ludovic MARIN', c)).toBe('Ludovic Marin');
  });

  it('does not lower-case a particle that is a first name or a surname', () => {
    expect(displayCaseName('LE MINH', c)).toBe('Le Minh');
    expect(displayCaseName('NGUYEN HUY LE', c)).toBe('Nguyen Huy Le');
  });

  it('uses name-casing exceptions from the rules', () => {
    const rules = loadCreditRules();
    const custom = compileRules({
      ...rules,
      nameCasing: { ...rules.nameCasing, exceptions: { ...rules.nameCasing.exceptions, DEVRIES: 'deVries' } },
    });
    expect(displayCaseName('PETER DEVRIES', custom)).toBe('Peter deVries');
    expect(displayCaseName('PETER DEVRIES', c)).toBe('Peter Devries');
  });
});
