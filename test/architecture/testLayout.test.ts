import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/**
 * test/unit mirrors the tree it tests: the unit tests of src/core/credits are in
 * test/unit/core/credits, so a newcomer finds a module's tests by its path. The page (web/) and the
 * benchmarks (bench/) have theirs in test/unit/web and test/unit/bench.
 */
const ROOT = path.resolve(__dirname, '../..');
const UNIT = path.join(ROOT, 'test/unit');

function folders(dir: string, rel = ''): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (!statSync(full).isDirectory()) return [];
    const r = rel ? `${rel}/${name}` : name;
    return [r, ...folders(full, r)];
  });
}

/** Where a folder of test/unit points: its first part names web/ or bench/, else it is under src/. */
function tested(rel: string): string {
  const [top, ...rest] = rel.split('/');
  return top === 'web' || top === 'bench' ? path.join(ROOT, top, ...rest) : path.join(ROOT, 'src', rel);
}

describe('test/unit', () => {
  it('mirrors src/ (and web/, bench/) folder for folder', () => {
    const all = folders(UNIT);
    expect(all).toEqual(expect.arrayContaining(['core/credits', 'app', 'adapters/redis']));
    const astray = all.filter((rel) => {
      try {
        return !statSync(tested(rel)).isDirectory();
      } catch {
        return true;
      }
    });
    expect(astray).toEqual([]);
  });
});
