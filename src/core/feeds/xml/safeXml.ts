import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InputError, PhotowireError } from '../../errors';
import { decodeReferences, namedEntity, numericEntity } from './xmlEntities';
import { localName, type XmlElement, type XmlNode } from './xmlTree';

/**
 * Parse agency XML without ever expanding or fetching anything.
 *
 * Before fast-xml-parser sees the text, a guard walks every markup declaration and every
 * `&...;` reference: a DOCTYPE with an internal subset (where entities, parameter entities and
 * billion-laughs bombs live) or any ENTITY declaration is refused with XML_ENTITY_REFUSED, except
 * a subset that only names external DTD modules (see endOfDoctype); a
 * reference to a name outside the fixed table in `xmlEntities.ts` is refused the same way
 * (it could only be resolved through a DTD photowire will not read). A DOCTYPE that merely
 * names an external DTD (`<!DOCTYPE nitf PUBLIC "..." "nitf.dtd">`, common in NITF) is allowed
 * and ignored. The parser then runs with entity processing off and references are decoded here.
 */
export function parseXmlSafely(text: string, file: string): XmlElement {
  const checked = normalizeNewlines(text);
  // The DOCTYPE, once checked, says nothing photowire uses: blanked (newlines kept, so line
  // numbers hold), fast-xml-parser never sees it (its DTD reader rejects a `%` module reference).
  const doctype = guardMarkup(checked, file);
  const xml = doctype
    ? checked.slice(0, doctype.start) +
      checked.slice(doctype.start, doctype.end).replace(/[^\n]/g, ' ') +
      checked.slice(doctype.end)
    : checked;

  const verdict = XMLValidator.validate(xml, { allowBooleanAttributes: false });
  if (verdict !== true) {
    const { line, col, msg } = verdict.err;
    throw new InputError('FEED_MALFORMED', `${file}: line ${line}, column ${col}: malformed XML: ${msg}`);
  }

  let parsed: unknown[];
  try {
    parsed = PARSER.parse(xml) as unknown[];
  } catch (err) {
    throw new InputError('FEED_MALFORMED', `${file}: malformed XML: ${(err as Error).message}`);
  }

  const lines = new LineIndex(xml);
  const roots = parsed.filter((node) => !isTextNode(node));
  if (roots.length !== 1) {
    throw new InputError('FEED_MALFORMED', `${file}: malformed XML: expected one root element, found ${roots.length}`);
  }
  return toElement(roots[0] as OrderedNode, lines);
}

// XML 1.0 §2.11: a parser sees every line break as a single LF; this also keeps line numbers right.
function normalizeNewlines(text: string): string {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
}

const PARSER = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  commentPropName: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
});

const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function isTextNode(node: unknown): boolean {
  return typeof node === 'object' && node !== null && ('#text' in node || '#cdata' in node);
}

function toElement(node: OrderedNode, lines: LineIndex): XmlElement {
  const name = Object.keys(node).find((key) => key !== ':@');
  if (name === undefined) throw new PhotowireError('INTERNAL', 'fast-xml-parser returned a node without a name');
  const attrs: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(node[':@'] ?? {})) attrs[key] = decodeReferences(String(value));
  const meta = (node as Record<symbol, { startIndex?: number } | undefined>)[META];
  const children: XmlNode[] = [];
  for (const child of node[name] as OrderedNode[]) {
    if ('#text' in child) children.push(decodeReferences(String(child['#text'])));
    else if ('#cdata' in child) {
      // CDATA is literal: references inside it are text, not references.
      for (const part of child['#cdata'] as Array<{ '#text'?: unknown }>) children.push(String(part['#text'] ?? ''));
    } else children.push(toElement(child, lines));
  }
  return { name, local: localName(name), attrs, children, line: lines.lineOf(meta?.startIndex ?? 0) };
}

class LineIndex {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

const REFERENCE_AT = /&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][A-Za-z0-9._:-]*);/y;
const DECLARATION_AT = /<!([A-Za-z]+)/y;
const MARKUP_OR_REFERENCE = /[<&]/g;

/**
 * Walk the document as a lexer would (comments, CDATA and processing instructions skipped)
 * and refuse anything that could make an XML processor expand or fetch content.
 */
function guardMarkup(xml: string, file: string): { start: number; end: number } | null {
  const refuse = (offset: number, why: string): never => {
    throw new InputError(
      'XML_ENTITY_REFUSED',
      `${file}: line ${lineAt(xml, offset)}: ${why}; photowire never expands XML entities or reads DTDs`,
    );
  };
  const malformed = (offset: number, why: string): never => {
    throw new InputError('FEED_MALFORMED', `${file}: line ${lineAt(xml, offset)}: malformed XML: ${why}`);
  };
  const skipPast = (from: number, terminator: string, what: string): number => {
    const end = xml.indexOf(terminator, from);
    if (end === -1) malformed(from, `${what} is never closed`);
    return end + terminator.length;
  };

  let rootSeen = false;
  let doctype: { start: number; end: number } | null = null;
  MARKUP_OR_REFERENCE.lastIndex = 0;
  for (let match = MARKUP_OR_REFERENCE.exec(xml); match; match = MARKUP_OR_REFERENCE.exec(xml)) {
    const at = match.index;
    let next = at + 1;
    if (match[0] === '&') {
      REFERENCE_AT.lastIndex = at;
      const ref = REFERENCE_AT.exec(xml);
      if (!ref) malformed(at, "'&' that does not start a character reference (write &amp;)");
      const body = ref![1];
      if (body[0] === '#') {
        if (Number.isNaN(numericEntity(body))) malformed(at, `&${body}; is not a character XML allows`);
      } else if (namedEntity(body) === undefined) {
        refuse(at, `reference to the undeclared entity &${body};`);
      }
      next = at + ref![0].length;
    } else if (xml.startsWith('<!--', at)) {
      next = skipPast(at + 4, '-->', 'a comment');
    } else if (xml.startsWith('<![CDATA[', at)) {
      next = skipPast(at + 9, ']]>', 'a CDATA section');
    } else if (xml.startsWith('<?', at)) {
      next = skipPast(at + 2, '?>', 'a processing instruction');
    } else if (xml[at + 1] === '!') {
      DECLARATION_AT.lastIndex = at;
      const keyword = DECLARATION_AT.exec(xml)?.[1] ?? '';
      const upper = keyword.toUpperCase();
      if (upper === 'DOCTYPE') {
        next = endOfDoctype(xml, at, refuse, malformed);
        if (rootSeen) malformed(at, 'DOCTYPE after the root element');
        if (doctype) malformed(at, 'more than one DOCTYPE');
        doctype = { start: at, end: next };
      } else if (upper === 'ENTITY') {
        refuse(at, 'ENTITY declaration');
      } else {
        malformed(at, `unexpected markup declaration <!${keyword}`);
      }
    } else {
      rootSeen = true;
    }
    MARKUP_OR_REFERENCE.lastIndex = next;
  }
  return doctype;
}

