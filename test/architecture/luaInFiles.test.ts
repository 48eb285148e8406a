import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Every Redis script is a `.lua` file under src/adapters/redis/lua/ (loaded by
 * src/adapters/redis/scripts.ts), never Lua in a TypeScript string: a script is read, diffed and
 * reviewed as Lua, with its KEYS and ARGV in its header.
 */
const SRC = path.resolve(__dirname, '../../src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('Lua lives in .lua files', () => {
  it('no TypeScript file under src/ calls redis.call (a Lua script in a string)', () => {
    const offenders = tsFiles(SRC)
      .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
      .filter((rel) => /redis\.(p?call)\s*\(/.test(readFileSync(path.join(SRC, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
