import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The repository root, found from this file whether it runs from bench/ (ts) or dist-bench/bench/ (js). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if ((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'photowire') return dir;
      } catch {
        /* keep looking */
      }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the photowire repository above ${__dirname}`);
    dir = up;
  }
}

/**
 * The in-repo copy of the team's shared material (test/fixtures/shared, origins in its ORIGIN.md):
 * benches read the same files as the tests, so a clone runs them as they are.
 */
export function sharedFixturesDir(): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'shared');
}

/** Where generated inputs are kept between runs (they take minutes to make at 24 MP). */
export function benchCacheDir(): string {
  return process.env.PHOTOWIRE_BENCH_CACHE ?? path.join(os.tmpdir(), 'photowire-bench-cache');
}

/** A fresh scratch directory, removed by the caller. */
export function scratchDir(tag: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `photowire-bench-${tag}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
