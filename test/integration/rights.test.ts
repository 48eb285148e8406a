import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import * as path from 'node:path';
import { TestPipeline } from '../helpers/pipeline';
import { WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import type { CatalogRecord } from '../../src/schemas/record';

/** Rights and release on every record, read from the real agency JPEGs through the pipeline. */
describe('rights and release on the records of the wire images', () => {
  let p: TestPipeline;
  let dir: string;
  let records: CatalogRecord[];
  const byFile = (name: string) => records.find((r) => path.basename(r.source.file) === name)!;

  beforeAll(async () => {
    dir = makeTmpDir('rights');
    for (const f of [
      'GAC103-thumb.jpg',
      'cp.jpg',
      'pa.jpg',
      'reuters-LYNXMPEA6F0MS-thumb.jpg',
      'corbis.jpg',
      'Bush-dog.jpg',
    ])
      copyFileSync(path.join(WIRE_IMAGES, f), path.join(dir, f));
    p = await TestPipeline.start();
    const [o] = await p.ingest([dir]);
    expect(o.error).toBeNull();
    records = await p.rt.ctx.catalog.getRecords(o.batchId!);
  });
  afterAll(async () => {
    await p.close();
    removeDir(dir);
  });

  it('GAC103: "HANDOUT PHOTO; ONE TIME USE ONLY; NO ARCHIVES" and its 14-day window reach the record', () => {
    const r = byFile('GAC103-thumb.jpg');
    expect(r.rights!.restrictions).toEqual([
      'no-sales',
      'no-archive',
      'one-time-use',
      'time-limited',
      'mandatory-credit',
      'handout',
      'news-context-only',
    ]);
    expect(r.rights!.usageTerms).toMatch(/14 DAYS FROM THE TIME OF TRANSMISSION$/);
    expect(r.rights!.raw.map((t) => t.source)).toEqual(
      expect.arrayContaining(['iptc:specialInstructions', 'xmp:photoshop:Instructions']),
    );
    expect(r.release!.expires).toMatchObject({
      source: 'xmp:photoshop:Instructions',
      text: 'MAY BE USED ONLY FOR 14 DAYS FROM THE TIME OF TRANSMISSION',
    });
    expect(r.status).toBe('active');
  });

  it('"EDS NOTE:A FILE PHOTO" (cp.jpg) sets the file flag of the credit', () => {
    const r = byFile('cp.jpg');
    expect(r.rights!.advisories).toEqual(['file-photo']);
    expect(r.credit.flags.file).toBe(true);
  });

  it("Reuters' coded instructions, PA's terms and Corbis' market out", () => {
    expect(byFile('reuters-LYNXMPEA6F0MS-thumb.jpg').rights).toMatchObject({
      restrictions: ['editorial-only', 'no-sales', 'no-archive', 'third-party-supplied'],
      outMarkets: [{ name: 'Syria', code: 'SY' }],
    });
    expect(byFile('pa.jpg').rights!.restrictions).toEqual(['editorial-only', 'no-commercial', 'restrictions-apply']);
    expect(byFile('corbis.jpg').rights!.outMarkets.map((m) => m.code)).toEqual(['FI']);
    expect(byFile('Bush-dog.jpg').rights!.restrictions).toEqual([]);
    expect(byFile('Bush-dog.jpg').release!.embargoUntil).toBeNull();
  });

  it("the preview's IPTC and XMP carry the Special Instructions and usage terms (read back with exiftool)", () => {
    const r = byFile('GAC103-thumb.jpg');
    const preview = path.join(p.config.dataDir, r.renditions.find((x) => x.name === 'preview')!.path);
    const [tags] = JSON.parse(
      execFileSync(
        'exiftool',
        [
          '-j',
          '-IPTC:SpecialInstructions',
          '-XMP-photoshop:Instructions',
          '-XMP-xmpRights:UsageTerms',
          '-IPTC:Credit',
          '-XMP-dc:Rights',
          preview,
        ],
        { encoding: 'utf8' },
      ),
    ) as Array<Record<string, string>>;
    expect(tags.SpecialInstructions).toMatch(/^HANDOUT PHOTO; ONE TIME USE ONLY; NO ARCHIVES/);
    expect(tags.Instructions).toMatch(
      /^HANDOUT PHOTO; ONE TIME USE ONLY; NO ARCHIVES.*14 DAYS FROM THE TIME OF TRANSMISSION$/,
    );
    expect(tags.UsageTerms).toBe(r.rights!.usageTerms);
    expect(tags.Credit).toBe(r.credit.line!.slice(0, 32));
    const reuters = path.join(
      p.config.dataDir,
      byFile('reuters-LYNXMPEA6F0MS-thumb.jpg').renditions.find((x) => x.name === 'preview')!.path,
    );
    expect(execFileSync('exiftool', ['-s3', '-IPTC:SpecialInstructions', reuters], { encoding: 'utf8' })).toMatch(
      /SALESOUT|NARCH|EUO/,
    );
  });
});
