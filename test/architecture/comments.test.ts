import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * A comment gives the reason and points at a measurement or a doc, never at "issue N" of a tracker
 * that is not in the repository (a newcomer cannot follow it).
 */

const ROOT = path.resolve(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return /\.(ts|js|lua)$/.test(name) ? [full] : [];
  });
}

const ISSUE_REF = /\bissues? #?\d+\b/i;

describe('comments in src/', () => {
  const sources = files(path.join(ROOT, 'src'));

  it('reads every source file', () => {
    expect(sources.length).toBeGreaterThan(200);
  });

  it('cite no tracker issue number', () => {
    const hits = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE_REF.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('would catch one (self-check)', () => {
    expect(ISSUE_REF.test('// measured in issue 14: one Lua call')).toBe(true);
    expect(ISSUE_REF.test('// the issuer of the kill, 2 items')).toBe(false);
  });
});
