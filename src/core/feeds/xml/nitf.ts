import { InputError } from '../../errors';
import type { FeedItem, IptcFields } from '../../../schemas/feedItem';
import { cityFromDateline } from './datelineCity';
import { compact, isString, nonEmpty, oneLine } from './fields';
import { resolveImageRef } from './resolveImageRef';
import { parseXmlSafely } from './safeXml';
import type { SkippedItem, WireXmlResult } from './wireXmlResult';
import {
  attr,
  attrText,
  childElements,
  descendants,
  firstChild,
  path,
  rawText,
  text,
  type XmlElement,
} from './xmlTree';
import { nitfWireFields } from './wireRights';

/**
 * NITF → FeedItems: one per `<media media-type="image">` in the body, in document order.
 * Document-level metadata (hedline, docdata, dateline) is shared by every image; the photo's own
 * credit and creator come from its media block only: `media-producer` (the creator when it is a
 * person's name, the credit when it names an agency or has a slash), `media-metadata`
 * credit/byline/copyright, and the credit written in `media-caption`, which stays in the caption
 * for the caption cleaner to read. The article's byline is the writer's, not the photographer's:
 * it is the photo's byline only when it says so ("Photo by ...", "Foto: ...") or when the
 * document is the photo alone (no text besides its media).
 *
 * A NITF without image media (a text story) yields no items and one skipped text item; other
 * media (video, audio) are skipped by kind.
 *
 * agencyId is the doc-id; when one document carries several images each gets
 * `<doc-id>#<media id>` (or `#<n>`, 1-based, when the media element has no id) so that they
 * stay distinct records.
 */
export function readNitf(xml: string, feedPath: string): WireXmlResult {
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
  const photoOnly = !hasArticleText(firstChild(body, 'body.content'));
  const shared = readDocumentFields(head, docdata, bodyHead, photoOnly);

  const media = descendants(body, 'media');
  const mediaType = (m: XmlElement): string => (attr(m, 'media-type') ?? '').trim().toLowerCase() || 'unknown';
  const images = media.filter((m) => mediaType(m) === 'image');
  const docLabel = `nitf${docId ? ` (${docId})` : ''} at line ${root.line}`;
  const skipped: SkippedItem[] = media
    .filter((m) => mediaType(m) !== 'image')
    .map((m) => ({
      kind: mediaType(m),
      label: `${docLabel}: ${mediaType(m)} media at line ${m.line}`,
      reason: `${mediaType(m)} media, not a picture`,
    }));
  if (images.length === 0 && !photoOnly)
    skipped.unshift({ kind: 'text', label: docLabel, reason: 'a text story without image media' });

  const wire = nitfWireFields(docdata);
  const items = images.map((m, position) => {
    const caption = text(firstChild(m, 'media-caption'));
    const iptc: IptcFields = compact({ ...shared, caption, ...readMediaCredit(m, shared) });
    const label = `${feedPath}: image media ${position} at line ${m.line}`;
    const resolved = resolveImageRef(feedPath, attr(pickReference(m), 'source'), true, label);
    const item: FeedItem = {
      source: { file: feedPath, position, line: m.line, format: 'nitf' },
      captionRaw: caption ?? '',
      iptc,
      image: resolved.image,
    };
    if (docId !== undefined) {
      item.agencyId = images.length === 1 ? docId : `${docId}#${attrText(m, 'id') ?? position + 1}`;
    }
    if (version !== undefined) item.agencyVersion = version;
    if (wire) item.wire = wire; // rights, embargo, management-status
    if (resolved.error) item.error = resolved.error;
    return item;
  });
  return { items, skipped };
}

/** The FeedItems of a NITF document (skipped media aside). */
export function parseNitf(xml: string, feedPath: string): FeedItem[] {
  return readNitf(xml, feedPath).items;
}

/** Whether body.content holds text of its own besides its media (an article, not a photo). */
function hasArticleText(content: XmlElement | undefined): boolean {
  if (!content) return false;
  const withoutMedia = (el: XmlElement): XmlElement => ({
    ...el,
    children: el.children
      .filter((c) => typeof c === 'string' || c.local !== 'media')
      .map((c) => (typeof c === 'string' ? c : withoutMedia(c))),
  });
  return rawText(withoutMedia(content)).trim() !== '';
}

/** Organisation words and signs that make a media-producer an agency credit, not a person. */
const ORG_WORDS =
  /\b(?:photos?|fotos?|press|presse|news|images?|agency|agentur|pictures?|media|wire|service|pool|handout|archives?|scanpix|ntb|afp|ap|dpa|epa|reuters|getty|anp|tt|lehtikuva|corbis|xinhua|pa|sipa|abaca)\b/i;
const NAME_WORD =
  /^(?:\p{Lu}[\p{Ll}\p{M}'’.-]+(?:-\p{Lu}[\p{Ll}\p{M}'’.-]+)*|\p{Lu}\.|van|von|de|da|del|der|den|di|du|la|le|af|av|bin|ibn|al)$/u;

/**
 * A person's name (the photographer): one to five capitalised words ("Karben", "Heiko Junge",
 * "Ludwig van Beethoven"), or several all-capital words as Reuters writes bylines; never a
 * slash, a digit or an agency word.
 */
