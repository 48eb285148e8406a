import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readImageMetadata, readImageMetadataBySource } from '../../../../src/core/metadata';
import { DefaultTextRulesError, loadDefaultTexts, matchDefaultText } from '../../../../src/core/metadata/defaultTexts';
import { creditOfLine } from '../../../../src/core/credits/creditOfLine';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { loadBoilerplateRules } from '../../../../src/core/captions/boilerplate';
import { wireImage } from './helpers';
import { cpuMs } from '../../../helpers/cpuTime';

// Issue 28 items 3-5 on real files (origins: test/fixtures/real-wire/ORIGIN-images.md, the
// wire-images README) and on generated/make.sh files built with ExifTool the same way.
const REAL = path.resolve(__dirname, '../../../fixtures/real-wire/images');
const GENERATED = path.resolve(__dirname, '../../../fixtures/real-wire/generated');
const real = (name: string) => fs.readFileSync(path.join(REAL, name));
const generated = (name: string) => fs.readFileSync(path.join(GENERATED, name));

describe("the caption the agency sent, not the camera's (IPTC/XMP first, EXIF only fills)", () => {
  it('pa.jpg: the 2015 re-issue caption from IPTC, the 2014 EXIF caption only in a warning; the date is the EXIF shutter time', () => {
    const r = readImageMetadata(wireImage('pa.jpg'));
    expect(r.iptc.caption).toMatch(
      /^File photo dated 24-06-2014 of England's Moeen Ali\. .*Moeen Ali is planning to join England/,
    );
    expect(r.warnings.join('\n')).toMatch(
      /EXIF ImageDescription differs from the IPTC caption; the IPTC caption is used .*EXIF said "England's Moeen Ali plays defensively/,
    );
    expect(r.iptc.dateCreated).toBe('2014-06-24T15:10:41.70');
    expect(r.warnings.join('\n')).toMatch(
      /EXIF DateTimeOriginal differs from the IPTC date; the EXIF shutter time is used; IPTC said "2015-04-02T15:10:41\+00:00"/,
    );
  });

  it('a mandatory-byline line in the IPTC caption survives an older EXIF caption, so the mandatory-credit flag is raised', () => {
    const r = readImageMetadata(generated('exif-older-caption.jpg'));
    expect(r.iptc.caption).toMatch(
      /MUST BE BYLINED: Martin Rickett\/PA Wire\. Mandatory Credit: Martin Rickett\/PA Wire$/,
    );
    expect(r.iptc.copyright).toBe('PA Wire');
    const { flagged } = creditOfLine(r.iptc.caption!, loadCreditRules(), loadBoilerplateRules(), {
      byline: r.iptc.byline,
      creditLine: r.iptc.credit ?? null,
    });
    expect(flagged.flags.mandatory).toBe(true);
  });

  it('XMP.jpg: the XMP description beats the EXIF ImageDescription', () => {
    expect(readImageMetadata(wireImage('XMP.jpg')).iptc.caption).toBe('UTF-16 (big-endian) encoded XMP');
  });

  it("exiftool's MWG.jpg (MWG's own test): IPTC where MWG reads EXIF, the EXIF date still first", () => {
    const r = readImageMetadataBySource(real('exiftool-MWG.jpg'));
    expect(r.iptc.caption).toBe('WRONG-IPTC-Description');
    expect(r.iptc.byline).toEqual(['WRONG1of2-IPTC-Creator', 'WRONG2of2-IPTC-Creator']);
    expect(r.bySource.exif.byline).toEqual(['RIGHT1of2-EXIF-Creator', 'RIGHT2of2-EXIF-Creator']);
    expect(r.iptc.dateCreated).toBe('2001-01-01T01:11:11.111');
  });

  it('a zeroed EXIF date never wins: the IPTC date is kept, with a warning', () => {
    const r = readImageMetadata(generated('exif-date-zeroed.jpg'));
    expect(r.iptc.dateCreated).toBe('2024-05-29');
    expect(r.warnings.join('\n')).toMatch(/EXIF DateTimeOriginal "0000:00:00 00:00:00" is zeroed; ignored/);
  });

  it('an EXIF date after the transmission (IIM 1:70) never wins', () => {
    const r = readImageMetadata(generated('exif-date-after-sent.jpg'));
    expect(r.iptc.dateCreated).toBe('2024-05-29');
    expect(r.warnings.join('\n')).toMatch(
      /EXIF DateTimeOriginal 2031-01-01T10:00:00 is after the transmission \(2024-05-30T08:15:00\+00:00\); the IPTC date 2024-05-29 is used/,
    );
  });

  it('without an IIM envelope, the time the file arrived bounds the EXIF date', () => {
    const r = readImageMetadata(real('exiftool-MWG.jpg'), undefined, { receivedAt: '2000-06-01T00:00:00Z' });
    expect(r.iptc.dateCreated).toBe('1992-01-01T02:11:11+01:00');
    expect(readImageMetadata(real('exiftool-MWG.jpg'), undefined, { receivedAt: '2001-01-02' }).iptc.dateCreated).toBe(
      '2001-01-01T01:11:11.111',
    );
  });
});

