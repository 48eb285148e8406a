export type XmlFlavor = 'newsml-g2' | 'newsml-1.2' | 'nitf';

/** Namespace of the IPTC News Architecture, shared by every NewsML-G2 item type. */
export const NEWSML_G2_NAMESPACE = 'http://iptc.org/std/nar/2006-10-01/';
const NITF_NAMESPACE_PREFIX = 'http://iptc.org/std/nitf/';
const G2_ROOTS = new Set([
  'newsMessage',
  'newsItem',
  'packageItem',
  'groupSet',
  'knowledgeItem',
  'conceptItem',
  'planningItem',
  'catalogItem',
]);

/**
 * Which wire XML a text is, from its root element and namespace (never its file name).
 * Only the prolog and the root start tag are looked at, so this is cheap and safe on hostile
 * input: nothing is parsed beyond that, and a DOCTYPE, whatever it holds, is skipped.
 */
export function detectXmlFlavor(text: string): XmlFlavor | null {
  const root = sniffRootElement(text);
  if (!root) return null;
  const colon = root.name.indexOf(':');
  const prefix = colon === -1 ? '' : root.name.slice(0, colon);
  const local = colon === -1 ? root.name : root.name.slice(colon + 1);
  const namespace = root.attrs.get(prefix ? `xmlns:${prefix}` : 'xmlns');

  if (namespace === NEWSML_G2_NAMESPACE) return 'newsml-g2';
  if (local === 'nitf' && (namespace === undefined || namespace.toLowerCase().startsWith(NITF_NAMESPACE_PREFIX)))
    return 'nitf';
  if (G2_ROOTS.has(local) && namespace === undefined) return 'newsml-g2';
  // NewsML 1.x has no namespace; its root is NewsML (Version 1.2, or none: AFP, Belga, EFE).
  if (local === 'NewsML' && namespace === undefined) return 'newsml-1.2';
  return null;
}

interface RootTag {
  name: string;
  attrs: Map<string, string>;
}

const NAME_START = /[A-Za-z_:\u00C0-\uFFFF]/;

function sniffRootElement(text: string): RootTag | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt === -1) return null;
    if (text.slice(i, lt).trim() !== '') return null; // text before the root: not XML
    if (text.startsWith('<?', lt)) i = endAfter(text, lt, '?>');
    else if (text.startsWith('<!--', lt)) i = endAfter(text, lt, '-->');
    else if (text.startsWith('<!', lt)) i = endOfDeclaration(text, lt);
    else if (NAME_START.test(text[lt + 1] ?? '')) return readStartTag(text, lt);
    else return null;
    if (i === -1) return null;
  }
  return null;
}

function endAfter(text: string, from: number, terminator: string): number {
  const end = text.indexOf(terminator, from);
  return end === -1 ? -1 : end + terminator.length;
}

/** Skip a DOCTYPE including any internal subset: quotes and comments may hide `]` or `>`. */
function endOfDeclaration(text: string, from: number): number {
  let depth = 0;
  for (let i = from + 2; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = text.indexOf(c, i + 1);
      if (i === -1) return -1;
    } else if (text.startsWith('<!--', i)) {
      i = text.indexOf('-->', i + 4);
      if (i === -1) return -1;
      i += 2;
    } else if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return -1;
}

const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function readStartTag(text: string, lt: number): RootTag | null {
  let end = lt + 1;
  let quote: string | null = null;
  for (; end < text.length; end++) {
    const c = text[end];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') break;
  }
  if (end >= text.length) return null;
  const tag = text.slice(lt + 1, end);
  const name = /^[^\s/>]+/.exec(tag)?.[0];
  if (!name) return null;
  const attrs = new Map<string, string>();
  for (const m of tag.slice(name.length).matchAll(ATTRIBUTE)) attrs.set(m[1], m[2] ?? m[3]);
  return { name, attrs };
}
