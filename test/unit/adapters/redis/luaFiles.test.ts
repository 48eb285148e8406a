import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { LUA_DIR, loadLua } from '../../../../src/adapters/redis/scripts';
import { REDIS_URL } from '../../../helpers/testEnv';

/** Every .lua file under src/adapters/redis/lua/, as `kills/register` (no extension). */
function luaFiles(dir = LUA_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return luaFiles(p);
    return e.name.endsWith('.lua')
      ? [
          path
            .relative(LUA_DIR, p)
            .split(path.sep)
            .join('/')
            .replace(/\.lua$/, ''),
        ]
      : [];
  });
}
const scripts = () => luaFiles().filter((f) => !f.startsWith('includes/'));

describe('the Lua files (src/adapters/redis/lua) and their loader', () => {
  it('holds the scripts of every store that has them', () => {
    const files = luaFiles();
    for (const f of [
      'kills/register',
      'kills/slice',
      'catalog/markItem',
      'catalog/createBatch',
      'lease/renew',
      'foldEmptyRun',
      'registerPhoto',
      'recordMoves',
      'rememberRenditionOwner',
    ])
      expect(files).toContain(f);
  });

  it('every file opens with a header naming its KEYS and ARGV', () => {
    for (const f of luaFiles()) {
      const text = readFileSync(path.join(LUA_DIR, `${f}.lua`), 'utf8');
      const header = /^--\[\[\n([\s\S]*?)\n\]\]\n/.exec(text)?.[1] ?? '';
      expect([f, /KEYS/.test(header), /ARGV/.test(header)]).toEqual([f, true, true]);
    }
  });

  it('resolves includes in place, each file once, even when two parts include the same one', () => {
    // kills/register includes killMarks and killDecide; killMarks includes killMark
    const lua = loadLua('kills/register');
    expect(lua).not.toMatch(/@include/);
    expect(lua.match(/local function mark\(/g)).toHaveLength(1);
    expect(lua.indexOf('local function mark(')).toBeLessThan(lua.indexOf('local function killOf('));
    expect(lua.indexOf('local function killOf(')).toBeLessThan(lua.indexOf('local function decide('));
    expect(lua.indexOf('local function decide(')).toBeLessThan(lua.indexOf('return decide(id, info, ARGV[3])'));
    expect(loadLua('catalog/markItems').match(/local function storeFacets\(/g)).toHaveLength(1);
  });

  it('names the missing file when a script or an include is not there', () => {
    expect(() => loadLua('kills/nope')).toThrow(/nope\.lua/);
  });

  describe('on a real Redis', () => {
    let redis: Redis;
    beforeAll(() => {
      redis = new Redis(REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 1 });
    });
    afterAll(async () => {
      await redis.quit();
    });

    it('every script compiles (SCRIPT LOAD), its includes resolved', async () => {
      const failures: string[] = [];
      for (const f of scripts()) {
        try {
          const sha = (await redis.script('LOAD', loadLua(f))) as string;
          expect(sha).toMatch(/^[0-9a-f]{40}$/);
        } catch (err) {
          failures.push(`${f}: ${(err as Error).message}`);
        }
      }
      expect(failures).toEqual([]);
    });
  });
});
