import { InputError } from '../../errors';
import type { FeedItem, IptcFields } from '../../../schemas/feedItem';
import { cityFromDateline } from './datelineCity';
import { compact, isString, nonEmpty } from './fields';
import { resolveImageRef } from './resolveImageRef';
import { parseXmlSafely } from './safeXml';
import { attr, attrText, childElements, firstChild, path, qcodeCode, text, type XmlElement } from './xmlTree';

/**
 * NewsML-G2 picture items → FeedItems, following the IPTC mapping between photo metadata and
 * NewsML-G2. Accepts a newsMessage (items under itemSet) or a single newsItem. Only picture
 * and graphic items become FeedItems (itemClass ninat:picture / ninat:graphic, or no itemClass
 * but an image rendition); text, video and package items of the same message are not photos
 * and are skipped. `source.position` is the item's index among all newsItems of the message,
 * so it stays stable whatever was skipped.
 */
export function parseNewsmlG2(xml: string, feedPath: string): FeedItem[] {
  const root = parseXmlSafely(xml, feedPath);
  let newsItems: XmlElement[];
  if (root.local === 'newsItem') newsItems = [root];
  else if (root.local === 'newsMessage') newsItems = childElements(root, 'itemSet').flatMap((set) => childElements(set, 'newsItem'));
  else {
    throw new InputError('FEED_UNKNOWN_FORMAT', `${feedPath}: root element <${root.name}> is not a NewsML-G2 newsMessage or newsItem`);
  }

  const items: FeedItem[] = [];
  const firstSeen = new Map<string, number>();
  newsItems.forEach((newsItem, position) => {
    if (!isPicture(newsItem)) return;
    const item = readPictureItem(newsItem, position, feedPath);
    if (item.agencyId !== undefined) {
      const earlier = firstSeen.get(item.agencyId);
      if (earlier === undefined) firstSeen.set(item.agencyId, position);
      else if (!item.error) {
        item.error = {
          code: 'ITEM_DUPLICATE_ID',
          message: `${itemLabel(feedPath, newsItem, position)}: guid ${item.agencyId} was already used by newsItem ${earlier} of this message`,
        };
      }
    }
    items.push(item);
  });
  return items;
}

const PICTURE_CLASSES = new Set(['picture', 'graphic']);

function isPicture(newsItem: XmlElement): boolean {
  const itemClass = qcodeCode(attr(path(newsItem, 'itemMeta', 'itemClass'), 'qcode'));
  if (itemClass !== undefined) return PICTURE_CLASSES.has(itemClass.toLowerCase());
  return imageRenditions(newsItem).length > 0;
}

function itemLabel(feedPath: string, newsItem: XmlElement, position: number): string {
  const guid = attrText(newsItem, 'guid');
  return `${feedPath}: newsItem ${position}${guid ? ` (${guid})` : ''} at line ${newsItem.line}`;
}

function readPictureItem(newsItem: XmlElement, position: number, feedPath: string): FeedItem {
  const contentMeta = firstChild(newsItem, 'contentMeta');
  const itemMeta = firstChild(newsItem, 'itemMeta');
  const caption = pickCaption(contentMeta);
  const place = readLocated(firstChild(contentMeta, 'located'));
  if (place.city === undefined) place.city = cityFromDateline(text(firstChild(contentMeta, 'dateline')));

  const iptc: IptcFields = compact({
    caption,
    headline: text(firstChild(contentMeta, 'headline')),
    byline: nonEmpty(readByline(contentMeta)),
    credit: text(firstChild(contentMeta, 'creditline')),
    source: readSource(contentMeta),
    copyright: readCopyright(newsItem),
    dateCreated: text(firstChild(contentMeta, 'contentCreated')),
    ...place,
    transmissionReference: readJobId(contentMeta, itemMeta),
    objectName: text(firstChild(itemMeta, 'title')),
    keywords: nonEmpty(readKeywords(contentMeta)),
    specialInstructions: text(firstChild(itemMeta, 'edNote')),
    writer: readWriter(contentMeta),
  });

  const label = itemLabel(feedPath, newsItem, position);
  const resolved = resolveImageRef(feedPath, attr(pickRendition(newsItem), 'href'), true, label);
  const item: FeedItem = {
    source: { file: feedPath, position, line: newsItem.line, format: 'newsml-g2' },
    captionRaw: caption ?? '',
    iptc,
    image: resolved.image,
  };
  const guid = attrText(newsItem, 'guid');
  const version = attrText(newsItem, 'version');
  if (guid !== undefined) item.agencyId = guid;
  if (version !== undefined) item.agencyVersion = version;
  if (resolved.error) item.error = resolved.error;
  return item;
}

/** The description whose role is a caption (drol:caption), else one without a role. */
function pickCaption(contentMeta: XmlElement | undefined): string | undefined {
  if (!contentMeta) return undefined;
  const descriptions = childElements(contentMeta, 'description');
  const byRole = descriptions.find((d) => roles(d).includes('caption'));
  const chosen = byRole ?? descriptions.find((d) => attr(d, 'role') === undefined);
  return text(chosen);
}

/** Codes of a (space-separated) role attribute, lower-cased: `drol:caption` → ['caption']. */
function roles(el: XmlElement): string[] {
  const value = attr(el, 'role');
  if (!value) return [];
  return value
    .split(/\s+/)
    .filter(Boolean)
    .map((qcode) => (qcodeCode(qcode) ?? '').toLowerCase());
}

/** A concept's display name: its name child, else its literal attribute. */
function conceptName(el: XmlElement | undefined): string | undefined {
  return text(firstChild(el, 'name')) ?? attrText(el, 'literal');
}

