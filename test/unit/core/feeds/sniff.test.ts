import { readFileSync } from 'node:fs';
import { detectTextFeed, sniffImage } from '../../../../src/core/feeds/sniff';
import { looksLikeGallery } from '../../../../src/core/feeds/galleryText';
import { SEED_GALLERY, WIRE_IMAGES } from '../../../helpers/testEnv';

describe('format detection from content', () => {
  it('knows a JPEG by its bytes whatever its name', () => {
    expect(sniffImage(readFileSync(`${WIRE_IMAGES}/getty.jpg`).subarray(0, 16))).toBe('jpeg');
    expect(sniffImage(Buffer.from('<html><body>not a photo</body></html>'))).toBeNull();
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
  });

  it('tells text feeds apart', () => {
    const d = (t: string, n = 'feed') => detectTextFeed(t, n, looksLikeGallery);
    expect(d(readFileSync(SEED_GALLERY, 'utf8'), 'wire-gallery-2012.txt')).toBe('gallery-text');
    expect(d('{"caption":"a"}\n{"caption":"b"}\n')).toBe('manifest-ndjson');
    expect(d('{\n "items": []\n}\n')).toBe('manifest-json');
    expect(d('[{"caption":"a"}]')).toBe('manifest-json');
    expect(d('<?xml version="1.0"?><newsMessage/>')).toBe('xml');
    expect(d('caption,image,credit\n"A cat",cat.jpg,AP\n', 'list.csv')).toBe('csv');
    expect(d('Dear editor,\nplease find attached.\n', 'note.txt')).toBeNull();
  });
});
