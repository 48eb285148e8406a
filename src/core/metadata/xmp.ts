import { XMLParser } from 'fast-xml-parser';
import type { IptcFields } from '../../schemas/feedItem';
import { xmpDateToIso } from './dates';
import { FIELD_ORDER, LIST_FIELDS, NS, xmpFieldFor, type IptcFieldName, type XmpFieldSpec } from './fieldTables';

/** Field values as one XMP packet states them, empty strings included (they still override). */
export type XmpValues = Partial<Record<IptcFieldName, string | string[]>>;

export interface XmpPacketResult {
  values: XmpValues;
  /** GUID of the extended XMP this packet announces (xmpNote:HasExtendedXMP). */
  hasExtendedXmp?: string;
  /**
   * The photoshop:City / State / Country a packet also holds when Iptc4xmpExt:LocationShown gave
   * the field's value: an IIM value cut at its cap may be completed by either (mergeIimXmp.ts).
   */
  alternates: XmpValues;
  warnings: string[];
}

// Entity processing is off: a DOCTYPE is refused before parsing and the five XML entities
// plus character references are decoded by `unescapeXml`, nothing else ever expands.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: false,
});

type XmlNode = Record<string, unknown>;
type Scope = ReadonlyMap<string, string>;

interface PropValue {
  text?: string;
  items?: Array<{ lang?: string; text: string }>;
  container?: 'Alt' | 'Seq' | 'Bag';
}

/**
 * Read the IPTC fields of one XMP packet. Text is kept exactly as stored (entities decoded);
 * empty values are left out. Properties are matched by namespace URI, not prefix. Use
 * `readMetadataBlocks({ xmp })` to also get the warnings (refused DOCTYPE, bad XML, bad date).
 */
export function readXmpFields(xml: string): IptcFields {
  return finishXmpValues(readXmpPacket(xml).values).fields;
}

/**
 * The packet without the NULs and whitespace after it, in one pass from the end: the regex
 * /[\0\s]+$/ tried every position of each padding run inside the packet (38 s for 64 KB of padding on this box).
 */
function trimPacketEnd(xml: string): string {
  let end = xml.length;
  while (end > 0 && isPadding(xml.charCodeAt(end - 1))) end--;
  return xml.slice(0, end);
}

/** NUL and the whitespace XMP writers pad with (space, tab, CR, LF, FF, VT, NBSP, BOM). */
function isPadding(c: number): boolean {
  return c === 0 || c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0xfeff;
}

export function readXmpPacket(xml: string): XmpPacketResult {
  const warnings: string[] = [];
  const values: XmpValues = {};
  const alternates: XmpValues = {};
  const text = trimPacketEnd(xml.replace(/^\ufeff/, ''));
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    warnings.push('XMP packet declares a DOCTYPE or entities (XML_ENTITY_REFUSED); it was not read');
    return { values, alternates, warnings };
  }
  let tree: XmlNode[];
  try {
    tree = parser.parse(text) as XmlNode[];
  } catch (err) {
    warnings.push(`XMP packet is not well-formed XML (${(err as Error).message}); it was not read`);
    return { values, alternates, warnings };
  }
  const result: XmpPacketResult = { values, alternates, warnings };
  let sawRdf = false;
  const shown: LocationShown = {};
  forEachElement(tree, new Map([['xml', NS.xml]]), (el) => {
    if (el.ns !== NS.rdf || el.local !== 'RDF') return true;
    sawRdf = true;
    readRdf(el.children, el.scope, result, shown);
    return false; // readRdf has handled what is inside
  });
  if (!sawRdf) warnings.push('XMP packet has no rdf:RDF element; nothing read');
  // MWG reads city, state and country from Iptc4xmpExt:LocationShown first, photoshop:* after
  for (const [field, list] of Object.entries(shown) as Array<[IptcFieldName, string[]]>) {
    const kept = list.filter((v) => v !== '');
    if (kept.length === 0) continue;
    const other = values[field];
    if (typeof other === 'string' && other !== '') alternates[field] = other;
    values[field] = kept.join(', ');
  }
  return result;
}

