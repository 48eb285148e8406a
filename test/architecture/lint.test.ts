import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * `npm run lint` is only worth running if its rules bite. Each probe below is linted from stdin as if
 * it were a file of src/ (the paths the config allows as probes), with the project's own config and
 * the eslint the project installs, and must get exactly the rules it breaks; a clean probe must get
 * none, so a config that flags everything fails too.
 */

const ROOT = path.resolve(__dirname, '../..');
const ESLINT = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');

interface Message {
  ruleId: string | null;
  message: string;
}

function lint(filePath: string, text: string): Message[] {
  const run = spawnSync(process.execPath, [ESLINT, '--format', 'json', '--stdin', '--stdin-filename', filePath], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
  if (run.stdout.trim() === '') throw new Error(`eslint printed nothing (exit ${run.status}): ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as Array<{ messages: Message[] }>;
  return result.messages;
}

const rules = (messages: Message[]): string[] => messages.map((m) => m.ruleId ?? `parse: ${m.message}`).sort();

describe('npm run lint', () => {
  jest.setTimeout(120_000);

  it('is what the test command runs first: the compiler, eslint and the formatter check', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.lint).toMatch(/tsc .*--noEmit/);
    expect(pkg.scripts.lint).toMatch(/\beslint \./);
    expect(pkg.scripts.lint).toMatch(/\bprettier --check \./);
    expect(pkg.scripts.test.startsWith('npm run lint && ')).toBe(true);
  });

  it('passes a clean file of the pure core', () => {
    const clean = [
      "import type { PhotowireError } from './errors';",
      "import { exactText } from './dedup/normalize';",
      'export async function settle(error: PhotowireError | undefined): Promise<string> {',
      '  await Promise.resolve();',
      '  if (error !== undefined) throw error;',
      "  return exactText('A caption');",
      '}',
      '',
    ].join('\n');
    expect(rules(lint('src/core/lintProbe.ts', clean))).toEqual([]);
  });

  it('flags a promise nobody awaits, and a value import only used as a type', () => {
    const text = [
      "import { Redis } from 'ioredis';",
      'async function later(): Promise<number> {',
      '  return 1;',
      '}',
      'export function start(redis: Redis): void {',
      '  later();',
      '  void redis;',
      '}',
      '',
    ].join('\n');
    expect(rules(lint('src/app/lintProbe.ts', text))).toEqual([
      '@typescript-eslint/consistent-type-imports',
      '@typescript-eslint/no-floating-promises',
    ]);
  });

  it('flags the layer rules: the core importing Redis or the app, the app importing an entry point', () => {
    const core = [
      "import type { Redis } from 'ioredis';",
      "import type { Runtime } from '../app/runtime';",
      'export type Both = [Redis, Runtime];',
      '',
    ].join('\n');
    expect(rules(lint('src/core/lintProbe.ts', core))).toEqual(['no-restricted-imports', 'no-restricted-imports']);
    const app = ["import type { plural } from '../cli/plural';", 'export type Entry = typeof plural;', ''].join('\n');
    expect(rules(lint('src/app/lintProbe.ts', app))).toEqual(['no-restricted-imports']);
  });
});
