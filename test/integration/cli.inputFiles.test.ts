import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli, runCliOnTty } from '../helpers/cli';
import { assertBuilt } from '../helpers/processes';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * A missing or unreadable input file given to a command is the caller's mistake: one line naming
 * the file on stderr, exit 2, nothing else (no table header, no rows of the files before it, no
 * "looks like a bug"). On a terminal (where `credits` prints its header) and through a pipe.
 */
jest.setTimeout(120_000);

describe('a missing input file is a usage error', () => {
  const root = makeTmpDir('inputs');
  const good = path.join(root, 'credits.txt');
  const missing = path.join(root, 'nonexistent.txt');
  const env = { PHOTOWIRE_DATA_DIR: path.join(root, 'data'), LOG_LEVEL: 'warn' };
  beforeAll(() => {
    assertBuilt();
    writeFileSync(good, 'AP Photo/Jo Bloggs\nREUTERS/Kacper Pempel\n');
  });
  afterAll(() => removeDir(root));

  const cases: Array<[string, string[], string]> = [
    ['credits, a missing file', ['credits', missing], `photowire: credits: cannot read ${missing}: no such file`],
    [
      'credits, a readable file then a missing one',
      ['credits', good, missing],
      `photowire: credits: cannot read ${missing}: no such file`,
    ],
    ['credits, a folder', ['credits', root], `photowire: credits: cannot read ${root}: is a folder, not a file`],
    [
      'credits --rules, a missing file',
      ['credits', good, '--rules', missing],
      `photowire: credit rules file ${missing}: cannot be read (ENOENT)`,
    ],
    [
      'credits --boilerplate, a missing file',
      ['credits', good, '--boilerplate', missing],
      `photowire: boilerplate rules file ${missing}: cannot be read (ENOENT)`,
    ],
    ['rights, a missing file', ['rights', missing], `photowire: rights: cannot read ${missing}: no such file`],
    [
      'rights, a readable file then a folder',
      ['rights', good, root],
      `photowire: rights: cannot read ${root}: is a folder, not a file`,
    ],
    [
      'rights --rules, a missing file',
      ['rights', good, '--rules', missing],
      `photowire: rights rules file ${missing}: cannot be read (ENOENT)`,
    ],
  ];

  it.each(cases)('%s: on a terminal, the one line and exit 2', async (_label, args, line) => {
    const r = await runCliOnTty(args, env);
    expect({ code: r.code, out: r.stdout.replace(/\r\n/g, '\n') }).toEqual({ code: 2, out: `${line}\n` });
  });

  // The rules files were already usage errors; the input files through a pipe too.
  it.each(cases.filter(([label]) => !label.includes('--')))(
    '%s: piped, stdout empty, the one line on stderr and exit 2',
    async (_label, args, line) => {
      const r = await runCli(args, env);
      expect(r).toEqual({ code: 2, stdout: '', stderr: `${line}\n` });
    },
  );

  it('the readable file alone still gives its table on a terminal and its JSON through a pipe', async () => {
    const tty = await runCliOnTty(['credits', good], env);
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/^input +creator/);
    expect(tty.stdout).toMatch(/AP Photo\/Jo Bloggs +Jo Bloggs +AP/);
    const piped = await runCli(['rights', good], env);
    expect(piped.code).toBe(0);
    expect(piped.stdout.trim().split('\n')).toHaveLength(2);
  });
});
