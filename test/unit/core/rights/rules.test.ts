import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../../../src/config';
import { readNotice } from '../../../../src/core/kills/readNotice';
import { readRelease } from '../../../../src/core/release/readRelease';
import defaults from '../../../../src/core/rights/default-rules.json';
import { readRights } from '../../../../src/core/rights/readRights';
import { defaultRightsRules, loadRightsRules } from '../../../../src/core/rights/rules';
import { RulesFileError } from '../../../../src/core/rulesFile';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-rights-rules-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeRules(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function loadError(file: string): RulesFileError {
  try {
    loadRightsRules(file);
  } catch (err) {
    if (err instanceof RulesFileError) return err;
    throw err;
  }
  throw new Error(`${file} was accepted`);
}

const instr = (text: string, rules = defaultRightsRules()) =>
  readRights({ texts: [{ source: 'iptc:specialInstructions', text }] }, rules);

describe('loadRightsRules', () => {
  it('returns the shipped, versioned defaults without a path', () => {
    const rules = loadRightsRules();
    expect(rules.version).toBe(defaults.version);
    expect(rules.version).toMatch(/^\d{4}\.\d+\.\d+$/);
    expect(loadRightsRules('')).toBe(rules);
  });

  it('lets an operator teach new spellings, media, places, zones and notice words, which change the output', () => {
    const before = instr('NO FORNS; SALES EMBARGO IN QUEBEC CITY');
    expect(before.restrictions).toEqual([]);
    expect(before.confidence).toBe('low');

    const file = writeRules(
      'desk.json',
      JSON.stringify({
        version: 'desk-4',
        restrictions: { 'no-sales': [{ phrases: ['NO FORNS', 'NO FOREIGN SALES'] }] },
        markets: {
          out: [{ phrases: ['SALES EMBARGO IN {places}'], in: ['instructions'] }],
          places: { 'Quebec City': ['QUEBEC CITY', 'VILLE DE QUEBEC'] },
          media: { magazines: { aliases: ['GLOSSIES'] } },
        },
        release: { zones: { 'QUEBEC TIME': 'America/Toronto' } },
        notices: { kill: { headings: [{ phrases: ['SUPPRIMER IMMEDIATEMENT'] }] } },
      }),
    );
    const rules = loadRightsRules(file);
    expect(rules.version).toBe(`${defaults.version}+desk-4`);
    const after = instr('NO FORNS; SALES EMBARGO IN QUEBEC CITY; GLOSSIES OUT', rules);
    expect(after.restrictions).toEqual(['no-sales', 'no-magazines']);
    expect(after.outMarkets.map((m) => m.name)).toEqual(['Quebec City', 'magazines']);
    expect(after.rulesVersion).toBe(`${defaults.version}+desk-4`);
    // The shipped phrases are still there.
    expect(instr('NO ARCHIVES', rules).restrictions).toEqual(['no-archive']);
    expect(
      readRelease(
        { texts: [{ source: 'iptc:specialInstructions', text: 'EMBARGOED UNTIL 0900 QUEBEC TIME MARCH 12, 2024' }] },
        rules,
      ).embargoUntil!.at,
    ).toBe('2024-03-12T13:00:00.000Z');
    expect(
      readNotice({ texts: [{ source: 'iptc:specialInstructions', text: 'SUPPRIMER IMMEDIATEMENT: QC1234' }] }, rules),
    ).toMatchObject({ kind: 'kill', targets: ['QC1234'] });
    // The defaults are untouched.
    expect(instr('NO FORNS').restrictions).toEqual([]);
  });

  it('refuses a file that cannot be read, naming it', () => {
    const err = loadError(path.join(dir, 'missing.json'));
    expect(err.code).toBe('RIGHTS_RULES_UNREADABLE');
    expect(err.message).toContain('missing.json');
    expect(err.message).toContain('ENOENT');
  });

  it('refuses JSON syntax errors with the line and column', () => {
    const err = loadError(writeRules('syntax.json', '{\n  "version": "x",\n  "ignore": [],\n}\n'));
    expect(err.code).toBe('RIGHTS_RULES_INVALID');
    expect(err.message).toMatch(/syntax\.json, line 3, column \d+: not valid JSON: trailing comma before \}/);
  });

  it('refuses schema errors at the line of the offending key', () => {
    const cases: Array<[string, RegExp]> = [
      [
        '{\n  "version": "d",\n  "restrictions": {\n    "no-smoking": []\n  }\n}',
        /line 4: restrictions\.no-smoking: not a restriction id: the vocabulary is closed \(editorial-only, /,
      ],
      ['{\n  "version": "d",\n  "restrictons": {}\n}', /line 3: restrictons: unknown key \(a misspelling\?\)/],
      [
        '{\n  "version": "d",\n  "ignore": [\n    { "phrases": ["NO {countries} OUT"] }\n  ]\n}',
        /line 4: ignore\.0\.phrases\.0: phrase "NO \{countries\} OUT": unknown slot \{countries\}/,
      ],
      [
        '{\n  "version": "d",\n  "markets": {\n    "out": [ { "phrases": ["NO SALES"] } ]\n  }\n}',
        /line 4: markets\.out\.0\.phrases\.0: phrase "NO SALES" needs \{places\} or \{media\}/,
      ],
      [
        '{\n  "version": "d",\n  "release": {\n    "zones": { "MARS TIME": "Mars/Olympus" }\n  }\n}',
        /line 4: release\.zones\.MARS TIME: "Mars\/Olympus" is neither an offset/,
      ],
      ['{\n  "ignore": []\n}', /line 1: version: required but missing/],
      [
        '{\n  "version": "d",\n  "markets": {\n    "countryNameLanguages": ["xx"]\n  }\n}',
        /line 4: markets\.countryNameLanguages\.0: "xx" is not a language/,
      ],
      ['{\n  "version": "d",\n  "ignore": [ { "phrases": ["A? B? C? D? E? F"] } ]\n}', /at most 4 optional parts/],
    ];
    for (const [text, re] of cases) expect(loadError(writeRules('bad.json', text)).message).toMatch(re);
  });

  it('is named by PHOTOWIRE_RIGHTS_RULES in the configuration', () => {
    expect(loadConfig({ PHOTOWIRE_RIGHTS_RULES: '/etc/photowire/rights.json' }).rightsRulesPath).toBe(
      '/etc/photowire/rights.json',
    );
    expect(loadConfig({}).rightsRulesPath).toBeUndefined();
  });
});
