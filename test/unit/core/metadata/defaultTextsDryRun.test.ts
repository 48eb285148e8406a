import * as fs from 'node:fs';
import * as path from 'node:path';
import { readImageMetadataBySource } from '../../../../src/core/metadata';
import { loadDefaultTexts } from '../../../../src/core/metadata/defaultTexts';
import { dryRunDefaultFields, dryRunDefaultLine } from '../../../../src/core/metadata/defaultTextsDryRun';

// `photowire defaults`: what the operator sees before a rules change reaches the pipeline.
const REAL = path.resolve(__dirname, '../../../fixtures/real-wire/images');
const texts = loadDefaultTexts();

describe('photowire defaults (the dry run)', () => {
  it('names the rule that drops a line, tried as every field a rule names, and keeps a real caption', () => {
    expect(dryRunDefaultLine(texts, 'SONY DSC')).toMatchObject({
      field: 'caption',
      dropped: true,
      rule: 'camera-model-caption',
    });
    expect(dryRunDefaultLine(texts, '  OLYMPUS   DIGITAL CAMERA   ')).toMatchObject({
      value: 'OLYMPUS DIGITAL CAMERA',
      dropped: true,
    });
    expect(dryRunDefaultLine(texts, 'Copyright,')).toMatchObject({
      field: 'copyright',
      dropped: true,
      rule: 'copyright-placeholder',
    });
    expect(dryRunDefaultLine(texts, 'caption\tCopyright,')).toMatchObject({
      field: 'caption',
      dropped: false,
      rule: null,
    });
    expect(dryRunDefaultLine(texts, 'Moeen Ali bats at Headingley.')).toMatchObject({ dropped: false, rule: null });
  });

  it("lists each IIM, XMP and EXIF text of a real file with its verdict (exiftool's Ricoh.jpg)", () => {
    const r = readImageMetadataBySource(fs.readFileSync(path.join(REAL, 'exiftool-Ricoh.jpg')));
    expect(dryRunDefaultFields(texts, r.bySource)).toEqual([
      {
        source: 'EXIF',
        field: 'copyright',
        value: '(C) by Caplio RR1 User',
        dropped: true,
        rule: 'copyright-placeholder',
      },
    ]);
    const pa = readImageMetadataBySource(
      fs.readFileSync(path.resolve(__dirname, '../../../fixtures/shared/fixtures/wire-images/pa.jpg')),
    );
    expect(dryRunDefaultFields(texts, pa.bySource).filter((v) => v.dropped)).toEqual([]);
  });
});
