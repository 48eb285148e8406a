import { InputError } from '../../errors';
import type { FeedItem, IptcFields } from '../../../schemas/feedItem';
import { cityFromDateline } from './datelineCity';
import { compact, isString, nonEmpty } from './fields';
import { resolveImageRef } from './resolveImageRef';
import { parseXmlSafely } from './safeXml';
import { attr, attrText, childElements, descendants, firstChild, path, rawText, text, type XmlElement } from './xmlTree';

/**
 * NITF → FeedItems: one per `<media media-type="image">` in the body, in document order.
 * Document-level metadata (hedline, byline, docdata, dateline) is shared by every image;
 * media-caption and media-producer belong to their image.
 *
 * A NITF without image media (a text story) yields no items: photowire catalogs photos, and a
 * whole article is not a caption. The caller reports the empty feed like any other.
 *
 * agencyId is the doc-id; when one document carries several images each gets
 * `<doc-id>#<media id>` (or `#<n>`, 1-based, when the media element has no id) so that they
 * stay distinct records.
 */
export function parseNitf(xml: string, feedPath: string): FeedItem[] {
  const root = parseXmlSafely(xml, feedPath);
  if (root.local !== 'nitf') {
    throw new InputError('FEED_UNKNOWN_FORMAT', `${feedPath}: root element <${root.name}> is not a NITF document`);
  }
  const head = firstChild(root, 'head');
  const body = firstChild(root, 'body');
  const docdata = firstChild(head, 'docdata');
  const bodyHead = firstChild(body, 'body.head');
  const docId = attrText(firstChild(docdata, 'doc-id'), 'id-string');
  const version = attrText(firstChild(docdata, 'du-key'), 'version');
  const shared = readDocumentFields(head, docdata, bodyHead);

  const images = descendants(body, 'media').filter((m) => (attr(m, 'media-type') ?? '').trim().toLowerCase() === 'image');
  return images.map((media, position) => {
    const caption = text(firstChild(media, 'media-caption'));
    const iptc: IptcFields = compact({ ...shared, caption, credit: text(firstChild(media, 'media-producer')) });
    const label = `${feedPath}: image media ${position} at line ${media.line}`;
    const resolved = resolveImageRef(feedPath, attr(pickReference(media), 'source'), true, label);
    const item: FeedItem = {
      source: { file: feedPath, position, line: media.line, format: 'nitf' },
      captionRaw: caption ?? '',
      iptc,
      image: resolved.image,
    };
    if (docId !== undefined) {
      item.agencyId = images.length === 1 ? docId : `${docId}#${attrText(media, 'id') ?? position + 1}`;
    }
    if (version !== undefined) item.agencyVersion = version;
    if (resolved.error) item.error = resolved.error;
    return item;
  });
}

function readDocumentFields(
  head: XmlElement | undefined,
  docdata: XmlElement | undefined,
  bodyHead: XmlElement | undefined,
): IptcFields {
  const bylines = childElements(bodyHead, 'byline');
  const dateline = firstChild(bodyHead, 'dateline');
  const location = firstChild(dateline, 'location');
  const evloc = firstChild(docdata, 'evloc');
  const city = text(descendants(location, 'city')[0]) ?? attrText(evloc, 'city') ?? cityFromDateline(text(dateline));

  return compact({
    headline: text(path(bodyHead, 'hedline', 'hl1')),
    byline: nonEmpty(bylines.flatMap(bylineNames)),
    bylineTitle: nonEmpty(bylines.flatMap((b) => descendants(b, 'byttl').map((t) => text(t))).filter(isString)),
    source: text(firstChild(bodyHead, 'distributor')) ?? attrText(firstChild(docdata, 'doc-id'), 'regsrc'),
    copyright: readCopyright(firstChild(docdata, 'doc.copyright')),
    dateCreated: normalizeNitfDate(attrText(firstChild(docdata, 'date.issue'), 'norm')),
    city,
    state: text(descendants(location, 'state')[0]) ?? attrText(evloc, 'state-prov'),
    country: text(descendants(location, 'country')[0]),
    countryCode: attrText(evloc, 'iso-cc')?.toUpperCase(),
    objectName: text(firstChild(head, 'title')),
    keywords: nonEmpty(childElements(firstChild(docdata, 'key-list'), 'keyword').map((k) => attrText(k, 'key')).filter(isString)),
    specialInstructions: attrText(firstChild(docdata, 'ed-msg'), 'info'),
  });
}

/** Tagged persons when the byline marks them up; otherwise the byline text without its title. */
function bylineNames(byline: XmlElement): string[] {
  const persons = descendants(byline, 'person').map((p) => text(p)).filter(isString);
  if (persons.length > 0) return persons;
  const withoutTitle: XmlElement = { ...byline, children: byline.children.filter((c) => typeof c === 'string' || c.local !== 'byttl') };
  const plain = rawText(withoutTitle).trim().replace(/,\s*$/, '');
  return plain ? [plain] : [];
}

/** doc.copyright carries holder and year as attributes; the notice reads "© year holder". */
function readCopyright(docCopyright: XmlElement | undefined): string | undefined {
  const holder = attrText(docCopyright, 'holder');
  const year = attrText(docCopyright, 'year');
  if (holder === undefined) return undefined;
  return year === undefined ? holder : `© ${year} ${holder}`;
}

const BASIC_ISO = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** NITF `norm` dates are ISO 8601 basic format (20120708T143000+0100); records use the extended form. */
export function normalizeNitfDate(norm: string | undefined): string | undefined {
  if (norm === undefined) return undefined;
  const m = BASIC_ISO.exec(norm);
  if (!m) return norm;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h === undefined) return `${y}-${mo}-${d}`;
  const time = `${h}:${mi}${s !== undefined ? `:${s}${frac ?? ''}` : ''}`;
  const offset = zone === undefined || zone === 'Z' ? (zone ?? '') : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${y}-${mo}-${d}T${time}${offset}`;
}

/** The largest image reference of a media element (several sizes of one picture may be listed). */
function pickReference(media: XmlElement): XmlElement | undefined {
  const refs = childElements(media, 'media-reference').filter((r) => {
    const mime = attr(r, 'mime-type');
    return attrText(r, 'source') !== undefined && (mime === undefined || mime.trim().toLowerCase().startsWith('image/'));
  });
  const pixels = (r: XmlElement): number => {
    const value = Number(attr(r, 'width')) * Number(attr(r, 'height'));
    return Number.isFinite(value) ? value : 0;
  };
  let best: XmlElement | undefined;
  for (const ref of refs) if (!best || pixels(ref) > pixels(best)) best = ref;
  return best;
}
