import type { IptcFields } from '../../../schemas/feedItem';
import { compact } from './fields';
import { attr, attrText, childElements, firstChild, path, qcodeCode, text, type XmlElement } from './xmlTree';

export type Place = Pick<IptcFields, 'city' | 'sublocation' | 'state' | 'country' | 'countryCode'>;
type Slot = keyof Omit<Place, 'countryCode'> | 'ignore';

/**
 * The `assert`s of a NewsML-G2 item, by the qcode, uri or literal they make assertions about.
 * dpa sends `<located literal="poiID" type="cpnat:poi"/>` and the place itself in
 * `<assert literal="poiID"><POIDetails>...`; IPTC's examples assert a located qcode's type and
 * broader concepts the same way.
 */
export class ConceptIndex {
  private readonly byKey = new Map<string, XmlElement[]>();

  constructor(asserts: XmlElement[]) {
    for (const a of asserts) {
      for (const key of conceptKeys(a)) {
        const list = this.byKey.get(key);
        if (list) list.push(a);
        else this.byKey.set(key, [a]);
      }
    }
  }

  /** The asserts about the concept `el` refers to (none when it has no qcode, uri or literal). */
  assertsFor(el: XmlElement): XmlElement[] {
    const out: XmlElement[] = [];
    for (const key of conceptKeys(el)) for (const a of this.byKey.get(key) ?? []) if (!out.includes(a)) out.push(a);
    return out;
  }
}

function conceptKeys(el: XmlElement): string[] {
  const keys: string[] = [];
  const qcode = attrText(el, 'qcode');
  const uri = attrText(el, 'uri');
  const literal = attrText(el, 'literal');
  if (qcode) keys.push(`q:${qcode.toLowerCase()}`);
  if (uri) keys.push(`u:${uri}`);
  if (literal) keys.push(`l:${literal}`);
  return keys;
}

/** Names agencies send when they have no place ("No-Data-Available" at Reuters). */
const PLACEHOLDER = /^(?:no[-\s]?data[-\s]?available|n\/?a|none|unknown|-+)$/i;

/**
 * The name to show for a concept: a `name` with a display role, else the first name without
 * role, else any name. The literal counts as a name only when no assert explains it (dpa's
 * literal is an id of the assert, Reuters' literal repeats the name).
 */
export function conceptDisplayName(el: XmlElement | undefined, asserts: XmlElement[] = []): string | undefined {
  if (!el) return undefined;
  for (const holder of [el, ...asserts]) {
    const names = childElements(holder, 'name');
    const display = names.find((n) => /display|full/i.test(qcodeCode(attr(n, 'role')) ?? ''));
    const chosen = display ?? names.find((n) => attr(n, 'role') === undefined) ?? names[0];
    const value = text(chosen);
    if (value !== undefined) return value;
  }
  return asserts.length === 0 ? attrText(el, 'literal') : undefined;
}

/** Type, facet and qcode codes of a concept and its asserts, lower-cased (`loctype:City` → `loctype:city`). */
function typeCodes(el: XmlElement, asserts: XmlElement[]): string[] {
  const codes: string[] = [];
  for (const holder of [el, ...asserts]) {
    const t = attrText(holder, 'type');
    if (t) codes.push(t.toLowerCase());
    for (const child of [
      ...childElements(holder, 'type'),
      ...childElements(holder, 'facet'),
      ...childElements(holder, 'conceptId'),
    ]) {
      const q = attrText(child, 'qcode');
      if (q) codes.push(q.toLowerCase());
    }
  }
  return codes;
}

/** Reuters marks the level of a cptType:5 geography concept with a facet: geoProp:5 country, 7 state, 8 city (as in their picture items). */
const REUTERS_GEO_PROP: Record<string, Slot> = { 'geoprop:5': 'country', 'geoprop:7': 'state', 'geoprop:8': 'city' };

function slotOf(codes: string[], qcodes: string[]): Slot | undefined {
  for (const code of codes) {
    const fromFacet = REUTERS_GEO_PROP[code];
    if (fromFacet) return fromFacet;
    const local = qcodeCode(code) ?? code;
    if (
      /^(?:wldreg|continent)|worldregion|continent/.test(code) ||
      /^(?:worldregion|continent|region:world)$/.test(local)
    )
      return 'ignore';
    if (/countryarea|province|state|adminarea|admin1|county|district/.test(local)) return 'state';
    if (/country|nation/.test(local)) return 'country';
    if (/city|town|village|locality|municipality/.test(local)) return 'city';
    if (/^(?:poi|sublocation|venue|building)$/.test(local)) return 'sublocation';
  }
  if (qcodes.some((q) => /^iso3166-1a[23]:/i.test(q))) return 'country';
  if (qcodes.some((q) => /^wldreg:/i.test(q))) return 'ignore';
  return undefined;
}

