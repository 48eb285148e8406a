import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import defaults from '../../../../src/core/credits/default-rules.json';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { defaultCreditRules, loadCreditRules } from '../../../../src/core/credits/rules';
import { RulesFileError } from '../../../../src/core/rulesFile';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-rules-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeRules(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function loadError(file: string): RulesFileError {
  try {
    loadCreditRules(file);
  } catch (err) {
    if (err instanceof RulesFileError) return err;
    throw err;
  }
  throw new Error(`${file} was accepted`);
}

const credit = (raw: string, rules = defaultCreditRules()) =>
  normalizeCredit({ captionTail: raw, byline: [], creditLine: null, source: null, copyright: null }, rules);

describe('loadCreditRules', () => {
  it('returns the shipped, versioned defaults without a path', () => {
    const rules = loadCreditRules();
    expect(rules.version).toBe(defaults.version);
    expect(rules.version).toMatch(/^\d{4}\.\d+\.\d+$/);
    expect(rules.agencies.AFP.name).toBe('AFP');
    expect(loadCreditRules('')).toBe(rules);
  });

  it('lets an operator file add an agency, which changes the output', () => {
    const raw = 'Julie Doe/Mugwum Wire';
    const before = credit(raw);
    expect(before.agency).toBe('Mugwum Wire');
    // An agency the rules do not list: read, but a person should confirm it.
    expect(before.confidence).toBe('medium');

    const file = writeRules(
      'mugwum.json',
      JSON.stringify({
        version: 'desk-7',
        agencies: { MUGWUM: { name: 'Mugwum', aliases: ['Mugwum Wire', 'Mugwum Press'], line: '{creators} / MUGWUM' } },
      }),
    );
    const rules = loadCreditRules(file);
    expect(rules.version).toBe(`${defaults.version}+desk-7`);
    const after = credit(raw, rules);
    expect(after).toMatchObject({
      agency: 'Mugwum',
      agencyId: 'MUGWUM',
      creators: ['Julie Doe'],
      line: 'Julie Doe / MUGWUM',
      confidence: 'high',
      rulesVersion: `${defaults.version}+desk-7`,
    });
    // Agency-first credits now start at the new name inside a caption, too.
    expect(credit('MUGWUM PRESS/JULIE DOE', rules)).toMatchObject({
      agency: 'Mugwum',
      agencyId: 'MUGWUM',
      creators: ['Julie Doe'],
    });
    // The defaults are untouched.
    expect(credit(raw).agency).toBe('Mugwum Wire');
  });

  it('lets an operator override a house style and extend an agency without repeating it', () => {
    const file = writeRules(
      'override.json',
      JSON.stringify({
        version: 'desk-8',
        agencies: { AFP: { aliases: ['Agence FP'], line: '{creators} ({agency}){via}' } },
        houseStyle: { via: ' / {distributor}' },
        nameCasing: { exceptions: { NEAL: 'NEAL' } },
      }),
    );
    const rules = loadCreditRules(file);
    expect(rules.agencies.AFP.aliases).toEqual(expect.arrayContaining(['AFP', 'Agence FP']));
    expect(credit('LEON NEAL/AFP/Getty Images', rules).line).toBe('Leon NEAL (AFP) / Getty Images');
    expect(credit('LEON NEAL/Agence FP', rules).agency).toBe('AFP');
  });

  it('refuses a file that is not JSON with the line and column of the mistake', () => {
    const file = writeRules(
      'syntax.json',
      '{\n  "version": "x",\n  "agencies": {\n    "FOO": { "name": "Foo" "aliases": [] }\n  }\n}\n',
    );
    const err = loadError(file);
    expect(err.code).toBe('CREDIT_RULES_INVALID');
    expect(err.line).toBe(4);
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line 4, column 28: not valid JSON: expected ',' or '}' but found '"'/);
  });

  it('points a trailing comma at its own line', () => {
    const err = loadError(writeRules('comma.json', '{\n  "version": "x",\n  "placeholders": ["SNAPPER"],\n}\n'));
    expect(err.line).toBe(3);
    expect(err.reason).toMatch(/trailing comma/);
  });

  it('refuses a file that does not match the schema, at the line of the offending key', () => {
    const noName = loadError(
      writeRules(
        'noname.json',
        '{\n  "version": "x",\n  "agencies": {\n    "FOO": {\n      "aliases": ["Foo"]\n    }\n  }\n}\n',
      ),
    );
    expect(noName.line).toBe(4);
    expect(noName.message).toMatch(/line 4: agencies\.FOO\.name: required but missing/);

    const badType = loadError(
      writeRules('type.json', '{\n  "version": "x",\n  "placeholders": [\n    "STR",\n    42\n  ]\n}\n'),
    );
    expect(badType.line).toBe(5);
    expect(badType.reason).toMatch(/^placeholders\.1: /);

    const typo = loadError(writeRules('typo.json', '{\n  "version": "x",\n\n  "agencys": {}\n}\n'));
    expect(typo.line).toBe(4);
    expect(typo.reason).toBe('agencys: unknown key (a misspelling?)');

    const placeholder = loadError(
      writeRules('tpl.json', '{\n  "version": "x",\n  "houseStyle": {\n    "line": "{creators}/{agnecy}"\n  }\n}\n'),
    );
    expect(placeholder.line).toBe(4);
    expect(placeholder.reason).toMatch(/unknown placeholder \{agnecy\}/);

    const badId = loadError(
      writeRules(
        'id.json',
        '{\n  "version": "x",\n  "agencies": { "mugwum": { "name": "Mugwum", "aliases": [] } }\n}\n',
      ),
    );
    expect(badId.line).toBe(3);

    const noVersion = loadError(writeRules('nov.json', '{ "placeholders": ["X"] }'));
    expect(noVersion.reason).toMatch(/^version: required but missing/);

    const strayDistributor = loadError(
      writeRules('dist.json', '{\n  "version": "x",\n  "distributors": {\n    "NOPE": "Nope"\n  }\n}\n'),
    );
    expect(strayDistributor.line).toBe(4);
    expect(strayDistributor.reason).toMatch(/not an agency id/);
  });

  it('refuses a file that cannot be read', () => {
    const err = loadError(path.join(dir, 'missing.json'));
    expect(err.code).toBe('CREDIT_RULES_UNREADABLE');
    expect(err.message).toMatch(/missing\.json.*ENOENT/);
  });
});
