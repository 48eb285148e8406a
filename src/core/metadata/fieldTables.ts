import type { IptcFields } from '../../schemas/feedItem';

export type IptcFieldName = keyof IptcFields;
/** Fields that hold a list (IIM repeatable datasets, XMP Seq/Bag). */
export type IptcListField = 'byline' | 'bylineTitle' | 'keywords';
export type IptcTextField = Exclude<IptcFieldName, IptcListField | 'dateCreated'>;

export const LIST_FIELDS: ReadonlySet<IptcFieldName> = new Set<IptcFieldName>(['byline', 'bylineTitle', 'keywords']);

export interface IimFieldSpec {
  field: IptcFieldName;
  dataset: number; // record 2
  /** Maximum length in bytes the IIM 4.2 spec allows; writers cut values here. */
  maxBytes: number;
}

/**
 * IIM application record (2) datasets that feed an IptcFields field. Dates (2:55 + 2:60)
 * are handled apart because two datasets make one value.
 */
export const IIM_FIELDS: readonly IimFieldSpec[] = [
  { field: 'objectName', dataset: 5, maxBytes: 64 },
  { field: 'keywords', dataset: 25, maxBytes: 64 },
  { field: 'specialInstructions', dataset: 40, maxBytes: 256 },
  { field: 'byline', dataset: 80, maxBytes: 32 },
  { field: 'bylineTitle', dataset: 85, maxBytes: 32 },
  { field: 'city', dataset: 90, maxBytes: 32 },
  { field: 'sublocation', dataset: 92, maxBytes: 32 },
  { field: 'state', dataset: 95, maxBytes: 32 },
  { field: 'countryCode', dataset: 100, maxBytes: 3 },
  { field: 'country', dataset: 101, maxBytes: 64 },
  { field: 'transmissionReference', dataset: 103, maxBytes: 32 },
  { field: 'headline', dataset: 105, maxBytes: 256 },
  { field: 'credit', dataset: 110, maxBytes: 32 },
  { field: 'source', dataset: 115, maxBytes: 32 },
  { field: 'copyright', dataset: 116, maxBytes: 128 },
  { field: 'caption', dataset: 120, maxBytes: 2000 },
  { field: 'writer', dataset: 122, maxBytes: 32 },
];

export const IIM_DATE_CREATED = 55;
export const IIM_TIME_CREATED = 60;
export const IIM_CODED_CHARACTER_SET = 90; // record 1
export const IIM_RECORD_VERSION = 0;

export const IIM_FIELD_BY_DATASET: ReadonlyMap<number, IimFieldSpec> = new Map(IIM_FIELDS.map((s) => [s.dataset, s]));

export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xml: 'http://www.w3.org/XML/1998/namespace',
  dc: 'http://purl.org/dc/elements/1.1/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
  iptcCore: 'http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/',
  xmpNote: 'http://ns.adobe.com/xmp/note/',
  iptcExt: 'http://iptc.org/std/Iptc4xmpExt/2008-02-29/',
} as const;

export type XmpShape = 'text' | 'langAlt' | 'list';

export interface XmpFieldSpec {
  field: IptcFieldName;
  ns: string;
  /** Local property name as the standard spells it (matched case-insensitively when reading). */
  name: string;
  shape: XmpShape;
}

export const XMP_FIELDS: readonly XmpFieldSpec[] = [
  { field: 'caption', ns: NS.dc, name: 'description', shape: 'langAlt' },
  { field: 'objectName', ns: NS.dc, name: 'title', shape: 'langAlt' },
  { field: 'copyright', ns: NS.dc, name: 'rights', shape: 'langAlt' },
  { field: 'byline', ns: NS.dc, name: 'creator', shape: 'list' },
  { field: 'keywords', ns: NS.dc, name: 'subject', shape: 'list' },
  { field: 'headline', ns: NS.photoshop, name: 'Headline', shape: 'text' },
  // a single text in XMP, a repeatable dataset in IIM: read as a one-item list
  { field: 'bylineTitle', ns: NS.photoshop, name: 'AuthorsPosition', shape: 'text' },
  { field: 'credit', ns: NS.photoshop, name: 'Credit', shape: 'text' },
  { field: 'source', ns: NS.photoshop, name: 'Source', shape: 'text' },
  { field: 'dateCreated', ns: NS.photoshop, name: 'DateCreated', shape: 'text' },
  { field: 'city', ns: NS.photoshop, name: 'City', shape: 'text' },
  { field: 'state', ns: NS.photoshop, name: 'State', shape: 'text' },
  { field: 'country', ns: NS.photoshop, name: 'Country', shape: 'text' },
  { field: 'transmissionReference', ns: NS.photoshop, name: 'TransmissionReference', shape: 'text' },
  { field: 'specialInstructions', ns: NS.photoshop, name: 'Instructions', shape: 'text' },
  { field: 'writer', ns: NS.photoshop, name: 'CaptionWriter', shape: 'text' },
  { field: 'sublocation', ns: NS.iptcCore, name: 'Location', shape: 'text' },
  { field: 'countryCode', ns: NS.iptcCore, name: 'CountryCode', shape: 'text' },
];

const xmpKey = (ns: string, localName: string): string => `${ns} ${localName.toLowerCase()}`;

const XMP_FIELD_BY_KEY: ReadonlyMap<string, XmpFieldSpec> = new Map(XMP_FIELDS.map((s) => [xmpKey(s.ns, s.name), s]));

/**
 * ExifTool names unknown XMP properties after their id with the first letter upper-cased,
 * so `dc:Rights` (as Getty writes it) lands on the same tag as `dc:rights`; matching the
 * local name case-insensitively gives the same result.
 */
export function xmpFieldFor(ns: string, localName: string): XmpFieldSpec | undefined {
  return XMP_FIELD_BY_KEY.get(xmpKey(ns, localName));
}

/** The order fields appear in objects we build, so output is stable and easy to diff. */
export const FIELD_ORDER: readonly IptcFieldName[] = [
  'caption',
  'headline',
  'byline',
  'bylineTitle',
  'credit',
  'source',
  'copyright',
  'dateCreated',
  'city',
  'sublocation',
  'state',
  'country',
  'countryCode',
  'transmissionReference',
  'objectName',
  'keywords',
  'specialInstructions',
  'writer',
];
