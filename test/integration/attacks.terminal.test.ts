import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli, runCliOnTty, type CliResult } from '../helpers/cli';
import { assertBuilt } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * Terminal and log-line injection through the real CLI: a feed whose captions, credit and kill
 * notice carry `ESC]0;title BEL` (retitles the terminal), `ESC[2J` (clears it), `ESC[31m`, the
 * one-byte CSI U+009B, DEL and bidi overrides and isolates, a feed file and a photo file (real
 * files on disk) whose names hold a newline followed by a line photowire might print. Each text
 * command's stdout and stderr must hold none of those characters raw and no forged line; the
 * values are still shown, escaped. docs/RELIABILITY.md "Attacks".
 */
jest.setTimeout(120_000);

const FORGED = 'INFO batch done, 0 failed';
const ATTACK = '\x1b]0;pwned\x07\x1b[2J\x1b[31m red \u202egnp.exe\u202c \u2066iso\u2069 \x9b2J del\x7f';
/** What a terminal acts on rather than shows; a line break is the output's own (CR too, under a pty). */
const RAW =
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

function expectClean(r: CliResult, label: string): string {
  const out = `${r.stdout}\n${r.stderr}`.replace(/\r\n/g, '\n');
  const bad = out.match(RAW);
  if (bad)
    throw new Error(
      `${label}: raw U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${JSON.stringify(out.slice(Math.max(0, bad.index! - 40), bad.index! + 40))}`,
    );
  expect(out).not.toMatch(/\r/);
  const forged = out.split('\n').filter((l) => l.startsWith('INFO'));
  expect({ label, forged }).toEqual({ label, forged: [] });
  return out;
}

describe('feed text cannot drive the terminal or forge a line (terminal injection)', () => {
  const prefix = uniquePrefix('tty');
  const root = makeTmpDir('tty');
  const env = pipelineEnv(prefix, path.join(root, 'data'));
  const feed = path.join(root, `evil\n${FORGED}\u202e.ndjson`);
  let batchId = '';
  let run: CliResult;

  beforeAll(async () => {
    assertBuilt();
    // A real file whose name has a newline: not an image, so its item fails with a message naming it.
    writeFileSync(path.join(root, `photo\n${FORGED}.jpg`), 'not a jpeg at all');
    writeFileSync(
      feed,
      [
        {
          id: 'T1',
          caption: `Crowd at the match ${ATTACK}. REUTERS/Jo Bloggs`,
          credit: `REUTERS\x1b[8m`,
          transmissionReference: 'LON805',
        },
        { id: 'T2', caption: `Crowd at the match ${ATTACK}. REUTERS/Jo Bloggs`, credit: `REUTERS\x1b[8m` },
        { id: 'T3', caption: 'A photo named with a newline.', image: `photo\n${FORGED}.jpg` },
        {
          id: 'T4',
          headline: 'MANDATORY KILL',
          // Reuters' notice: a reference is an id of its provider, and LON805 here is Reuters' (T1)
          caption: `MANDATORY KILL: The photo (transmission reference LON805) has been retracted ${ATTACK}. REUTERS/Staff`,
          specialInstructions: `MANDATORY KILL: transmission reference LON805. ${ATTACK} PLEASE DELETE FROM ALL YOUR SYSTEMS.`,
        },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    run = await runCli(['run', feed], env);
    batchId = /^batch (\S+)/m.exec(run.stdout)?.[1] ?? '';
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('run: the summary names the feed and the failed photo escaped, one line each', () => {
    expect(run.code).toBe(1);
    const out = expectClean(run, 'run');
    expect(batchId).not.toBe('');
    expect(out).toContain(`evil\\n${FORGED}\\u202e.ndjson`);
    expect(out).toMatch(/#3 IMAGE_UNSUPPORTED: .*photo\\nINFO batch done, 0 failed\.jpg/);
  });

  it('status, with and without a batch id', async () => {
    const one = await runCli(['status', batchId], env);
    expect(one.code).toBe(0);
    expect(expectClean(one, 'status <id>')).toContain(`photo\\n${FORGED}.jpg`);
    const all = await runCli(['status'], env);
    expect(all.code).toBe(0);
    expect(expectClean(all, 'status')).toContain(`evil\\n${FORGED}\\u202e.ndjson`);
  });

  it('failed: source and message escaped', async () => {
    const r = await runCli(['failed'], env);
    expect(r.code).toBe(0);
    expect(expectClean(r, 'failed')).toContain(`photo\\n${FORGED}.jpg`);
  });

  it('clusters: the caption shown with its escapes written out', async () => {
    const r = await runCli(['clusters'], env);
    expect(r.code).toBe(0);
    const out = expectClean(r, 'clusters');
    expect(out).toContain(
      '\\x1b]0;pwned\\x07\\x1b[2J\\x1b[31m red \\u202egnp.exe\\u202c \\u2066iso\\u2069 \\x9b2J del\\x7f',
    );
  });

  it('kills, on a terminal: reason and feed file escaped', async () => {
    const r = await runCliOnTty(['kills'], env);
    expect(r.code).toBe(0);
    const out = expectClean(r, 'kills');
    expect(out).toMatch(/KILLED {2}LON805 {2}.*\\x1b\]0;pwned\\x07/);
    expect(out).toContain(`evil\\n${FORGED}\\u202e.ndjson`);
  });

  it('retry --with-workers: the summary again, escaped', async () => {
    const r = await runCli(['retry', batchId, '--with-workers'], env);
    expect(r.code).toBe(1);
    expect(expectClean(r, 'retry')).toContain(`photo\\n${FORGED}.jpg`);
  });
});