describe('camera and software defaults are not metadata', () => {
  it.each([
    ['exiftool-Olympus.jpg', 'OLYMPUS DIGITAL CAMERA'],
    ['exiftool-Sanyo.jpg', 'SANYO DIGITAL CAMERA'],
    ['exiftool-GE.jpg', 'GE DIGITAL CAMERA'],
    ['exiv2-mini9.tif', 'Created with GIMP'],
  ])('%s: the EXIF ImageDescription %j is no caption, and a warning says so', (name, text) => {
    const r = readImageMetadataBySource(real(name));
    expect(r.bySource.exif.caption).toBe(text); // trimmed: Olympus pads it with blanks
    expect(r.iptc.caption).toBeUndefined();
    expect(r.warnings.join('\n')).toContain(`EXIF caption ${JSON.stringify(text)} is a camera or software default`);
  });

  it('exiftool-Ricoh.jpg: Ricoh\'s "(C) by Caplio RR1 User" is no copyright', () => {
    const r = readImageMetadata(real('exiftool-Ricoh.jpg'));
    expect(r.iptc.copyright).toBeUndefined();
    expect(r.warnings.join('\n')).toMatch(
      /EXIF copyright "\(C\) by Caplio RR1 User" is a camera or software default \(rule copyright-placeholder\)/,
    );
  });

  it('a camera\'s EXIF "Copyright," is dropped with a warning; the IIM copyright stands', () => {
    const r = readImageMetadata(generated('exif-older-caption.jpg'));
    expect(r.warnings.join('\n')).toMatch(/EXIF copyright "Copyright," is a camera or software default/);
    expect(r.iptc.copyright).toBe('PA Wire');
  });

  it('the operator extends the shipped list, switches a rule off, and a bad file is refused with its line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photowire-defaults-'));
    const ok = path.join(dir, 'ok.json');
    fs.writeFileSync(
      ok,
      JSON.stringify(
        {
          version: 'desk-1',
          disable: ['software-caption'],
          rules: [
            { name: 'house-camera', fields: ['caption'], texts: ['NEWSROOM CAM {digits}'], why: 'our pool cameras' },
          ],
        },
        null,
        2,
      ),
    );
    const texts = loadDefaultTexts(ok);
    expect(texts.version).toMatch(/\+desk-1$/);
    expect(matchDefaultText(texts, 'caption', 'newsroom cam 12')?.rule).toBe('house-camera');
    expect(matchDefaultText(texts, 'caption', 'Created with GIMP')).toBeUndefined();
    expect(matchDefaultText(texts, 'caption', 'OLYMPUS DIGITAL CAMERA')?.rule).toBe('camera-model-caption');
    const r = readImageMetadata(real('exiv2-mini9.tif'), undefined, { defaultTexts: texts });
    expect(r.iptc.caption).toBe('Created with GIMP');

    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(
      bad,
      '{\n  "version": "x",\n  "rules": [\n    { "name": "x", "fields": ["caption"], "texts": ["{anything} CAMERA"], "why": "w" }\n  ]\n}\n',
    );
    expect(() => loadDefaultTexts(bad)).toThrow(DefaultTextRulesError);
    expect(() => loadDefaultTexts(bad)).toThrow(/line 4: rules\.0\.texts\.0: unknown placeholder \{anything\}/);
    fs.rmSync(dir, { recursive: true });
  });

  it('a long caption is never taken for a default, and matching it stays fast', () => {
    const texts = loadDefaultTexts();
    const long = `${'WORD '.repeat(20_000)}DIGITAL CAMERA`;
    // CPU time, not the wall clock: on a busy box the wall clock also counts other processes' turns.
    const spent = cpuMs(() => {
      expect(matchDefaultText(texts, 'caption', long)).toBeUndefined();
      expect(matchDefaultText(texts, 'caption', 'A B C D E DIGITAL CAMERA')).toBeUndefined(); // at most four words before it
    });
    expect(spent).toBeLessThan(50);
  });
});

describe('IIM cut short, XMP complete', () => {
  it("IPTC-PhotometadataRef-Std2017.1.jpg: the state IIM cut at 32 bytes is completed from photoshop:State, though LocationShown gave XMP's state", () => {
    const r = readImageMetadataBySource(wireImage('IPTC-PhotometadataRef-Std2017.1.jpg'));
    expect(r.bySource.iim.state).toBe('Province/State (Core) (ref2017.1');
    expect(r.iptc.state).toBe('Province/State (Core) (ref2017.1)');
  });

  it('one IIM keyword holding the list joined and cut at 64 bytes: the list XMP holds whole', () => {
    const r = readImageMetadataBySource(generated('iim-keywords-cut.jpg'));
    expect(r.bySource.iim.keywords).toEqual(['ronald reagan, reagan, cvn 76, cvn-76, straits of magellan, mage']);
    expect(r.iptc.keywords).toHaveLength(16);
    expect(r.iptc.keywords?.slice(-2)).toEqual(['cape horn', 'aircraft carrier']);
  });

  it('keywords a system joined with ";" or ", " are split', () => {
    expect(readImageMetadata(generated('keywords-joined.jpg')).iptc.keywords).toEqual([
      'Moeen Ali',
      'cricket',
      'England',
      'world cup',
      'talking points',
    ]);
  });

  it('EXIF text that is not UTF-8 is read as Windows-1252 (an "ö", not U+FFFD)', () => {
    const r = readImageMetadata(generated('exif-cp1252.jpg'));
    expect(r.iptc.caption).toBe('Kölner Dom – Blick vom Rhein');
    expect(r.iptc.byline).toEqual(['Jürgen Müller']);
  });
});
