import type { IptcFields } from '../../schemas/feedItem';
import { buildIimBlock } from './buildIimBlock';
import { escapeXml as escapeWhole, xmpPacket } from './buildXmpPacket';
import { NS } from './fieldTables';
import { insertIptcIntoJpeg, insertXmpIntoJpeg } from './jpegWriter';

/**
 * What a preview carries so that a CMS importing it cannot lose the restrictions: the
 * Special Instructions as the agency wrote them, the usage terms, the credit and copyright.
 */
export interface PreviewRights {
  specialInstructions: string | null;
  usageTerms: string | null;
  creditLine: string | null;
  copyright: string | null;
}

// one APP1 segment holds about 65,000 bytes of XMP; each text is cut well below that
const MAX_XMP_TEXT = 16_000;

/** Escaped, and at most MAX_XMP_TEXT characters: a preview's packet stays small whatever was sent. */
const escapeXml = (s: string) => escapeWhole(s.slice(0, MAX_XMP_TEXT));

const langAlt = (name: string, v: string) =>
  `   <${name}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(v)}</rdf:li></rdf:Alt></${name}>`;

/** The XMP packet of a preview: photoshop:Instructions, xmpRights:UsageTerms, photoshop:Credit, dc:rights. */
export function previewXmpPacket(r: PreviewRights): string {
  const props: string[] = [];
  if (r.copyright) props.push(langAlt('dc:rights', r.copyright));
  if (r.creditLine) props.push(`   <photoshop:Credit>${escapeXml(r.creditLine)}</photoshop:Credit>`);
  if (r.specialInstructions)
    props.push(`   <photoshop:Instructions>${escapeXml(r.specialInstructions)}</photoshop:Instructions>`);
  if (r.usageTerms) props.push(langAlt('xmpRights:UsageTerms', r.usageTerms));
  return xmpPacket(
    `xmlns:dc="${NS.dc}" xmlns:photoshop="${NS.photoshop}" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"`,
    props,
  );
}

export function hasPreviewRights(r: PreviewRights | null | undefined): r is PreviewRights {
  return !!r && Object.values(r).some((v) => v !== null && v !== '');
}

/**
 * The preview JPEG with IPTC (2:40, 2:110, 2:116, UTF-8, cut at the IIM maxima as Photoshop does)
 * and XMP (whole) written in; the pixels are copied untouched.
 */
export function embedPreviewRights(jpeg: Buffer, r: PreviewRights): Buffer {
  if (!hasPreviewRights(r)) return jpeg;
  const fields: IptcFields = {};
  if (r.specialInstructions) fields.specialInstructions = r.specialInstructions;
  if (r.creditLine) fields.credit = r.creditLine;
  if (r.copyright) fields.copyright = r.copyright;
  const withIptc = Object.keys(fields).length ? insertIptcIntoJpeg(jpeg, buildIimBlock(fields, { utf8: true })) : jpeg;
  return insertXmpIntoJpeg(withIptc, previewXmpPacket(r));
}
