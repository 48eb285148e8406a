import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import type { CatalogRecord } from '../../src/schemas/record';
import { writeManifestCorpus, type ManifestCorpus } from '../helpers/corpus';
import { expectBatchWhole } from '../helpers/integrity';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * One NDJSON manifest whose every line is a case of bad or unusual input (test/helpers/corpus.ts).
 * Each bad line becomes a failed record with a stable code naming the file or line and the reason;
 * the good lines are processed; bad input is never retried; nothing is written outside the data
 * directory.
 */
jest.setTimeout(scaledMs(120_000));

/** Every file below `dir` (symlinks not followed) with its size and mtime. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      out.push(`${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a manifest full of bad input', () => {
  let p: TestPipeline;
  let root: string;
  let corpus: ManifestCorpus;
  let records: CatalogRecord[];
  let batchId: string;
  let before: { feed: string[]; outside: string[] };
  let tookMs: number;
  const byId = (id: string) => records.find((r) => r.agencyId === id && !r.error?.code.startsWith('ITEM_DUPLICATE'))!;

  beforeAll(async () => {
    p = await TestPipeline.start({ overrides: { PHOTOWIRE_MAX_FILE_MB: '1' } });
    root = makeTmpDir('bad-input');
    corpus = await writeManifestCorpus(path.join(root, 'feed'), path.join(root, 'outside'));
    before = { feed: snapshot(corpus.dir), outside: snapshot(path.dirname(corpus.outsideJpeg)) };
    const started = Date.now();
    const [o] = await p.ingest([corpus.manifest], 90_000);
    tookMs = Date.now() - started;
    batchId = o.batchId!;
    records = await p.rt.ctx.catalog.getRecords(batchId);
  });
  afterAll(async () => {
    await p.close();
    removeDir(root);
  });

  it('makes one record per line, failed ones with the expected code, the others ok', () => {
    expect(records).toHaveLength(corpus.lines.length);
    const got = records.map((r, i) => ({
      label: corpus.lines[i].label,
      line: r.source.line,
      code: r.error?.code ?? 'ok',
    }));
    const want = corpus.lines.map((l) => ({
      label: l.label,
      line: l.lineNo,
      code: 'code' in l.expect ? l.expect.code : 'ok',
    }));
    expect(got).toEqual(want);
  });

  it('names the file (or manifest line) and the reason in every error', () => {
    for (const [i, r] of records.entries()) {
      if (!r.error) continue;
      const line = corpus.lines[i];
      const names = new RegExp(`${corpus.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\S+`);
      expect({ label: line.label, message: r.error.message }).toEqual({
        label: line.label,
        message: expect.stringMatching(names),
      });
    }
    const msg = (label: string) => records[corpus.lines.findIndex((l) => l.label === label)].error!.message;
    expect(msg('a zero-byte JPEG')).toMatch(/empty\.jpg: the file is empty \(0 bytes\)/);
    expect(msg('a truncated JPEG')).toMatch(/truncated\.jpg: the image could not be decoded: the file is cut short/);
    expect(msg('an HTML error page named .jpg')).toMatch(/error-page\.jpg: not an image format photowire reads/);
    expect(msg('a JPEG declaring 50,000 x 50,000 pixels')).toMatch(
      /bomb\.jpg: 50000x50000 is 2500\.0 MP, over the cap of 100\.0 MP \(PHOTOWIRE_MAX_PIXELS\)/,
    );
    expect(msg('a PNG declaring 50,000 x 50,000 pixels')).toMatch(/bomb\.png: 50000x50000/);
    expect(msg('a file over the size cap')).toMatch(
      /oversize\.jpg: 1\.2 MB is over the file-size cap of 1 MB \(PHOTOWIRE_MAX_FILE_MB\)/,
    );
    const lineOf = (label: string) => corpus.lines.find((l) => l.label === label)!.lineNo;
    expect(msg('a line that is not valid UTF-8')).toBe(
      `${corpus.manifest}:${lineOf('a line that is not valid UTF-8')}: the line is not valid UTF-8`,
    );
    expect(msg('a line that is not JSON')).toMatch(
      new RegExp(`corpus\\.ndjson:${lineOf('a line that is not JSON')}: not valid JSON`),
    );
    expect(msg('a field of the wrong type')).toMatch(/caption: Invalid input: expected string, received number/);
    expect(msg('an id used twice (second use)')).toMatch(/id "ok-1" was already used by item 1/);
    expect(msg('an image path with ../../etc/passwd')).toMatch(
      /image path "\.\.\/\.\.\/etc\/passwd" resolves to .*, outside the feed folder/,
    );
    expect(msg('a symlink in the folder pointing outside')).toMatch(
      /linked\.jpg resolves \(through a symlink\) to .*outside\.jpg, outside the feed folder/,
    );
    expect(msg('an image that does not exist')).toMatch(/missing\.jpg: no such file/);
  });

  it('never retries bad input, and the batch ends with the good lines done', async () => {
    const failed = await p.rt.ctx.catalog.getFailed(batchId);
    expect(failed.length).toBe(corpus.lines.filter((l) => 'code' in l.expect).length);
    expect(failed.every((f) => f.attempts === 1)).toBe(true);
    // The pixel bombs were refused from their header: the whole manifest took seconds, not a 2.5 GP decode.
    expect(tookMs).toBeLessThan(scaledMs(30_000));
    const ok = corpus.lines.filter((l) => 'ok' in l.expect).length;
    await expectBatchWhole(p.rt, batchId, { items: corpus.lines.length, ok });
  });

  it('reads PNG, TIFF, WebP and CMYK JPEG, and renders them as sRGB', async () => {
    for (const [id, format] of [
      ['png', 'png'],
      ['tiff', 'tiff'],
      ['webp', 'webp'],
      ['cmyk', 'jpeg'],
    ] as const) {
      const r = byId(id);
      expect({ id, format: r.image?.format, renditions: r.renditions.map((x) => x.name) }).toEqual({
        id,
        format,
        renditions: ['thumb', 'preview'],
      });
    }
    const preview = byId('cmyk').renditions.find((x) => x.name === 'preview')!;
    const { data, info } = await sharp(path.join(p.config.dataDir, preview.path))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(3);
    // The CMYK red is still red after conversion (not inverted or muddied into grey).
    const [r, g, b] = [data[0], data[1], data[2]];
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(90);
    expect(b).toBeLessThan(90);
  });

  it('turns an EXIF-rotated photo upright: sizes swapped, red on top', async () => {
    const r = byId('rotated');
    expect([r.image!.width, r.image!.height]).toEqual([corpus.rotated.width, corpus.rotated.height]);
    for (const rend of r.renditions) {
      expect([rend.name, rend.width, rend.height]).toEqual([rend.name, 300, 400]);
      const { data, info } = await sharp(path.join(p.config.dataDir, rend.path))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const px = (x: number, y: number) =>
        Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
      const [tr, , tb] = px(info.width >> 1, info.height >> 3);
      const [br, , bb] = px(info.width >> 1, info.height - (info.height >> 3));
      expect({ top: tr > 200 && tb < 60, bottom: bb > 200 && br < 60 }).toEqual({ top: true, bottom: true });
    }
  });

  it('reads IIM captions in Latin-1 and in UTF-8 exactly', () => {
    expect(byId('latin1').captionRaw).toBe(corpus.captions.latin1);
    expect(byId('utf8').captionRaw).toBe(corpus.captions.utf8);
    expect(byId('latin1').credit.creators).toEqual(['Jane Doe']);
  });

  it('stores a 1 MB caption cut to the caption cap (the feed file keeps it whole), and handles empty, right-to-left and emoji captions', () => {
    const big = byId('big');
    // Stored once, cut to 10,000 characters (src/core/feeds/capItems.ts); the manifest itself is untouched.
    expect(big.captionRaw.length).toBe(10_000);
    expect(corpus.captions.big.startsWith(big.captionRaw.slice(0, 8_000))).toBe(true);
    expect(readFileSync(corpus.manifest, 'utf8')).toContain(corpus.captions.big);
    expect(big.cluster).not.toBeNull();

    const blank = byId('blank');
    expect([blank.caption, blank.cluster, blank.error]).toEqual(['', null, null]);

    expect(byId('ar-1').caption).toBe(corpus.captions.arabic);
    // An Arabic caption resent with a typo is the same subject, as a Latin one is: it joins, and says why.
    expect(byId('ar-2').cluster!.id).toBe(byId('ar-1').cluster!.id);
    expect(byId('ar-2').cluster).toMatchObject({
      canonicalId: byId('ar-1').id,
      exact: false,
      why: { matched: ['subject'], edits: [{ kind: 'spelling', from: 'التحرير', to: 'التحريز' }] },
    });
    expect(byId('he').captionRaw).toBe(corpus.captions.hebrewEmoji);
    expect(byId('he').caption).toContain('🎉🇮🇱⚽');
    expect(byId('he').cluster).not.toBeNull();
    // Only emoji: no words to match on, so no cluster, but a record with the caption as sent.
    expect([byId('emoji').captionRaw, byId('emoji').cluster, byId('emoji').error]).toEqual([
      corpus.captions.emojiOnly,
      null,
      null,
    ]);
  });

  it('writes nothing outside the data directory and never stores a file from outside the feed', () => {
    expect(snapshot(corpus.dir)).toEqual(before.feed);
    expect(snapshot(path.dirname(corpus.outsideJpeg))).toEqual(before.outside);
    const stored = new Set(filesBelow(p.config.dataDir).map((f) => sha256(readFileSync(f))));
    expect(stored.has(sha256(readFileSync(corpus.outsideJpeg)))).toBe(false);
    if (existsSync('/etc/passwd')) expect(stored.has(sha256(readFileSync('/etc/passwd')))).toBe(false);
    // Every path a record names is inside the data directory.
    for (const r of records) {
      for (const rel of [r.image?.original, ...r.renditions.map((x) => x.path)].filter((x): x is string => !!x)) {
        expect(path.resolve(p.config.dataDir, rel).startsWith(p.config.dataDir + path.sep)).toBe(true);
      }
    }
  });
});
