import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadBoilerplateRules } from '../../../src/core/captions/boilerplate';
import { loadCreditRules } from '../../../src/core/credits/rules';
import { loadRightsRules } from '../../../src/core/rights/rules';
import { RulesFileError } from '../../../src/core/rulesFile';

/** The three operator rules files are read by one loader and refused with one error (src/core/rulesFile.ts). */
describe('one rules-file loader and error', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pw-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const loaders = [
    ['CREDIT_RULES', 'credit rules file', loadCreditRules],
    ['RIGHTS_RULES', 'rights rules file', loadRightsRules],
    ['BOILERPLATE_RULES', 'boilerplate rules file', loadBoilerplateRules],
  ] as const;
  const refusal = (load: (p: string) => unknown, file: string): RulesFileError => {
    try {
      load(file);
    } catch (err) {
      if (err instanceof RulesFileError) return err;
      throw err;
    }
    throw new Error(`${file} was accepted`);
  };

  it.each(loaders)(
    '%s: a file that is not JSON is refused at its line and column, an unknown key at its line',
    (kind, label, load) => {
      const broken = path.join(dir, `${kind}-broken.json`);
      writeFileSync(broken, '{\n  "version": 1,\n  oops\n}\n');
      const e = refusal(load, broken);
      expect([e.code, e.line, e.column, e.exitCode]).toEqual([`${kind}_INVALID`, 3, 3, 2]);
      expect(e.message.startsWith(`${label} ${broken}, line 3, column 3: not valid JSON`)).toBe(true);

      const unknown = path.join(dir, `${kind}-unknown.json`);
      writeFileSync(unknown, '{\n  "version": "site-2026",\n  "misspeled": []\n}\n');
      const u = refusal(load, unknown);
      expect([u.code, u.line, u.reason]).toEqual([`${kind}_INVALID`, 3, 'misspeled: unknown key (a misspelling?)']);
    },
  );

  it.each(loaders)('%s: a file that cannot be read says why', (kind, label, load) => {
    const e = refusal(load, path.join(dir, 'missing.json'));
    expect([e.code, e.message]).toEqual([
      `${kind}_UNREADABLE`,
      `${label} ${path.join(dir, 'missing.json')}: cannot be read (ENOENT)`,
    ]);
  });
});