/** Apply the schema's rules to merged packet values: drop empties, normalize the date. */
export function finishXmpValues(values: XmpValues): { fields: IptcFields; warnings: string[] } {
  const warnings: string[] = [];
  const fields: Record<string, unknown> = {};
  for (const field of FIELD_ORDER) {
    const v = values[field];
    if (v === undefined) continue;
    if (Array.isArray(v)) {
      const kept = v.filter((s) => s !== '');
      if (kept.length > 0) fields[field] = kept;
    } else if (v !== '') {
      if (field === 'dateCreated') {
        const iso = xmpDateToIso(v);
        if (iso === undefined)
          warnings.push(`XMP photoshop:DateCreated ${JSON.stringify(v)} is not an ISO 8601 date; ignored`);
        else fields[field] = iso;
      } else fields[field] = v;
    }
  }
  return { fields: fields as IptcFields, warnings };
}

type LocationShown = Partial<Record<IptcFieldName, string[]>>;
const LOCATION_PARTS: Record<string, IptcFieldName> = { City: 'city', ProvinceState: 'state', CountryName: 'country' };

function readRdf(nodes: XmlNode[], scope: Scope, out: XmpPacketResult, shown: LocationShown): void {
  for (const node of nodes) {
    const el = asElement(node, scope);
    if (!el) continue;
    // Descriptions are normally direct children of rdf:RDF; any typed node works the same way.
    readDescription(el.children, el.attrs, el.scope, out, shown);
  }
}

/** Iptc4xmpExt:LocationShown: a Bag of structures (attributes, parseType="Resource" or rdf:Description). */
function readLocationShown(el: Element, shown: LocationShown): void {
  for (const c of el.children) {
    const bag = asElement(c, el.scope);
    if (!bag || bag.ns !== NS.rdf) continue;
    for (const l of bag.children) {
      const li = asElement(l, bag.scope);
      if (!li || li.ns !== NS.rdf || li.local !== 'li') continue;
      const structs: Array<{ attrs: Record<string, string>; children: XmlNode[]; scope: Scope }> = [li];
      for (const x of li.children) {
        const d = asElement(x, li.scope);
        if (d && d.ns === NS.rdf && d.local === 'Description') structs.push(d);
      }
      for (const st of structs) {
        for (const [attr, raw] of Object.entries(st.attrs)) {
          const q = resolve(attr, st.scope, false);
          if (q?.ns === NS.iptcExt && LOCATION_PARTS[q.local])
            (shown[LOCATION_PARTS[q.local]] ??= []).push(unescapeXml(raw));
        }
        for (const x of st.children) {
          const f = asElement(x, st.scope);
          if (f?.ns === NS.iptcExt && LOCATION_PARTS[f.local])
            (shown[LOCATION_PARTS[f.local]] ??= []).push(textOf(f.children));
        }
      }
    }
  }
}

function readDescription(
  children: XmlNode[],
  attrs: Record<string, string>,
  scope: Scope,
  out: XmpPacketResult,
  shown: LocationShown,
): void {
  // shorthand form: photoshop:City="London" on the rdf:Description itself
  for (const [attr, raw] of Object.entries(attrs)) {
    const q = resolve(attr, scope, false);
    if (!q || q.ns === NS.rdf || q.ns === NS.xml || attr.startsWith('xmlns')) continue;
    handleProperty(q.ns, q.local, { text: unescapeXml(raw) }, out);
  }
  for (const node of children) {
    const el = asElement(node, scope);
    if (!el) continue;
    if (el.ns === NS.iptcExt && el.local === 'LocationShown') {
      readLocationShown(el, shown);
      continue;
    }
    const value = readPropertyValue(el.children, el.attrs, el.scope);
    if (value) handleProperty(el.ns, el.local, value, out);
  }
}

