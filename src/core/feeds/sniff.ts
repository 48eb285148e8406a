export type ImageKind = 'jpeg' | 'png' | 'tiff' | 'webp' | 'gif' | 'heif';

/** Identify an image by its first bytes, not its name: agencies send `.JPG`, `.jpeg`, no extension... */
export function sniffImage(head: Uint8Array): ImageKind | null {
  const b = head;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'png';
  if (
    b.length >= 4 &&
    ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) ||
      (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a))
  )
    return 'tiff';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 6 && ascii(b, 0, 4) === 'GIF8') return 'gif';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp' && /^(heic|heix|mif1|avif|hevc)$/.test(ascii(b, 8, 12)))
    return 'heif';
  return null;
}

const IMAGE_EXT = /\.(jpe?g|png|tiff?|webp|gif|heic|heif|avif)$/i;
export function hasImageExtension(name: string): boolean {
  return IMAGE_EXT.test(name);
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

export type TextFeedKind = 'manifest-ndjson' | 'manifest-json' | 'xml' | 'csv' | 'gallery-text' | 'text-wire';

/**
 * Decide a text feed's format from its content. The extension is only a tie-breaker for CSV,
 * whose content alone looks like any text.
 */
export function detectTextFeed(
  text: string,
  name: string,
  looksLikeGallery: (t: string) => boolean,
): TextFeedKind | null {
  // IPTC 7901 / ANPA 1312: SOH first (after SYN padding); checked before trimming, which would eat the SYNs.
  if (/^\x16*\x01/.test(text)) return 'text-wire';
  const t = text.replace(/^\uFEFF/, '').trimStart();
  if (t.startsWith('<')) return 'xml';
  if (t.startsWith('[')) return 'manifest-json';
  if (t.startsWith('{')) {
    // One object spanning the file is a JSON manifest; one object per line is NDJSON.
    const firstLine = t.split('\n', 1)[0].trim();
    try {
      JSON.parse(firstLine);
      return t.includes('\n') || /\.ndjson$|\.jsonl$/i.test(name) ? 'manifest-ndjson' : 'manifest-json';
    } catch {
      return 'manifest-json';
    }
  }
  if (looksLikeGallery(t)) return 'gallery-text';
  const header = t.split(/\r?\n/, 1)[0].toLowerCase();
  if (
    (/\.csv$/i.test(name) || header.includes(',')) &&
    /(^|,)\s*"?(caption|description|image|file|headline)"?\s*(,|$)/.test(header)
  )
    return 'csv';
  return null;
}
