import * as fs from 'node:fs';
import * as path from 'node:path';
import wireExpected from '../../../fixtures/exiftool/expected.json';
import realExpected from '../../../fixtures/real-wire/images.expected.json';
import generatedExpected from '../../../fixtures/real-wire/generated.expected.json';
import type { ExiftoolExpectation } from '../../../fixtures/exiftool/mapExiftool';
import { readImageMetadataBySource } from '../../../../src/core/metadata';
import type { IptcFields } from '../../../../src/schemas/feedItem';
import { WIRE_IMAGES } from './helpers';

// The fields issue 11 names: every image must give what photowire's rule gives from ExifTool's own
// IIM/XMP/EXIF values, and what `exiftool -use MWG` gives wherever the two rules agree.
const CHECKED = [
  'caption',
  'headline',
  'byline',
  'credit',
  'source',
  'copyright',
  'city',
  'state',
  'country',
  'transmissionReference',
  'keywords',
  'dateCreated',
] as const;
const MWG_FIELDS = new Set(['caption', 'byline', 'copyright', 'keywords', 'city', 'state', 'country', 'dateCreated']);

/**
 * Where photowire's rule gives another value than MWG on purpose: a text field whose EXIF value
 * MWG takes while photowire takes IPTC's, a value that is a camera or software default, and EXIF
 * text read as Windows-1252.
 */
function deliberateDifference(field: keyof IptcFields, want: ExiftoolExpectation): boolean {
  const exif = want.exif[field];
  const fromIptc = want.xmp[field] ?? want.iim[field];
  if (
    field !== 'dateCreated' &&
    exif !== undefined &&
    fromIptc !== undefined &&
    JSON.stringify(exif) !== JSON.stringify(fromIptc)
  )
    return true;
  if (want.mwg[field] !== undefined && want.merged[field] === undefined) return true;
  // EXIF bytes that are not UTF-8: ExifTool prints "?" for each, photowire reads Windows-1252
  const asExiftoolPrints = JSON.stringify(want.merged[field] ?? null).replace(/[^\x00-\x7f]/g, '?');
  return (
    want.mwg[field] !== undefined &&
    JSON.stringify(want.mwg[field]) !== JSON.stringify(want.merged[field]) &&
    JSON.stringify(want.mwg[field]) === asExiftoolPrints
  );
}

const REAL_WIRE = path.resolve(__dirname, '../../../fixtures/real-wire/images');
const GENERATED = path.resolve(__dirname, '../../../fixtures/real-wire/generated');

const sets: Array<[string, string, Record<string, ExiftoolExpectation>]> = [
  ['real-wire', REAL_WIRE, realExpected.files as unknown as Record<string, ExiftoolExpectation>],
  ['generated', GENERATED, generatedExpected.files as unknown as Record<string, ExiftoolExpectation>],
  ['wire-images', WIRE_IMAGES, wireExpected.files as unknown as Record<string, ExiftoolExpectation>],
];

const pick = (f: IptcFields) => Object.fromEntries(CHECKED.filter((k) => f[k] !== undefined).map((k) => [k, f[k]]));

describe.each(sets)('%s images against committed `exiftool -use MWG` values', (_set, dir, files) => {
  it('has expectations for exactly the image files', () => {
    const names = fs
      .readdirSync(dir)
      .filter((f) => /\.(jpe?g|tiff?|png|webp)$/i.test(f))
      .sort();
    expect(Object.keys(files).sort()).toEqual(names);
  });

  describe.each(Object.keys(files).sort())('%s', (name) => {
    const got = readImageMetadataBySource(fs.readFileSync(path.join(dir, name)));
    const want = files[name];
    it('reads the IIM, XMP and EXIF fields ExifTool reads', () => {
      expect({ iim: got.bySource.iim, xmp: got.bySource.xmp, exif: got.bySource.exif, digest: got.digest }).toEqual({
        iim: want.iim,
        xmp: want.xmp,
        exif: want.exif,
        digest: want.digest,
      });
    });
    it('merges them by the documented rule (IPTC first, EXIF fills; IIM first without a digest)', () => {
      expect(pick(got.iptc)).toEqual(pick(want.merged));
    });
    it('equals ExifTool MWG composites wherever MWG decides and the rule does not deliberately differ', () => {
      if (want.digest === 'no-digest') return; // our own rule, documented in mergeIimXmp.ts
      // Deliberate: IPTC before a different EXIF text, and a camera default dropped (mergeIimXmp.ts).
      const differs = (k: string) => deliberateDifference(k as keyof IptcFields, want);
      const mwgView = Object.fromEntries(
        Object.entries(pick(got.iptc)).filter(
          ([k]) => MWG_FIELDS.has(k) && want.mwg[k as keyof IptcFields] !== undefined && !differs(k),
        ),
      );
      const wantMwg = Object.fromEntries(
        Object.entries(want.mwg).filter(([k]) => CHECKED.includes(k as (typeof CHECKED)[number]) && !differs(k)),
      );
      expect(mwgView).toEqual(wantMwg);
    });
  });
});