/** An ISO 3166 code from a concept's qcode or its sameAs (dpa: `<sameAs qcode="iso3166-1a2:DE"/>`). */
function isoCode(qcodes: string[]): string | undefined {
  const ordered = [...qcodes].sort((a, b) => Number(/^iso3166-1a3/i.test(a)) - Number(/^iso3166-1a3/i.test(b)));
  for (const q of ordered) {
    if (!/^iso3166/i.test(q)) continue;
    const code = qcodeCode(q)?.trim();
    if (code && /^[A-Za-z]{2,3}$/.test(code)) return code.toUpperCase();
  }
  return undefined;
}

function qcodesOf(el: XmlElement, asserts: XmlElement[]): string[] {
  const out: string[] = [];
  for (const holder of [el, ...asserts]) {
    const q = attrText(holder, 'qcode');
    if (q) out.push(q);
    for (const same of childElements(holder, 'sameAs')) {
      const s = attrText(same, 'qcode');
      if (s) out.push(s);
    }
  }
  return out;
}

/**
 * Where the photo was taken, from a `located` (or a geographic `subject` when there is none):
 * its own name and type, the `broader` chain (the concept's own and its asserts', followed up to
 * a few levels), and any POIDetails address. Types read: loctype:City/Country/CountryArea,
 * cpnat:poi (a sublocation), cpnat:geoArea with ISO 3166 qcodes, Reuters' geoProp facets.
 * A broader concept whose type says nothing is the country when it is the broadest of the chain
 * and no country is known, the state when it sits between. World regions are left out.
 */
export function readPlace(located: XmlElement | undefined, index: ConceptIndex): Place {
  const place: Place = {};
  if (!located) return place;
  const fill = (slot: Slot | undefined, name: string | undefined): boolean => {
    if (!slot || slot === 'ignore' || name === undefined || PLACEHOLDER.test(name)) return false;
    if (place[slot] !== undefined) return false;
    place[slot] = name;
    return true;
  };

  const ownAsserts = index.assertsFor(located);
  for (const holder of [located, ...ownAsserts]) readAddress(holder, index, place);

  const ownCodes = typeCodes(located, ownAsserts);
  const ownQcodes = qcodesOf(located, ownAsserts);
  const ownSlot = slotOf(ownCodes, ownQcodes);
  const ownName = conceptDisplayName(located, ownAsserts);
  // An untyped located names a city, as the IPTC photo metadata mapping reads located/name.
  fill(ownSlot ?? (ownCodes.some((c) => /poi/.test(c)) ? 'sublocation' : 'city'), ownName);
  if (ownSlot === 'country') place.countryCode ??= isoCode(ownQcodes);

  const untyped: string[] = [];
  const seen = new Set<XmlElement>([located]);
  let level = [located, ...ownAsserts];
  for (let depth = 0; depth < 6 && level.length > 0; depth++) {
    const next: XmlElement[] = [];
    for (const holder of level) {
      for (const broader of childElements(holder, 'broader')) {
        if (seen.has(broader)) continue;
        seen.add(broader);
        const asserts = index.assertsFor(broader).filter((a) => !seen.has(a));
        for (const a of asserts) seen.add(a);
        const qcodes = qcodesOf(broader, asserts);
        const slot = slotOf(typeCodes(broader, asserts), qcodes);
        const name = conceptDisplayName(broader, asserts);
        if (slot === undefined) {
          if (name !== undefined && !PLACEHOLDER.test(name)) untyped.push(name);
        } else if (fill(slot, name) && slot === 'country') place.countryCode ??= isoCode(qcodes);
        else if (slot === 'country' && place.countryCode === undefined && place.country === name)
          place.countryCode = isoCode(qcodes);
        next.push(broader, ...asserts);
      }
    }
    level = next;
  }
  if (untyped.length > 0 && place.country === undefined && ownSlot !== 'country') place.country = untyped.pop();
  if (
    untyped.length > 0 &&
    place.state === undefined &&
    (ownSlot === undefined || ownSlot === 'city' || ownSlot === 'sublocation')
  )
    place.state = untyped[0];
  return compact(place);
}

/** A POIDetails address: locality → city, area → state, country (with its ISO code), line → sublocation. */
function readAddress(holder: XmlElement, index: ConceptIndex, place: Place): void {
  const address = path(holder, 'POIDetails', 'address');
  if (!address) return;
  const named = (el: XmlElement | undefined): string | undefined => {
    if (!el) return undefined;
    const value = conceptDisplayName(el, index.assertsFor(el)) ?? text(el);
    return value !== undefined && !PLACEHOLDER.test(value) ? value : undefined;
  };
  const locality = firstChild(address, 'locality');
  const area = firstChild(address, 'area');
  const country = firstChild(address, 'country');
  place.city ??= named(locality);
  place.state ??= named(area);
  if (country) {
    place.country ??= named(country);
    place.countryCode ??= isoCode(qcodesOf(country, index.assertsFor(country)));
  }
  const line = text(firstChild(address, 'line'));
  if (line !== undefined) place.sublocation ??= line;
}