/**
 * Offset just past a DOCTYPE. Quoted system/public literals are skipped whole: they may contain
 * `[` or `>` as plain characters. An internal subset is allowed only when all it does is point at
 * external DTD modules, as AFP's and Kyodo's NewsML 1.2 do
 * (`[<!ENTITY % nitf SYSTEM "nitf-3-0.dtd"> %nitf;]`): a non-validating processor need not read
 * external parameter entities (XML 1.0 §5.1), and photowire never reads any, so the subset
 * declares nothing photowire would use. Anything else in it (a general entity, a parameter entity
 * with a value, where billion-laughs bombs live, element or attribute declarations) is refused.
 */
function endOfDoctype(
  xml: string,
  start: number,
  refuse: (offset: number, why: string) => never,
  malformed: (offset: number, why: string) => never,
): number {
  for (let i = start + '<!DOCTYPE'.length; i < xml.length; i++) {
    const c = xml[i];
    if (c === '"' || c === "'") {
      const close = xml.indexOf(c, i + 1);
      if (close === -1) break;
      i = close;
    } else if (c === '[') {
      i = endOfExternalOnlySubset(xml, start, i + 1, refuse, malformed);
      while (i < xml.length && /\s/.test(xml[i])) i++;
      if (xml[i] !== '>') return malformed(i, 'the DOCTYPE does not close after its internal subset');
      return i + 1;
    } else if (c === '>') {
      return i + 1;
    }
  }
  return malformed(start, 'the DOCTYPE is never closed');
}

/** The longest internal subset read, and the most external modules it may name (AFP and Kyodo name one). */
const MAX_SUBSET_CHARS = 4096;
const MAX_EXTERNAL_MODULES = 8;
const EXTERNAL_PARAMETER_ENTITY =
  /<!ENTITY\s+%\s+([A-Za-z_:][A-Za-z0-9._:-]*)\s+(?:SYSTEM\s+("[^"]*"|'[^']*')|PUBLIC\s+("[^"]*"|'[^']*')\s+("[^"]*"|'[^']*'))\s*>/y;
const PARAMETER_REFERENCE = /%([A-Za-z_:][A-Za-z0-9._:-]*);/y;

/** Offset of the `]` closing an internal subset that only declares and references external parameter entities. */
function endOfExternalOnlySubset(
  xml: string,
  doctypeAt: number,
  from: number,
  refuse: (offset: number, why: string) => never,
  malformed: (offset: number, why: string) => never,
): number {
  const declared = new Set<string>();
  const limit = Math.min(xml.length, from + MAX_SUBSET_CHARS);
  let i = from;
  while (i < limit) {
    const c = xml[i];
    if (c === ' ' || c === '\t' || c === '\n') {
      i++;
    } else if (c === ']') {
      return i + 1;
    } else if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end === -1) return malformed(i, 'a comment in the DOCTYPE is never closed');
      i = end + 3;
    } else if (xml.startsWith('<!ENTITY', i)) {
      EXTERNAL_PARAMETER_ENTITY.lastIndex = i;
      const decl = EXTERNAL_PARAMETER_ENTITY.exec(xml);
      if (!decl) {
        const general = !/^<!ENTITY\s+%/.test(xml.slice(i, i + 64));
        return refuse(i, general ? 'DOCTYPE declaring entities' : 'DOCTYPE declaring a parameter entity with a value');
      }
      declared.add(decl[1]);
      if (declared.size > MAX_EXTERNAL_MODULES)
        return refuse(i, `DOCTYPE naming more than ${MAX_EXTERNAL_MODULES} external DTD modules`);
      i += decl[0].length;
    } else if (c === '%') {
      PARAMETER_REFERENCE.lastIndex = i;
      const ref = PARAMETER_REFERENCE.exec(xml);
      if (!ref) return malformed(i, "'%' in the DOCTYPE that is not a parameter-entity reference");
      if (!declared.has(ref[1])) return refuse(i, `reference to the undeclared parameter entity %${ref[1]};`);
      i += ref[0].length;
    } else {
      return refuse(i, 'DOCTYPE with an internal DTD subset');
    }
  }
  return limit < xml.length
    ? refuse(doctypeAt, `DOCTYPE with an internal subset longer than ${MAX_SUBSET_CHARS} characters`)
    : malformed(doctypeAt, 'the DOCTYPE is never closed');
}
