import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { WIRE_IMAGES, REPO_ROOT } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import type { CatalogRecord } from '../../src/schemas/record';

const expected = JSON.parse(readFileSync(path.join(REPO_ROOT, 'test/fixtures/exiftool/expected.json'), 'utf8')) as {
  files: Record<string, { merged: Record<string, unknown> }>;
};

describe('photowire run on the real agency JPEGs (wire-images fixtures)', () => {
  let p: TestPipeline;
  let records: CatalogRecord[];
  let batchId: string;
  const files = readdirSync(WIRE_IMAGES)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort();

  beforeAll(async () => {
    p = await TestPipeline.start();
    const [o] = await p.ingest([WIRE_IMAGES]);
    expect(o.error).toBeNull();
    batchId = o.batchId!;
    records = await p.rt.ctx.catalog.getRecords(batchId);
  });
  afterAll(async () => p.close());

  it('gives one record per image file and says the README was skipped (neither a picture nor a feed)', async () => {
    expect(records.map((r) => path.basename(r.source.file))).toEqual(files);
    expect(records.filter((r) => r.error)).toEqual([]);
    const ledger = await p.rt.ctx.catalog.getBatch(batchId);
    expect(ledger!.warnings.join('\n')).toMatch(/README\.md: skipped, not a picture or a feed photowire reads/);
  });

  it('carries the IPTC/XMP fields exactly as exiftool reads them', () => {
    for (const r of records) {
      const want = expected.files[path.basename(r.source.file)].merged;
      expect({ file: path.basename(r.source.file), iptc: r.iptc }).toEqual({
        file: path.basename(r.source.file),
        iptc: want,
      });
    }
  });

  it('keeps the raw caption and fills headline, date and location from IPTC', () => {
    const bush = records.find((r) => r.source.file.endsWith('Bush-dog.jpg'))!;
    expect(bush.captionRaw).toBe(expected.files['Bush-dog.jpg'].merged.caption);
    expect(bush.headline).toBe('BUSH');
    expect(bush.location).toMatchObject({ city: 'WACO', state: 'TX', country: 'USA' });
    expect(bush.agencyId).toBe('TXDL102');
    expect(bush.caption).not.toContain('(AP Photo/Duane A. Laverty)');
  });

  it('renders thumbnails of the stated sizes, never enlarged', async () => {
    for (const r of records) {
      const thumb = r.renditions.find((x) => x.name === 'thumb')!;
      const preview = r.renditions.find((x) => x.name === 'preview')!;
      const meta = await sharp(await p.readStored(thumb.path)).metadata();
      expect([meta.width, meta.height]).toEqual([thumb.width, thumb.height]);
      expect(Math.max(thumb.width, thumb.height)).toBe(Math.min(400, Math.max(r.image!.width, r.image!.height)));
      expect(Math.max(preview.width, preview.height)).toBe(Math.min(1600, Math.max(r.image!.width, r.image!.height)));
    }
    const big = records.find((r) => r.source.file.endsWith('IPTC-PhotometadataRef-Std2023.2.jpg'))!;
    expect(big.image).toMatchObject({ width: 2000, height: 1000 });
    expect(big.renditions.map((x) => [x.name, x.width, x.height])).toEqual([
      ['thumb', 400, 200],
      ['preview', 1600, 800],
    ]);
  });

  it('normalizes the agency credits consistently with their IPTC', () => {
    const byFile = (name: string) => records.find((r) => r.source.file.endsWith(name))!.credit;
    expect(byFile('getty.jpg')).toMatchObject({
      creators: ['Christof Stache'],
      agency: 'AFP',
      distributor: 'Getty Images',
    });
    expect(byFile('Bush-dog.jpg')).toMatchObject({ creators: ['Duane A. Laverty'], agency: 'AP' });
    expect(byFile('cp.jpg')).toMatchObject({
      creators: ['Paul Chiasson'],
      agency: 'The Canadian Press',
      agencyId: 'CP',
    });
    expect(byFile('reuters-GM1EA7M13RP01-thumb.jpg')).toMatchObject({ creators: ['Mario Anzuoni'], agency: 'REUTERS' });
    expect(byFile('pa.jpg')).toMatchObject({ creators: ['Martin Rickett'], agency: 'PA' });
    expect(byFile('cech.jpg')).toMatchObject({ creators: ['Phil Cole'], agency: 'Getty Images', agencyId: 'GETTY' });
  });

  it('re-running the same folder renders nothing new and gives the same record ids', async () => {
    const [again] = await p.ingest([WIRE_IMAGES]);
    expect(again.batchId).toBe(batchId);
    expect(again.created).toBe(false);
    expect((await p.rt.ctx.catalog.getRecords(batchId)).map((r) => r.id)).toEqual(records.map((r) => r.id));
  });
});
