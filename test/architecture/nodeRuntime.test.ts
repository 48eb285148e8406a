import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { BIN, binNodeFlags } from '../helpers/bin';

/**
 * The tests run on the Node line package.json supports. The system Node may be older (Debian's, or an
 * end-of-life 20): the `node` devDependency installs the LTS runtime from the npm registry and npm
 * scripts put it first on PATH, so `npm test` (and every child process the tests start with
 * process.execPath) runs on it.
 */
const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

const major = (version: string): number => Number(/(\d+)/.exec(version)?.[1]);

describe('the Node runtime', () => {
  it('is the one engines names, at least', () => {
    const floor = /^>=\s*(\d+)/.exec(pkg.engines.node);
    expect(floor).not.toBeNull();
    expect(major(process.version)).toBeGreaterThanOrEqual(Number(floor![1]));
  });

  it('is an LTS line (even major) and the one the node devDependency pins', () => {
    expect(major(process.version) % 2).toBe(0);
    expect(major(pkg.devDependencies.node)).toBe(major(process.version));
  });
});

/**
 * The launcher's shebang carries the V8 heap flags that bound a worker's memory on Node 24
 * (bin/photowire.js says why; docs/BENCHMARKS.md "Worker memory" has the measurement). They only
 * apply when the launcher runs itself: `node bin/photowire.js` would drop them.
 */
describe('the launcher and its V8 flags', () => {
  const root = path.resolve(__dirname, '../..');

  it('are valid for this Node and set the heap it runs with', () => {
    const flags = binNodeFlags();
    expect(flags).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--max-semi-space-size=\d+$/),
        expect.stringMatching(/^--max-old-space-size=\d+$/),
      ]),
    );
    const oldMb = Number(flags.find((f) => f.startsWith('--max-old-space-size='))!.split('=')[1]);
    const r = spawnSync(process.execPath, [...flags, '-p', 'require("v8").getHeapStatistics().heap_size_limit'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    const limitMb = Number(r.stdout) / 2 ** 20;
    // The limit is the old space plus the young generation (a few semi-spaces).
    expect(limitMb).toBeGreaterThanOrEqual(oldMb);
    expect(limitMb).toBeLessThan(oldMb + 100);
  });

  it('runs by its shebang, on the Node npm puts first on PATH', () => {
    const env = { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` };
    const r = spawnSync(BIN, ['--version'], { encoding: 'utf8', env });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(
      (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version,
    );
  });

  it('is what the Docker image, compose healthchecks and npm scripts start, never `node bin/photowire.js`', () => {
    const texts = ['Dockerfile', 'docker-compose.yml', 'package.json'].map(
      (f) => [f, readFileSync(path.join(root, f), 'utf8')] as const,
    );
    for (const [file, text] of texts)
      expect([file, /\bnode"?,?\s+"?[./\w]*bin\/photowire\.js/.test(text)]).toEqual([file, false]);
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toMatch(/ENTRYPOINT \["\/app\/bin\/photowire\.js"\]/);
    // The pattern above would see the old form (self-check).
    expect(/\bnode"?,?\s+"?[./\w]*bin\/photowire\.js/.test('ENTRYPOINT ["node", "/app/bin/photowire.js"]')).toBe(true);
    expect(/\bnode"?,?\s+"?[./\w]*bin\/photowire\.js/.test('"sample": "node bin/photowire.js run --sample"')).toBe(
      true,
    );
  });
});
