import { libvipsReason, probeImage } from '../../../../src/adapters/images/sharpImages';
import { syntheticPhoto } from '../../../../src/sample/syntheticPhoto';

describe("libvips's reason, once", () => {
  it('keeps one copy of a repeated decoder error, without its prefixes', () => {
    const msg =
      'Input buffer has corrupt header: VipsJpeg: Bogus Huffman table definition\nVipsJpeg: Bogus Huffman table definition\nVipsJpeg: Bogus Huffman table definition';
    expect(libvipsReason(msg)).toBe('corrupt header: Bogus Huffman table definition');
    expect(
      libvipsReason(
        'VipsJpeg: Corrupt JPEG data: 12 extraneous bytes before marker 0xd9\nVipsJpeg: Corrupt JPEG data: 40 extraneous bytes before marker 0xd9\nVipsJpeg: premature end of JPEG image\njpegload_buffer: load failed',
      ),
    ).toBe('Corrupt JPEG data: 12 extraneous bytes before marker 0xd9 (and 1 more decoder error)');
    expect(libvipsReason('VipsJpeg: premature end of JPEG image')).toBe('premature end of JPEG image');
  });

  it('gives a damaged JPEG one readable line that says it is structurally broken, not cut short', async () => {
    const good = await syntheticPhoto({ width: 800, height: 600, seed: 3 });
    const bad = Buffer.from(good);
    bad[bad.indexOf(Buffer.from([0xff, 0xc4])) + 5] = 0x55; // a Huffman table no decoder accepts
    const err = await probeImage(bad, 'broken.jpg', 1e8).catch((e: Error) => e);
    expect((err as { code?: string }).code).toBe('IMAGE_CORRUPT');
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message.match(/Bogus Huffman table definition/g)).toHaveLength(1);
    expect(message).toContain('structurally broken');
    expect(message).not.toMatch(/the file is cut short/);
  });
});
