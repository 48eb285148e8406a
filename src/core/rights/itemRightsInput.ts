import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import type { Notice } from '../../schemas/notice';
import type { Release } from '../../schemas/release';
import type { Rights, SourcedText } from '../../schemas/rights';
import { parseXmlSafely } from '../feeds/xml/safeXml';
import { childElements, localName, rawText, type XmlElement } from '../feeds/xml/xmlTree';
import { readNotice } from '../kills/readNotice';
import { readRelease } from '../release/readRelease';
import type { ItemRightsInput } from './input';
import { readRights } from './readRights';
import type { RightsRules } from './rules';

/** What the item stage knows about an item when its rights are read (src/app/items/rightsRules.ts). */
export interface ItemRightsParts {
  item: FeedItem;
  /** The merged IPTC fields (feed over photo). */
  iptc: IptcFields;
  /** Raw IIM datasets of the photo (2:30/2:35/2:37/2:38 and the whole 2:40 as stored). */
  iim?: ReadonlyArray<{ record: number; dataset: number; value: string }>;
  /** The photo's XMP packet text(s), as read. */
  xmp?: string | null;
  captionRaw: string;
  /** What caption cleaning removed. */
  removed: ReadonlyArray<{ kind: string; text: string }>;
  creditTail: string | null;
  /** The credit's agency id ("AP", "PA"): its zone for times written without one. */
  agency: string | null;
}

export interface ItemRights {
  rights: Rights;
  release: Release;
  notice: Notice | null;
  input: ItemRightsInput;
}

/** XMP properties that carry rights (docs/RIGHTS.md), by local name: attribute or element form, lang-alt and structs. */
const XMP_RIGHTS: Record<string, SourcedText['source']> = {
  Instructions: 'xmp:photoshop:Instructions',
  UsageTerms: 'xmp:xmpRights:UsageTerms',
  WebStatement: 'xmp:xmpRights:WebStatement',
  ImageSupplierName: 'xmp:plus:ImageSupplier',
  LicensorName: 'xmp:plus:Licensor',
  CopyrightOwnerName: 'xmp:plus:CopyrightOwner',
  ModelReleaseStatus: 'xmp:plus:ModelReleaseStatus',
  PropertyReleaseStatus: 'xmp:plus:PropertyReleaseStatus',
  CreditLineRequired: 'xmp:plus:CreditLineRequired',
  ImageAlterationConstraints: 'xmp:plus:ImageAlterationConstraints',
  OtherConstraints: 'xmp:plus:OtherConstraints',
  DigitalSourceType: 'xmp:Iptc4xmpExt:DigitalSourceType',
};
const NOTE_KINDS = new Set(['editor-note', 'file-marker', 'restrictions']);
// an XMP packet bigger than this is not read for rights (the reader already capped what it keeps)
const MAX_XMP_CHARS = 2_000_000;

function liValues(el: XmlElement): string[] {
  // A URI value may be written as a resource: <plus:ModelReleaseStatus rdf:resource="...MR-NON"/>.
  const resource = Object.entries(el.attrs).find(([k]) => localName(k) === 'resource')?.[1];
  if (resource !== undefined && childElements(el).length === 0) return [resource.trim()];
  const containers = childElements(el).filter((c) => c.local === 'Alt' || c.local === 'Seq' || c.local === 'Bag');
  if (containers.length === 0) return [rawText(el).trim()];
  return containers.flatMap((c) => childElements(c, 'li').map((li) => rawText(li).trim()));
}

/** The XMP rights texts of a packet, in document order; a packet that does not parse gives none. */
export function xmpRightsTexts(xmp: string | null | undefined): SourcedText[] {
  if (!xmp || xmp.length > MAX_XMP_CHARS) return [];
  const out: SourcedText[] = [];
  for (const packet of xmp.split(/\n(?=<\?xpacket begin|<x:xmpmeta)/)) {
    let root: XmlElement;
    try {
      root = parseXmlSafely(packet.replace(/<\?xpacket[^>]*\?>/g, ''), 'xmp');
    } catch {
      continue;
    }
    const walk = (el: XmlElement, depth: number) => {
      if (depth > 64) return;
      for (const [k, v] of Object.entries(el.attrs)) {
        const source = XMP_RIGHTS[localName(k)];
        if (source && !k.startsWith('xmlns')) out.push({ source, text: v });
      }
      for (const c of childElements(el)) {
        const source = XMP_RIGHTS[c.local];
        if (source) for (const t of liValues(c)) out.push({ source, text: t });
        else walk(c, depth + 1);
      }
    };
    walk(root, 0);
  }
  return out.filter((t) => t.text !== '');
}

/** The rights input of one item, from every text it carries (docs/RIGHTS.md "What the wiring passes in"). */
export function itemRightsInput(p: ItemRightsParts): ItemRightsInput {
  const iim = (n: number) => p.iim?.find((d) => d.record === 2 && d.dataset === n)?.value;
  const wire = p.item.wire;
  const texts: SourcedText[] = [];
  const add = (source: SourcedText['source'], text: string | undefined | null) => {
    if (text === undefined || text === null || text.trim() === '') return;
    if (texts.some((t) => t.text === text)) return; // one text read once, under its first source
    texts.push({ source, text });
  };
  for (const t of wire?.texts ?? []) add(t.source, t.text);
  // IIM 2:40 as stored (the reader's merged field may be the longer XMP copy), then the XMP copy.
  add('iptc:specialInstructions', iim(40) ?? p.iptc.specialInstructions);
  for (const t of xmpRightsTexts(p.xmp)) add(t.source, t.text);
  add('iptc:specialInstructions', p.iptc.specialInstructions);
  add('iptc:copyright', p.iptc.copyright);
  add('iptc:credit', p.iptc.credit);
  add('iptc:source', p.iptc.source);
  add('iptc:headline', p.iptc.headline);
  for (const r of p.removed) if (NOTE_KINDS.has(r.kind)) add('caption:notes', r.text);
  add('caption:creditTail', p.creditTail);
  add('caption', p.captionRaw);
  const release = { releaseDate: iim(30), releaseTime: iim(35), expirationDate: iim(37), expirationTime: iim(38) };
  return {
    texts,
    iptc: Object.values(release).some((v) => v !== undefined) ? release : undefined,
    newsml: wire?.newsml,
    nitf: wire?.nitf,
    ids: { agencyId: p.item.agencyId ?? null, transmissionReference: p.iptc.transmissionReference ?? null },
    referenceTime: wire?.sent ?? p.iptc.dateCreated ?? null,
    agency: p.agency,
  };
}

/** Rights, release and any kill, withdrawal or correction notice of one item. Pure. */
export function readItemRights(p: ItemRightsParts, rules?: RightsRules): ItemRights {
  const input = itemRightsInput(p);
  return {
    rights: readRights(input, rules),
    release: readRelease(input, rules),
    notice: readNotice(input, rules),
    input,
  };
}
