import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { jpegScanOffset, pixelBytes } from '../../../../src/core/images/pixelFingerprint';
import { buildIimBlock, insertIptcIntoJpeg } from '../../../../src/core/metadata';
import { WIRE_IMAGES } from '../../../helpers/testEnv';

describe('pixel fingerprint of a JPEG', () => {
  const jpeg = readFileSync(path.join(WIRE_IMAGES, 'getty.jpg'));

  it('starts at the scan, after every metadata segment', () => {
    const at = jpegScanOffset(jpeg)!;
    expect(at).toBeGreaterThan(2);
    expect([jpeg[at], jpeg[at + 1]]).toEqual([0xff, 0xda]);
  });

  it('is unchanged when only the IPTC changes, and changed when the pixels do', () => {
    const recaptioned = insertIptcIntoJpeg(jpeg, buildIimBlock({ caption: 'Corrected caption.' }, { utf8: true }));
    expect(Buffer.compare(recaptioned, jpeg)).not.toBe(0);
    expect(Buffer.compare(Buffer.from(pixelBytes(recaptioned)), Buffer.from(pixelBytes(jpeg)))).toBe(0);
    const other = Buffer.from(jpeg);
    other[other.length - 10] ^= 0xff;
    expect(Buffer.compare(Buffer.from(pixelBytes(other)), Buffer.from(pixelBytes(jpeg)))).not.toBe(0);
  });

  it('falls back to the whole file for anything else', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect(pixelBytes(png)).toBe(png);
    expect(jpegScanOffset(Buffer.from([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
  });
});
