/**
 * Character references photowire decodes in XML text. Only a fixed table is ever consulted:
 * entities declared by a document (internal or external DTD) are refused before parsing,
 * so no reference can expand into more than one character and nothing is ever fetched.
 *
 * The HTML 4 names are accepted because agency NITF relies on the ISO entity sets its DTD
 * declares (`&eacute;`, `&nbsp;`), and photowire never reads that DTD.
 */

const XML_PREDEFINED: ReadonlyArray<[string, number]> = [
  ['amp', 38],
  ['lt', 60],
  ['gt', 62],
  ['quot', 34],
  ['apos', 39],
];

// HTML 4 Latin-1 names in code-point order, 160..255.
const LATIN1_NAMES =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml';

const GREEK_UPPER =
  'Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau Upsilon Phi Chi Psi Omega';
const GREEK_LOWER =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega';

const HTML_OTHER =
  'OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 fnof:402 circ:710 tilde:732 thetasym:977 upsih:978 piv:982 ' +
  'ensp:8194 emsp:8195 thinsp:8201 zwnj:8204 zwj:8205 lrm:8206 rlm:8207 ndash:8211 mdash:8212 lsquo:8216 rsquo:8217 ' +
  'sbquo:8218 ldquo:8220 rdquo:8221 bdquo:8222 dagger:8224 Dagger:8225 bull:8226 hellip:8230 permil:8240 prime:8242 ' +
  'Prime:8243 lsaquo:8249 rsaquo:8250 oline:8254 frasl:8260 euro:8364 image:8465 weierp:8472 real:8476 trade:8482 ' +
  'alefsym:8501 larr:8592 uarr:8593 rarr:8594 darr:8595 harr:8596 crarr:8629 lArr:8656 uArr:8657 rArr:8658 dArr:8659 ' +
  'hArr:8660 forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 ni:8715 prod:8719 sum:8721 ' +
  'minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 ang:8736 and:8743 or:8744 cap:8745 cup:8746 int:8747 ' +
  'there4:8756 sim:8764 cong:8773 asymp:8776 ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 nsub:8836 sube:8838 ' +
  'supe:8839 oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 lfloor:8970 rfloor:8971 lang:9001 ' +
  'rang:9002 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830';

function buildTable(): Map<string, string> {
  // A Map, not an object literal: `&constructor;` must not find Object.prototype members.
  const table = new Map<string, string>();
  for (const [name, code] of XML_PREDEFINED) table.set(name, String.fromCodePoint(code));
  LATIN1_NAMES.split(' ').forEach((name, i) => table.set(name, String.fromCodePoint(160 + i)));
  GREEK_UPPER.split(' ').forEach((name, i) => {
    if (name !== '-') table.set(name, String.fromCodePoint(913 + i));
  });
  GREEK_LOWER.split(' ').forEach((name, i) => table.set(name, String.fromCodePoint(945 + i)));
  for (const pair of HTML_OTHER.split(' ')) {
    const [name, code] = pair.split(':');
    table.set(name, String.fromCodePoint(Number(code)));
  }
  return table;
}

const NAMED = buildTable();

/** The character a named reference stands for, or undefined when photowire does not know the name. */
export function namedEntity(name: string): string | undefined {
  return NAMED.get(name);
}

/** XML 1.0 Char production: what a numeric character reference may name. */
export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** Code point of a `#123` / `#x1F` reference body, or NaN when it is not a usable character. */
export function numericEntity(body: string): number {
  const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
  return Number.isInteger(code) && isXmlChar(code) ? code : NaN;
}

const REFERENCE = /&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z_][A-Za-z0-9._-]*);/g;

/**
 * Replace character references in text already checked by the safe-XML guard.
 * Unknown names cannot reach here; they are left untouched if they somehow do.
 */
export function decodeReferences(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(REFERENCE, (whole, body: string) => {
    if (body[0] === '#') {
      const code = numericEntity(body);
      return Number.isNaN(code) ? whole : String.fromCodePoint(code);
    }
    return NAMED.get(body) ?? whole;
  });
}
