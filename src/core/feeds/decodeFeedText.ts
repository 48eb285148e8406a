import { InputError } from '../errors';
import { decodeCp1252, isValidUtf8 } from '../metadata/textCodecs';

/** How a feed's bytes were read as text, for the batch's warnings when it was not plain UTF-8. */
export interface DecodedFeedText {
  text: string;
  /** The encoding the bytes were read in (`utf-8`, `utf-16le`, `windows-1252`, `iso-8859-15` ...). */
  encoding: string;
  /** Set when the bytes did not match what the document declared, and why another encoding was used. */
  warning?: string;
}

const utf16le = new TextDecoder('utf-16le');
const utf16be = new TextDecoder('utf-16be');
const utf8 = new TextDecoder('utf-8');

/** Labels Node's TextDecoder reads as ISO-8859-1, where 0x80-0x9F are controls: agencies' "Latin-1" holds Windows-1252 quotes and dashes there. */
const CP1252_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'latin-1',
  'l1',
  'windows-1252',
  'cp1252',
  'us-ascii',
  'ascii',
  'iso_8859-1',
  'iso-ir-100',
  'cp819',
  'ibm819',
]);

/**
 * Read the bytes of a text feed as text, before its format is known.
 *
 * UTF-16 is recognised by its byte-order mark or, without one, by the NUL bytes around the
 * first `<` of an XML prolog (XML 1.0 appendix F); UTF-8's BOM is dropped. An XML document that
 * declares another encoding in its prolog (`encoding="ISO-8859-15"`) is decoded in it, except
 * that bytes valid as UTF-8 and holding multi-byte sequences are read as UTF-8 with a warning: a
 * mislabelled UTF-8 file (AFP's afp20.xml declares iso-8859-1 and is UTF-8) would otherwise give
 * "DÃ©cÃ¨s" for "Décès", and real Latin-1 text practically never forms valid UTF-8 sequences.
 * Everything else is UTF-8 as before (invalid bytes become U+FFFD; the strict formats check again).
 */
export function decodeFeedText(bytes: Uint8Array, file: string): DecodedFeedText {
  const b = bytes;
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { text: utf8.decode(b.subarray(3)), encoding: 'utf-8' };
  if (b[0] === 0xff && b[1] === 0xfe) return { text: utf16le.decode(b.subarray(2)), encoding: 'utf-16le' };
  if (b[0] === 0xfe && b[1] === 0xff) return { text: utf16be.decode(b.subarray(2)), encoding: 'utf-16be' };
  if (b[0] === 0x3c && b[1] === 0x00 && b[2] === 0x3f && b[3] === 0x00)
    return { text: utf16le.decode(b), encoding: 'utf-16le' };
  if (b[0] === 0x00 && b[1] === 0x3c && b[2] === 0x00 && b[3] === 0x3f)
    return { text: utf16be.decode(b), encoding: 'utf-16be' };

  const declared = declaredXmlEncoding(b);
  if (declared === undefined || declared === 'utf-8' || declared === 'utf8')
    return { text: utf8.decode(b), encoding: 'utf-8' };
  if (declared.startsWith('utf-16') || declared === 'ucs-2') {
    // Declared UTF-16, yet the prolog was read as single bytes: the declaration is wrong.
    return {
      text: utf8.decode(b),
      encoding: 'utf-8',
      warning: `${file}: declares ${declared} but its bytes are single-byte text; read as UTF-8`,
    };
  }
  if (hasMultiByteUtf8(b) && isValidUtf8(b)) {
    return {
      text: utf8.decode(b),
      encoding: 'utf-8',
      warning: `${file}: declares ${declared} but its bytes are UTF-8; read as UTF-8`,
    };
  }
  if (CP1252_LABELS.has(declared)) return { text: decodeCp1252(b), encoding: 'windows-1252' };
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(declared);
  } catch {
    throw new InputError(
      'FEED_MALFORMED',
      `${file}: declares the encoding ${JSON.stringify(declared.slice(0, 40))}, which photowire cannot decode`,
    );
  }
  return { text: decoder.decode(b), encoding: decoder.encoding };
}

/** The `encoding` of an XML declaration at the very start of the bytes, lower-cased; undefined when there is none. */
export function declaredXmlEncoding(bytes: Uint8Array): string | undefined {
  if (!(bytes[0] === 0x3c && bytes[1] === 0x3f)) return undefined; // `<?`
  const end = bytes.indexOf(0x3e); // `>`
  if (end === -1 || end > 200) return undefined;
  const prolog = Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('latin1');
  if (!/^<\?xml\s/.test(prolog)) return undefined;
  return /\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(prolog)?.[1].toLowerCase();
}

/** Whether the bytes hold any byte outside ASCII in a well-formed UTF-8 lead/continuation pair. */
function hasMultiByteUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i + 1 < bytes.length; i++) {
    if (bytes[i] >= 0xc2 && bytes[i] <= 0xf4 && (bytes[i + 1] & 0xc0) === 0x80) return true;
  }
  return false;
}

/**
 * Text of a line-oriented wire (IPTC 7901, ANPA 1312), which declares no charset: UTF-8 when the
 * bytes are valid UTF-8, else Windows-1252 (dpa, Kyodo and national agencies send Latin-1; its
 * superset keeps their curly quotes and euro signs instead of C1 controls).
 */
export function decodeWireText(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  return isValidUtf8(bytes)
    ? { text: utf8.decode(bytes), encoding: 'utf-8' }
    : { text: decodeCp1252(bytes), encoding: 'windows-1252' };
}
