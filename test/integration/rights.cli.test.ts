import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import {
  REDIS_URL,
  REPO_ROOT,
  WIRE_IMAGES,
  deletePrefix,
  makeTmpDir,
  removeDir,
  uniquePrefix,
} from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 16 from the built CLI (bin/photowire.js over dist/), as an operator would use it: export
 * leaves out killed and embargoed photos, kill then kills lists every copy, rights is a table on a
 * terminal (a pty from script(1)) and JSON when piped.
 */
jest.setTimeout(scaledMs(180_000));

const exif = (file: string, ...args: string[]) =>
  execFileSync('exiftool', ['-q', '-overwrite_original', ...args, file]);

describe('photowire export / kill / kills / rights', () => {
  const prefix = uniquePrefix('rights-cli');
  const dataDir = makeTmpDir('rights-cli-data');
  const feeds = makeTmpDir('rights-cli-feeds');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  const run = async (dir: string) => {
    const r = await runCli(['run', dir, '--json'], env);
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout).batches[0].batchId as string;
  };
  const lines = (s: string) =>
    s
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));

  beforeAll(() => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(dataDir);
    removeDir(feeds);
  });

  it('export leaves out killed and embargoed; kill reaches every copy and kills --since 1d lists them', async () => {
    const night = path.join(feeds, 'night');
    mkdirSync(night);
    copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), path.join(night, '01-LON805.jpg'));
    exif(path.join(night, '01-LON805.jpg'), '-IPTC:OriginalTransmissionReference=LON805');
    copyFileSync(path.join(WIRE_IMAGES, 'IPTC.jpg'), path.join(night, '02-embargoed.jpg'));
    exif(path.join(night, '02-embargoed.jpg'), '-IPTC:ReleaseDate=2099:01:01', '-IPTC:ReleaseTime=00:01:00+00:00');
    copyFileSync(path.join(WIRE_IMAGES, 'pa.jpg'), path.join(night, '03-open.jpg'));
    const morning = path.join(feeds, 'morning');
    mkdirSync(morning);
    copyFileSync(path.join(night, '01-LON805.jpg'), path.join(morning, 'LON805-again.jpg'));
    const batch = await run(night);
    const again = await run(morning);

    const before = await runCli(['export', batch], env);
    expect(before.code).toBe(0);
    expect(lines(before.stdout).map((r) => path.basename(r.source.file))).toEqual(['01-LON805.jpg', '03-open.jpg']);
    expect(before.stderr).toContain('left out: 1 embargoed (--include-embargoed writes them)');

    const kill = await runCli(['kill', 'LON805', '--reason', 'Manipulated at source'], env);
    expect(kill.code).toBe(0);
    // the reference is an id of the photo's provider (its credit's agency), named in the answer
    expect(kill.stdout).toMatch(/^killed LON805 \(agency id, [A-Z]+\): 2 record\(s\): /m);
    expect(kill.stdout).toContain(`${batch}-0001`);
    expect(kill.stdout).toContain(`${again}-0001`);

    // records.ndjson is the batch as received (docs/RIGHTS.md); export and the API are the current truth
    const asReceived = lines(readFileSync(path.join(dataDir, 'batches', batch, 'records.ndjson'), 'utf8'));
    expect(asReceived.map((r) => [path.basename(r.source.file), r.status])).toEqual([
      ['01-LON805.jpg', 'active'],
      ['02-embargoed.jpg', 'active'],
      ['03-open.jpg', 'active'],
    ]);
    const after = await runCli(['export', batch], env);
    expect(after.code).toBe(0);
    expect(lines(after.stdout).map((r) => path.basename(r.source.file))).toEqual(['03-open.jpg']);
    expect(after.stderr).toContain('left out: 1 killed, 1 embargoed (--include-embargoed writes them)');
    const withEmbargoed = await runCli(['export', batch, '--include-embargoed'], env);
    const written = lines(withEmbargoed.stdout);
    expect(written.map((r) => [path.basename(r.source.file), r.availability.state])).toEqual([
      ['02-embargoed.jpg', 'embargoed'],
      ['03-open.jpg', 'publishable'],
    ]);
    expect(withEmbargoed.stderr).toContain('left out: 1 killed');
    expect(lines((await runCli(['export', again], env)).stdout)).toEqual([]);

    const kills = await runCli(['kills', '--since', '1d'], env);
    expect(kills.code).toBe(0);
    const [k] = lines(kills.stdout);
    expect(k).toMatchObject({
      status: 'killed',
      targets: ['LON805'],
      reason: 'Manipulated at source',
      notice: { kind: 'manual' },
    });
    expect(k.copies.map((c: { itemId: string }) => c.itemId).sort()).toEqual([`${batch}-0001`, `${again}-0001`].sort());
    for (const c of k.copies)
      expect(c).toMatchObject({
        batchId: expect.any(String),
        file: expect.stringMatching(/LON805/),
        original: expect.stringMatching(/^originals\//),
      });
  });

  it('rights: a table on a terminal, one JSON object per line when piped', async () => {
    const file = path.join(feeds, 'instructions.txt');
    writeFileSync(file, 'EDITORIAL USE ONLY. NO SALES. MAGS OUT\nEMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024\n');
    const piped = await runCli(['rights', file], env);
    expect(piped.code).toBe(0);
    const [a, b] = lines(piped.stdout);
    expect(a).toMatchObject({
      input: 'EDITORIAL USE ONLY. NO SALES. MAGS OUT',
      rights: { restrictions: expect.arrayContaining(['editorial-only', 'no-sales', 'no-magazines']) },
    });
    expect(b.release.embargoUntil.at).toBe('2024-03-09T00:01:00.000Z');
    // script(1) runs the CLI on a pseudo-terminal, so stdout is a TTY
    const tty = await runCli(['rights', file], env, { wrap: ['sh', '-c', 'exec script -qec "$*" /dev/null', 'sh'] });
    expect(tty.code).toBe(0);
    const text = tty.stdout.replace(/\r/g, '');
    expect(text).toMatch(
      /^EDITORIAL USE ONLY\. NO SALES\. MAGS OUT\n {2}restrictions editorial-only, no-sales, no-magazines\n/m,
    );
    expect(text).toMatch(/ {2}embargo {6}2024-03-09T00:01:00\.000Z/);
    expect(text).not.toContain('{"input"');
  });
});
