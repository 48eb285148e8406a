import { copyFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';

// Issue 11: metadata is read from the bytes before decoding; a photo that cannot be decoded keeps
// what could be read, other containers are read by hand, and the reader's warnings reach the batch.
const REAL_WIRE = path.resolve(__dirname, '../fixtures/real-wire/images');
const GENERATED = path.resolve(__dirname, '../fixtures/real-wire/generated');

describe('embedded metadata read before decoding (real Redis, real image bytes)', () => {
  let p: TestPipeline;
  let feedDir: string;

  beforeAll(async () => {
    p = await TestPipeline.start();
    feedDir = makeTmpDir('feed-meta');
    const photo = await syntheticPhoto({ width: 800, height: 600, seed: 11 });
    const tagged = insertIptcIntoJpeg(
      photo,
      buildIimBlock(
        {
          caption: 'Firefighters at a blaze in Lyon, France. REUTERS/Jane Doe',
          byline: ['Jane Doe'],
          credit: 'REUTERS',
          copyright: 'Reuters',
        },
        { utf8: true },
      ),
    );
    writeFileSync(path.join(feedDir, 'a-truncated.jpg'), tagged.subarray(0, Math.floor(tagged.length / 2)));
    copyFileSync(path.join(REAL_WIRE, 'exiv2-table.jpg'), path.join(feedDir, 'b-metadata-only.jpg'));
    copyFileSync(path.join(GENERATED, 'be-iptc.tif'), path.join(feedDir, 'c-big-endian.tif'));
    copyFileSync(path.join(GENERATED, 'raw-profiles.png'), path.join(feedDir, 'd-raw-profiles.png'));
    copyFileSync(path.join(GENERATED, 'iim-bad-zone.jpg'), path.join(feedDir, 'e-bad-zone.jpg'));
  });
  afterAll(async () => {
    await p.close();
    removeDir(feedDir);
  });

  it('keeps caption, by-line and copyright of undecodable photos, reads TIFF and PNG metadata, and warns the batch', async () => {
    const [o] = await p.ingest([feedDir]);
    const records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    const byName = Object.fromEntries(records.map((r) => [path.basename(r.source.file), r]));

    const truncated = byName['a-truncated.jpg'];
    expect(truncated.error?.code).toBe('IMAGE_CORRUPT');
    expect(truncated.iptc).toMatchObject({
      caption: 'Firefighters at a blaze in Lyon, France. REUTERS/Jane Doe',
      byline: ['Jane Doe'],
      credit: 'REUTERS',
      copyright: 'Reuters',
    });
    expect(truncated.caption).toContain('Firefighters at a blaze in Lyon');

    const metadataOnly = byName['b-metadata-only.jpg'];
    expect(metadataOnly.error).not.toBeNull();
    // The agency's IIM caption and by-line come before the EXIF ImageDescription and Artist (EXIF only fills: docs/METADATA.md)
    expect(metadataOnly.iptc).toMatchObject({
      caption: 'Smiley green faced dude (iptc caption)',
      byline: ['Its me'],
      copyright: '© 2004 Nobody',
      city: 'Seattle',
    });

    const tiff = byName['c-big-endian.tif'];
    expect(tiff.error).toBeNull();
    expect(tiff.iptc).toMatchObject({
      caption: 'be TIFF caption',
      byline: ['Ann be'],
      credit: 'be Agency',
      source: 'be Source',
      city: 'Zürich',
      keywords: ['one', 'two'],
    });

    const png = byName['d-raw-profiles.png'];
    expect(png.error).toBeNull();
    // ImageMagick's raw profiles: IIM and its digest (8bim) and XMP; the digest matches, so XMP wins
    expect(png.iptc).toMatchObject({
      caption: 'XMP caption',
      headline: 'XMP headline',
      credit: 'IIM credit',
      city: 'XMP city',
    });

    const zone = byName['e-bad-zone.jpg'];
    expect(zone.iptc.dateCreated).toBe('2024-05-30T13:59:26');

    const batch = await p.rt.ctx.catalog.getBatch(o.batchId!);
    const warnings = batch!.warnings.join('\n');
    expect(warnings).toMatch(
      /e-bad-zone\.jpg: APP13 at byte \d+: IIM 2:60 Time Created "135926-1057" has an impossible time zone -10:57/,
    );
    expect(warnings).toMatch(/b-metadata-only\.jpg: EXIF ImageDescription differs from the IPTC caption/);
  });
});
