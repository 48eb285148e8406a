import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { writeManifestCorpus, type ManifestCorpus } from '../helpers/corpus';
import { assertBuilt } from '../helpers/processes';
import { REDIS_URL, REPO_ROOT, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * The bad-input corpus through the built CLI, as an operator meets it: `run --json` (exit code,
 * per-item failures, refused feeds), then `status`, `export` and `failed` on the batch it made.
 */
jest.setTimeout(scaledMs(120_000));

describe('bad input as the CLI shows it', () => {
  const prefix = uniquePrefix('badcli');
  const root = makeTmpDir('badcli');
  const env = {
    REDIS_URL,
    PHOTOWIRE_PREFIX: prefix,
    PHOTOWIRE_DATA_DIR: path.join(root, 'data'),
    PHOTOWIRE_MAX_FILE_MB: '1',
  };
  const xxe = path.join(REPO_ROOT, 'test/fixtures/feeds/xxe.xml');
  let corpus: ManifestCorpus;
  let run: { code: number | null; json: any };
  const expectedCodes = () =>
    corpus.lines.map((l) => ('code' in l.expect ? l.expect.code : null)).filter((c): c is string => c !== null);

  beforeAll(async () => {
    assertBuilt();
    corpus = await writeManifestCorpus(path.join(root, 'feed'), path.join(root, 'outside'));
    const r = await runCli(['run', corpus.manifest, xxe, '--json'], env);
    // Bad input is logged as warnings (one per item), never as errors or stack traces.
    const levels = r.stderr
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { level: number }).level);
    expect(levels.every((lv) => lv === 40)).toBe(true);
    run = { code: r.code, json: JSON.parse(r.stdout) };
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('run --json: exit 1, every failure with its code and line, the refused feed named', () => {
    expect(run.code).toBe(1);
    const items = corpus.lines.length;
    const failed = expectedCodes().length;
    expect(run.json).toMatchObject({ items, ok: items - failed, failed });
    const [batch] = run.json.batches;
    expect(batch.failures.map((f: { code: string }) => f.code)).toEqual(expectedCodes());
    const bad = corpus.lines.filter((l) => 'code' in l.expect);
    expect(batch.failures.map((f: { source: string }) => f.source)).toEqual(
      bad.map((l) => `${corpus.manifest}:${l.lineNo}`),
    );
    expect(run.json.feedErrors).toEqual([
      { path: xxe, code: 'XML_ENTITY_REFUSED', message: expect.stringContaining(xxe) },
    ]);
    // The same summary is on disk beside the records.
    const summary = JSON.parse(
      readFileSync(path.join(env.PHOTOWIRE_DATA_DIR, 'batches', batch.batchId, 'summary.json'), 'utf8'),
    );
    expect(summary.failures.map((f: { code: string }) => f.code)).toEqual(expectedCodes());
  });

  it('status shows the failures with their reasons', async () => {
    const batchId = run.json.batches[0].batchId;
    const json = await runCli(['status', batchId, '--json'], env);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).failures.map((f: { code: string }) => f.code)).toEqual(expectedCodes());
    const text = await runCli(['status', batchId], env);
    expect(text.stdout).toContain(
      `${corpus.lines.length} items: ${corpus.lines.length - expectedCodes().length} ok, ${expectedCodes().length} failed`,
    );
    expect(text.stdout).toMatch(/#2 IMAGE_CORRUPT: .*empty\.jpg: the file is empty \(0 bytes\)/);
    expect(text.stdout).toMatch(/IMAGE_TOO_LARGE: .*bomb\.jpg: 50000x50000/);
    expect(text.stdout).toMatch(/FEED_MALFORMED: .*corpus\.ndjson:\d+: the line is not valid UTF-8/);
  });

  it('export carries each record with its error, in feed order', async () => {
    const out = await runCli(['export', run.json.batches[0].batchId], env);
    expect(out.code).toBe(0);
    const records = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records.map((r) => r.error?.code ?? 'ok')).toEqual(
      corpus.lines.map((l) => ('code' in l.expect ? l.expect.code : 'ok')),
    );
    // a 1 MB caption is stored cut to the caption cap (the feed file keeps it whole)
    expect(records.find((r) => r.agencyId === 'big').captionRaw.length).toBe(10_000);
  });

  it('failed lists them with code, attempts and source; the other batches are unaffected', async () => {
    const batchId = run.json.batches[0].batchId;
    const json = JSON.parse((await runCli(['failed', '--batch', batchId, '--json'], env)).stdout);
    expect(json.map((f: { code: string }) => f.code)).toEqual(expectedCodes());
    expect(json.every((f: { attempts: number; batchId: string }) => f.attempts === 1 && f.batchId === batchId)).toBe(
      true,
    );
    const all = JSON.parse((await runCli(['failed', '--json'], env)).stdout);
    expect(all).toEqual(json);
    const text = await runCli(['failed'], env);
    expect(text.stdout).toContain(`batch ${batchId}`);
    expect(text.stdout).toMatch(
      new RegExp(
        `${batchId}-0002  IMAGE_CORRUPT  1 attempt  ${corpus.manifest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2`,
      ),
    );
    expect(text.stdout).toContain(`${expectedCodes().length} failed items`);
    const unknown = await runCli(['failed', '--batch', 'no-such-batch'], env);
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      'no batch no-such-batch (photowire status lists recent batches)\n',
    ]);
  });

  it('retry is harmless on bad input: feed-level problems are skipped with the reason, photos fail again the same way', async () => {
    const batchId = run.json.batches[0].batchId;
    const r = await runCli(['retry', batchId, '--with-workers', '--json'], env);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.skipped.length).toBeGreaterThan(0);
    for (const s of out.skipped) expect(s.reason).toMatch(/the feed itself is bad at this item/);
    expect(out.retried.length + out.skipped.length).toBe(expectedCodes().length);
    // Same counts and codes as before: nothing doubled, nothing turned ok by accident.
    expect(out.batch).toMatchObject({ state: 'done', items: corpus.lines.length, failed: expectedCodes().length });
    expect(out.batch.failures.map((f: { code: string }) => f.code)).toEqual(expectedCodes());
    const records = readFileSync(path.join(env.PHOTOWIRE_DATA_DIR, 'batches', batchId, 'records.ndjson'), 'utf8')
      .trim()
      .split('\n');
    expect(records).toHaveLength(corpus.lines.length);
  });
});