function readByline(contentMeta: XmlElement | undefined): string[] {
  if (!contentMeta) return [];
  // creator is the structured party; `by` is the display byline and often repeats it.
  const creators = childElements(contentMeta, 'creator').map(conceptName).filter(isString);
  if (creators.length > 0) return creators;
  return childElements(contentMeta, 'by').map((by) => text(by)).filter(isString);
}

function readSource(contentMeta: XmlElement | undefined): string | undefined {
  if (!contentMeta) return undefined;
  const sources = childElements(contentMeta, 'infoSource');
  const byRole = sources.find((s) => roles(s).includes('source'));
  return conceptName(byRole ?? sources.find((s) => attr(s, 'role') === undefined));
}

function readCopyright(newsItem: XmlElement): string | undefined {
  for (const rights of childElements(newsItem, 'rightsInfo')) {
    const notice = text(firstChild(rights, 'copyrightNotice'));
    if (notice !== undefined) return notice;
    const holder = conceptName(firstChild(rights, 'copyrightHolder'));
    if (holder !== undefined) return holder;
  }
  return undefined;
}

function readJobId(...parents: Array<XmlElement | undefined>): string | undefined {
  for (const parent of parents) {
    if (!parent) continue;
    for (const altId of childElements(parent, 'altId')) {
      if (/job|transmission/i.test(attr(altId, 'type') ?? '')) return text(altId);
    }
  }
  return undefined;
}

function readWriter(contentMeta: XmlElement | undefined): string | undefined {
  if (!contentMeta) return undefined;
  const writer = childElements(contentMeta, 'contributor').find((c) => roles(c).some((role) => role.includes('writer')));
  return conceptName(writer);
}

function readKeywords(contentMeta: XmlElement | undefined): string[] {
  if (!contentMeta) return [];
  const words = [
    ...childElements(contentMeta, 'keyword').map((k) => text(k)),
    // Subjects sent only as codes (medtop:20000849) are not words a user searches for.
    ...childElements(contentMeta, 'subject').map((s) => text(firstChild(s, 'name'))),
  ].filter(isString);
  return [...new Set(words)];
}

type Place = Pick<IptcFields, 'city' | 'state' | 'country' | 'countryCode'>;

/**
 * Where the photo was taken. The located concept names the place; its type says whether that
 * is a city, a region or a country (no type: a city, as the IPTC mapping reads located/name),
 * and its broader concepts or POIDetails address give the rest.
 */
function readLocated(located: XmlElement | undefined): Place {
  const place: Place = {};
  if (!located) return place;
  const assign = (concept: XmlElement, fallback: keyof Place | undefined): void => {
    const name = conceptName(concept);
    const kind = (qcodeCode(attr(concept, 'type')) ?? '').toLowerCase();
    const slot: keyof Place | undefined = kind.includes('country')
      ? 'country'
      : /adminarea|state|province|region/.test(kind)
        ? 'state'
        : /city|town|village|locality/.test(kind)
          ? 'city'
          : fallback;
    if (slot && name !== undefined && place[slot] === undefined) place[slot] = name;
    if (slot === 'country' && place.countryCode === undefined) place.countryCode = isoCountryCode(attr(concept, 'qcode'));
  };

  const address = path(located, 'POIDetails', 'address');
  if (address) {
    const locality = text(path(address, 'locality', 'name'));
    const area = text(path(address, 'area', 'name'));
    const country = firstChild(address, 'country');
    if (locality !== undefined) place.city = locality;
    if (area !== undefined) place.state = area;
    if (country) {
      place.country = conceptName(country);
      place.countryCode = isoCountryCode(attr(country, 'qcode'));
    }
  }
  assign(located, 'city');
  for (const broader of childElements(located, 'broader')) assign(broader, undefined);
  return compact(place);
}

function isoCountryCode(qcode: string | undefined): string | undefined {
  if (!qcode || !/^iso3166/i.test(qcode)) return undefined;
  const code = qcodeCode(qcode)?.trim();
  return code && /^[A-Za-z]{2,3}$/.test(code) ? code.toUpperCase() : undefined;
}

/** Image renditions that can be fetched or read: remoteContent with an href and an image (or no) content type. */
function imageRenditions(newsItem: XmlElement): XmlElement[] {
  return childElements(firstChild(newsItem, 'contentSet'), 'remoteContent').filter((rc) => {
    const type = attr(rc, 'contenttype');
    return attrText(rc, 'href') !== undefined && (type === undefined || type.trim().toLowerCase().startsWith('image/'));
  });
}

/** rnd:highRes when the provider marks one, else the rendition with the most pixels, then the largest file. */
function pickRendition(newsItem: XmlElement): XmlElement | undefined {
  const renditions = imageRenditions(newsItem);
  const isHighRes = (rc: XmlElement): boolean => (qcodeCode(attr(rc, 'rendition')) ?? '').toLowerCase() === 'highres';
  const pool = renditions.some(isHighRes) ? renditions.filter(isHighRes) : renditions;
  const num = (rc: XmlElement, name: string): number => {
    const value = Number(attr(rc, name));
    return Number.isFinite(value) && value > 0 ? value : 0;
  };
  let best: XmlElement | undefined;
  for (const rc of pool) {
    if (!best) best = rc;
    else {
      const pixels = num(rc, 'width') * num(rc, 'height');
      const bestPixels = num(best, 'width') * num(best, 'height');
      if (pixels > bestPixels || (pixels === bestPixels && num(rc, 'size') > num(best, 'size'))) best = rc;
    }
  }
  return best;
}
