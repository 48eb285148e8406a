/**
 * The small element tree the safe XML parser returns. Parsers of wire formats read it by
 * local name (prefixes vary between agencies for the same namespace).
 */
export interface XmlElement {
  /** The name as written, prefix included (`nitf:media`). */
  name: string;
  /** The name without its prefix (`media`). */
  local: string;
  /** Attribute values with character references decoded. A null-prototype object. */
  attrs: Record<string, string>;
  children: XmlNode[];
  /** 1-based line of the start tag in the feed file. */
  line: number;
}

export type XmlNode = XmlElement | string;

export function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== 'string';
}

export function localName(qname: string): string {
  const colon = qname.indexOf(':');
  return colon === -1 ? qname : qname.slice(colon + 1);
}

/** Child elements of `el`, optionally only those with the given local name. */
export function childElements(el: XmlElement | undefined, local?: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (!el) return out;
  for (const node of el.children) {
    if (isElement(node) && (local === undefined || node.local === local)) out.push(node);
  }
  return out;
}

export function firstChild(el: XmlElement | undefined, local: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const node of el.children) if (isElement(node) && node.local === local) return node;
  return undefined;
}

/** Follow a path of local names through first children: `path(item, 'contentMeta', 'headline')`. */
export function path(el: XmlElement | undefined, ...locals: string[]): XmlElement | undefined {
  let cur = el;
  for (const local of locals) cur = firstChild(cur, local);
  return cur;
}

/** All descendants (depth first, document order) with the given local name. */
export function descendants(el: XmlElement | undefined, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  if (!el) return out;
  const walk = (node: XmlElement): void => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      if (child.local === local) out.push(child);
      walk(child);
    }
  };
  walk(el);
  return out;
}

/** Attribute by exact name, or by local name when the document prefixes it. */
export function attr(el: XmlElement | undefined, name: string): string | undefined {
  if (!el) return undefined;
  const direct = el.attrs[name];
  if (direct !== undefined) return direct;
  for (const key of Object.keys(el.attrs))
    if (localName(key) === name && !key.startsWith('xmlns')) return el.attrs[key];
  return undefined;
}

const BLOCKS = new Set(['p', 'div']);
const isBlock = (node: XmlNode | undefined): boolean => node !== undefined && isElement(node) && BLOCKS.has(node.local);

/**
 * Concatenated text of an element and its descendants. `<br/>` counts as a line break and
 * paragraphs (`<p>`, `<div>`) are separated by one, without the indentation between them.
 */
export function rawText(el: XmlElement): string {
  let out = '';
  el.children.forEach((node, i) => {
    if (!isElement(node)) {
      if (node.trim() === '' && (isBlock(el.children[i - 1]) || isBlock(el.children[i + 1]))) return;
      out += node;
    } else if (node.local === 'br') out += '\n';
    else if (BLOCKS.has(node.local)) {
      if (out !== '' && !out.endsWith('\n')) out += '\n';
      out += rawText(node);
    } else out += rawText(node);
  });
  return out;
}

/**
 * The text of an element with the indentation of pretty-printed XML removed from its ends,
 * or undefined when there is none. Whitespace inside the text is kept as sent.
 */
export function text(el: XmlElement | undefined): string | undefined {
  if (!el) return undefined;
  const value = rawText(el).trim();
  return value === '' ? undefined : value;
}

/** A non-empty trimmed attribute value, or undefined. */
export function attrText(el: XmlElement | undefined, name: string): string | undefined {
  const value = attr(el, name)?.trim();
  return value ? value : undefined;
}

/** The code part of a QCode (`rnd:highRes` → `highRes`); the value itself when it has no alias. */
export function qcodeCode(qcode: string | undefined): string | undefined {
  if (qcode === undefined) return undefined;
  const colon = qcode.indexOf(':');
  return colon === -1 ? qcode : qcode.slice(colon + 1);
}