export function looksLikePerson(value: string): boolean {
  const v = value.replace(/\s+/g, ' ').trim();
  if (!v || /[/|\d@©(),;:]/.test(v) || ORG_WORDS.test(v)) return false;
  const words = v.split(' ');
  if (words.length > 5) return false;
  if (words.every((w) => NAME_WORD.test(w))) return true;
  return words.length >= 2 && words.every((w) => /^\p{Lu}[\p{Lu}\p{M}'’.-]+$/u.test(w));
}

/** The credit, creator and copyright of one image, from its media block only. */
function readMediaCredit(m: XmlElement, shared: IptcFields): IptcFields {
  const out: IptcFields = {};
  const producer = text(firstChild(m, 'media-producer'))?.replace(/\s+/g, ' ');
  if (producer !== undefined) {
    if (looksLikePerson(producer)) out.byline = [producer];
    else out.credit = producer;
  }
  for (const meta of childElements(m, 'media-metadata')) {
    const name = (attr(meta, 'name') ?? '').toLowerCase();
    const value = attrText(meta, 'value');
    if (value === undefined) continue;
    if (/credit/.test(name)) out.credit ??= value;
    else if (/byline|photographer|creator|author/.test(name)) out.byline ??= [value];
    else if (/copyright/.test(name)) out.copyright = value;
  }
  return out;
}

function readDocumentFields(
  head: XmlElement | undefined,
  docdata: XmlElement | undefined,
  bodyHead: XmlElement | undefined,
  photoOnly: boolean,
): IptcFields {
  // The article's byline belongs to the photo only in a photo document, or when it says it is a photo byline.
  const bylines = childElements(bodyHead, 'byline').filter((b) => photoOnly || PHOTO_BYLINE.test(rawText(b).trim()));
  const dateline = firstChild(bodyHead, 'dateline');
  const location = firstChild(dateline, 'location');
  const evloc = firstChild(docdata, 'evloc');
  // evloc is where the events took place (what the photo shows); the dateline where the story was filed.
  const evCity = attrText(evloc, 'city');
  const dlCity = text(descendants(location, 'city')[0]);
  const dlState = text(descendants(location, 'state')[0]);
  const sameCity = evCity === undefined || dlCity === undefined || evCity.toLowerCase() === dlCity.toLowerCase();
  const city = evCity ?? dlCity ?? cityFromDateline(text(dateline));

  return compact({
    headline: oneLine(text(path(bodyHead, 'hedline', 'hl1'))),
    byline: nonEmpty(bylines.flatMap(bylineNames)),
    bylineTitle: nonEmpty(bylines.flatMap((b) => descendants(b, 'byttl').map((t) => text(t))).filter(isString)),
    source: text(firstChild(bodyHead, 'distributor')) ?? attrText(firstChild(docdata, 'doc-id'), 'regsrc'),
    copyright: readCopyright(firstChild(docdata, 'doc.copyright')),
    dateCreated: normalizeNitfDate(attrText(firstChild(docdata, 'date.issue'), 'norm')),
    city,
    state: attrText(evloc, 'state-prov') ?? (sameCity ? dlState : undefined),
    country: sameCity ? text(descendants(location, 'country')[0]) : undefined,
    countryCode: attrText(evloc, 'iso-cc')?.toUpperCase(),
    objectName: text(firstChild(head, 'title')),
    keywords: nonEmpty(
      childElements(firstChild(docdata, 'key-list'), 'keyword')
        .map((k) => attrText(k, 'key'))
        .filter(isString),
    ),
    specialInstructions: attrText(firstChild(docdata, 'ed-msg'), 'info'),
  });
}

/** Tagged persons when the byline marks them up; otherwise the byline text without its title. */
function bylineNames(byline: XmlElement): string[] {
  const persons = descendants(byline, 'person')
    .map((p) => text(p))
    .filter(isString);
  if (persons.length > 0) return persons;
  const withoutTitle: XmlElement = {
    ...byline,
    children: byline.children.filter((c) => typeof c === 'string' || c.local !== 'byttl'),
  };
  const plain = rawText(withoutTitle).trim().replace(/,\s*$/, '');
  return plain ? [plain] : [];
}

const PHOTO_BYLINE =
  /^(?:photo(?:graph)?s?(?:\s+by)?|foto(?:s|grafi)?(?:\s+av|\s+von|\s+by)?|fotograf|bild|kuva|picture\s+by)\b\s*:?/i;

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
  const offset =
    zone === undefined || zone === 'Z'
      ? (zone ?? '')
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${y}-${mo}-${d}T${time}${offset}`;
}

/** The largest image reference of a media element (several sizes of one picture may be listed). */
function pickReference(media: XmlElement): XmlElement | undefined {
  const refs = childElements(media, 'media-reference').filter((r) => {
    const mime = attr(r, 'mime-type');
    return (
      attrText(r, 'source') !== undefined && (mime === undefined || mime.trim().toLowerCase().startsWith('image/'))
    );
  });
  const pixels = (r: XmlElement): number => {
    const value = Number(attr(r, 'width')) * Number(attr(r, 'height'));
    return Number.isFinite(value) ? value : 0;
  };
  let best: XmlElement | undefined;
  for (const ref of refs) if (!best || pixels(ref) > pixels(best)) best = ref;
  return best;
}