function readPropertyValue(children: XmlNode[], attrs: Record<string, string>, scope: Scope): PropValue | undefined {
  if (attrs['rdf:parseType'] === 'Resource') return undefined; // a structure, not one of our fields
  const elements = children.map((c) => asElement(c, scope)).filter((e): e is Element => e !== undefined);
  if (elements.length === 0) {
    const text = textOf(children);
    if (text === '' && attrs['rdf:resource'] !== undefined) return { text: unescapeXml(attrs['rdf:resource']) };
    return { text };
  }
  const container = elements.find(
    (e) => e.ns === NS.rdf && (e.local === 'Alt' || e.local === 'Seq' || e.local === 'Bag'),
  );
  if (!container) return undefined;
  const items: Array<{ lang?: string; text: string }> = [];
  for (const c of container.children) {
    const li = asElement(c, container.scope);
    if (!li || li.ns !== NS.rdf || li.local !== 'li') continue;
    if (li.children.some((x) => asElement(x, li.scope))) continue; // structured item
    const lang = li.attrs['xml:lang'];
    items.push({ lang, text: textOf(li.children) });
  }
  return { items, container: container.local as PropValue['container'] };
}

function handleProperty(ns: string, local: string, value: PropValue, out: XmpPacketResult): void {
  if (ns === NS.xmpNote && local === 'HasExtendedXMP' && value.text !== undefined) {
    out.hasExtendedXmp = value.text;
    return;
  }
  const spec = xmpFieldFor(ns, local);
  if (!spec) return;
  out.values[spec.field] = shapeValue(spec, value);
}

function shapeValue(spec: XmpFieldSpec, value: PropValue): string | string[] {
  const items = value.items;
  if (LIST_FIELDS.has(spec.field)) {
    if (items) return items.map((i) => i.text);
    return [value.text ?? ''];
  }
  if (!items) return value.text ?? '';
  if (spec.shape === 'langAlt' || value.container === 'Alt') return pickDefaultLanguage(items);
  // a list where one text belongs: ExifTool prints it joined
  return items.map((i) => i.text).join(', ');
}

/** x-default, else an item without a language, else the first one. */
function pickDefaultLanguage(items: Array<{ lang?: string; text: string }>): string {
  const chosen =
    items.find((i) => i.lang !== undefined && i.lang.toLowerCase() === 'x-default') ??
    items.find((i) => i.lang === undefined) ??
    items[0];
  return chosen?.text ?? '';
}

interface Element {
  ns: string;
  local: string;
  children: XmlNode[];
  attrs: Record<string, string>;
  scope: Scope;
}

function asElement(node: XmlNode, parentScope: Scope): Element | undefined {
  const name = Object.keys(node).find((k) => k !== ':@' && k !== '#text' && k !== '#cdata');
  if (name === undefined) return undefined;
  const attrs = (node[':@'] as Record<string, string> | undefined) ?? {};
  const scope = extendScope(parentScope, attrs);
  const q = resolve(name, scope, true);
  if (!q) return undefined;
  const children = Array.isArray(node[name]) ? (node[name] as XmlNode[]) : [];
  return { ns: q.ns, local: q.local, children, attrs, scope };
}

/** Depth-first walk; `visit` returns false to skip an element's children. */
function forEachElement(nodes: XmlNode[], scope: Scope, visit: (el: Element) => boolean): void {
  for (const node of nodes) {
    const el = asElement(node, scope);
    if (el && visit(el)) forEachElement(el.children, el.scope, visit);
  }
}

function extendScope(parent: Scope, attrs: Record<string, string>): Scope {
  let scope: Map<string, string> | undefined;
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'xmlns' || k.startsWith('xmlns:')) {
      scope ??= new Map(parent);
      scope.set(k === 'xmlns' ? '' : k.slice(6), unescapeXml(v));
    }
  }
  return scope ?? parent;
}

function resolve(qname: string, scope: Scope, isElement: boolean): { ns: string; local: string } | undefined {
  const colon = qname.indexOf(':');
  if (colon < 0) {
    // unprefixed attributes have no namespace (and so are never XMP properties)
    if (!isElement) return undefined;
    const ns = scope.get('');
    return ns === undefined ? undefined : { ns, local: qname };
  }
  const ns = scope.get(qname.slice(0, colon));
  return ns === undefined ? undefined : { ns, local: qname.slice(colon + 1) };
}

function textOf(children: XmlNode[]): string {
  let out = '';
  for (const c of children) {
    if (typeof c['#text'] === 'string') out += unescapeXml(c['#text']);
    else if (Array.isArray(c['#cdata'])) for (const t of c['#cdata'] as XmlNode[]) out += String(t['#text'] ?? '');
  }
  return out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The predefined XML entities and character references; anything else is left as written. */
export function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref];
    const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
  });
}
