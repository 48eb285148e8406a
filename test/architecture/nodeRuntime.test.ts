import { readFileSync } from 'node:fs';
import * as path from 'node:path';

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
