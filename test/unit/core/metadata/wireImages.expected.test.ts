import expected from '../../../fixtures/exiftool/expected.json';
import type { ExiftoolExpectation } from '../../../fixtures/exiftool/mapExiftool';
import { readImageMetadata, readImageMetadataBySource } from '../../../../src/core/metadata';
import { wireImage, wireImageNames } from './helpers';

// What ExifTool reads from each fixture (test/fixtures/exiftool/generate.sh), compared field by field.
const files = expected.files as unknown as Record<string, ExiftoolExpectation>;
const names = wireImageNames();

describe('wire-image fixtures against committed ExifTool values', () => {
  it('has expectations for exactly the fixture files', () => {
    expect(Object.keys(files).sort()).toEqual(names);
  });

  describe.each(names)('%s', (name) => {
    const got = readImageMetadataBySource(wireImage(name));
    const want = files[name];

    it('reads the IIM fields ExifTool reads', () => {
      expect(got.bySource.iim).toEqual(want.iim);
    });
    it('reads the XMP fields ExifTool reads', () => {
      expect(got.bySource.xmp).toEqual(want.xmp);
    });
    it('merges them by the documented precedence', () => {
      expect(got.iptc).toEqual(want.merged);
    });
  });
});

// The files the fixtures README calls tricky, by what a user would see.
describe('tricky wire images', () => {
  it('iptc-independent-photographer-example.jpg: IIM Credit cut at 32 bytes is completed from XMP', () => {
    const r = readImageMetadataBySource(wireImage('iptc-independent-photographer-example.jpg'));
    expect(r.bySource.iim.credit).toBe('©1985 David Riecks: www.riecks.c');
    expect(r.iptc.credit).toBe('©1985 David Riecks: www.riecks.com');
  });

  it('cech.jpg: of two conflicting XMP packets the later one wins, as in ExifTool; both kept raw', () => {
    const r = readImageMetadata(wireImage('cech.jpg'));
    expect(r.iptc.caption).toMatch(/^\(FILE PHOTO\) Petr Cech has announced he is retiring/);
    expect(r.iptc.caption).toMatch(/\(Photo by Phil Cole\/Getty Images\)$/);
    expect(r.iptc.headline).toBe(
      'Petr Cech Retiring At End of the Season England v Czech Republic - International Friendly',
    );
    expect(r.raw.iim).toEqual([]);
    expect(r.raw.xmp?.match(/<x:xmpmeta/g)).toHaveLength(2);
  });

  it('getty.jpg: XMP behind a non-standard APP1 header is read, with a warning', () => {
    const r = readImageMetadataBySource(wireImage('getty.jpg'));
    expect(r.bySource.xmp.credit).toBe('AFP/Getty Images');
    expect(r.iptc.caption).toMatch(/AFP PHOTO \/ CHRISTOF STACHECHRISTOF STACHE\/AFP\/Getty Images$/);
    expect(r.warnings.join('\n')).toMatch(/non-standard header/);
  });

  it('XMP.jpg: UTF-16 big-endian XMP; its description is the caption, the EXIF ImageDescription only named in a warning', () => {
    const r = readImageMetadataBySource(wireImage('XMP.jpg'));
    expect(r.bySource.xmp.caption).toBe('UTF-16 (big-endian) encoded XMP');
    expect(r.iptc.caption).toBe('UTF-16 (big-endian) encoded XMP');
    expect(r.iptc.keywords).toEqual(['ExifTool', 'Test', 'XMP']);
    expect(r.warnings.join('\n')).toMatch(
      /EXIF ImageDescription differs from the IPTC caption; the IPTC caption is used .*EXIF said "A witty caption"/,
    );
  });

  it('reuters-LYNXMPEA6F0MS-thumb.jpg: envelope record and datasets out of order are all read', () => {
    const r = readImageMetadata(wireImage('reuters-LYNXMPEA6F0MS-thumb.jpg'));
    const records = r.raw.iim.map((d) => d.record).filter((rec, i, all) => i === 0 || all[i - 1] !== rec);
    expect(records).toEqual([1, 2, 7, 2, 1, 2, 7]);
    expect(r.iptc.byline).toEqual(['REUTERS TV']);
    expect(r.iptc.objectName).toBe('SYRIA-CRISIS-ASSAD');
    expect(r.iptc.dateCreated).toBe('2014-07-16T13:00:03+00:00');
    expect(r.raw.iim).toContainEqual({ record: 1, dataset: 70, value: '20140716' });
  });

  it('cp.jpg: UTF-8 IIM is decoded and IIM wins over the stale XMP', () => {
    const r = readImageMetadataBySource(wireImage('cp.jpg'));
    expect(r.iptc.objectName).toBe('MORT PIÉTONNE MONTRÉAL 20201014');
    expect(r.bySource.xmp.source).toBe('CP');
    expect(r.iptc.source).toBe('The Canadian Press');
    expect(r.iptc.caption).toMatch(/THE CANADIAN PRESS\/Paul Chiasson$/);
  });

  it('PhotoMechanic.jpg: XMP fills what IIM lacks', () => {
    const r = readImageMetadataBySource(wireImage('PhotoMechanic.jpg'));
    expect(r.bySource.iim.transmissionReference).toBeUndefined();
    expect(r.iptc.transmissionReference).toBe('Trans ref');
  });

  it('the agency files carry their credits', () => {
    expect(readImageMetadata(wireImage('Bush-dog.jpg')).iptc).toMatchObject({
      byline: ['DUANE A. LAVERTY'],
      credit: 'AP',
    });
    expect(readImageMetadata(wireImage('GAC103-thumb.jpg')).iptc).toMatchObject({ source: 'HO', bylineTitle: ['HO'] });
    expect(readImageMetadata(wireImage('reuters-GM1EA7M13RP01-thumb.jpg')).iptc).toMatchObject({
      source: 'X90045',
      credit: 'REUTERS',
    });
    // pa.jpg's IPTC caption is the 2015 re-issue; its EXIF ImageDescription the 2014 match caption
    expect(readImageMetadata(wireImage('pa.jpg')).iptc.caption).toMatch(
      /^File photo dated 24-06-2014 .* Photo credit should read Martin Rickett\/PA Wire\.$/,
    );
    expect(readImageMetadata(wireImage('corbis.jpg')).iptc.caption).toMatch(
      /\(Credit Image: © Mike Cardew\/TNS\/ZUMA Wire\) --- Image by © Mike Cardew\/ZUMA Press\/Corbis$/,
    );
  });
});
