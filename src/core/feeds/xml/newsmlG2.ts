import { InputError } from '../../errors';
import type { FeedItem, IptcFields } from '../../../schemas/feedItem';
import { cityFromDateline } from './datelineCity';
import { compact, isString, nonEmpty, oneLine } from './fields';
import { resolveImageRef, type ResolvedImage } from './resolveImageRef';
import { parseXmlSafely } from './safeXml';
import { ConceptIndex, readPlace } from './g2Place';
import type { SkippedItem, WireXmlResult } from './wireXmlResult';
import { newsmlWireFields } from './wireRights';
import {
  attr,
  attrText,
  childElements,
  descendants,
  firstChild,
  path,
  qcodeCode,
  text,
  type XmlElement,
} from './xmlTree';

export interface NewsmlG2Options {
  /**
   * The text of an item file a package refers to by href (already confined to the feed's folder
   * or URL), or null when it is not there. Without it, such pictures are listed as skipped.
   */
  readRef?: (resolved: string) => string | null;
  /**
   * Whether a file inside the feed's folder exists. When it does, a rendition whose href is a
   * remote URL but whose residref names a file beside the feed is read from there (Reuters'
   * binaries delivered next to their XML are named by residref).
   */
  localFile?: (resolved: string) => boolean;
}

/**
 * NewsML-G2 picture items → FeedItems, following the IPTC mapping between photo metadata and
 * NewsML-G2. Accepts a newsMessage (every item under itemSet), or a single newsItem, packageItem,
 * groupSet, knowledgeItem/conceptItem/planningItem as the root. Only picture and graphic items
 * become FeedItems (itemClass ninat:/icls: picture or graphic, any case, by qcode or uri, or no
 * itemClass but an image rendition); text, video, audio, packages and concepts are returned as
 * skipped, by kind, with their guid. A package's itemRefs to pictures are taken from the same
 * message (by residref = guid), or through their href (an image, or an item file `readRef`
 * gives); else they are listed as skipped with the reason.
 *
 * `source.position` is the item's index among all items of the message (whatever was skipped),
 * so it stays stable; pictures reached only through a package's href come after them.
 */
export function readNewsmlG2(xml: string, feedPath: string, options: NewsmlG2Options = {}): WireXmlResult {
  const root = parseXmlSafely(xml, feedPath);
  let entries: XmlElement[];
  if (root.local === 'newsMessage') entries = childElements(root, 'itemSet').flatMap((set) => childElements(set));
  else if (ROOT_ITEMS.has(root.local)) entries = [root];
  else {
    throw new InputError(
      'FEED_UNKNOWN_FORMAT',
      `${feedPath}: root element <${root.name}> is not a NewsML-G2 newsMessage, newsItem or packageItem`,
    );
  }

  const items: FeedItem[] = [];
  const skipped: SkippedItem[] = [];
  const refs: Array<{ ref: XmlElement; packageLabel: string }> = [];
  const inMessage = new Map<string, string>(); // guid → kind
  entries.forEach((entry, position) => {
    const kind = entryKind(entry);
    const guid = attrText(entry, 'guid');
    if (guid !== undefined && !inMessage.has(guid)) inMessage.set(guid, kind);
    const label = itemLabel(entry, position);
    if (kind === 'picture') {
      items.push(readPictureItem(entry, position, feedPath, label, options));
      return;
    }
    skipped.push({
      kind,
      label,
      reason:
        kind === 'unknown'
          ? 'an item with neither an itemClass nor an image rendition'
          : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} item, not a picture`,
    });
    if (kind === 'package')
      for (const ref of descendants(entry, 'itemRef')) if (isPictureRef(ref)) refs.push({ ref, packageLabel: label });
  });

  let next = entries.length;
  const taken = new Set<string>();
  for (const { ref, packageLabel } of refs) {
    const residref = attrText(ref, 'residref');
    const href = attrText(ref, 'href');
    const key = residref ?? href ?? '';
    if (taken.has(key)) continue;
    taken.add(key);
    if (residref !== undefined && inMessage.has(residref)) {
      const kind = inMessage.get(residref);
      if (kind === 'picture') continue; // taken as an item of this message
    }
    const refLabel = `${packageLabel}: itemRef ${JSON.stringify(residref ?? href)} at line ${ref.line}`;
    const outcome = takeRef(ref, residref, href, feedPath, next, refLabel, options);
    if ('reason' in outcome) skipped.push({ kind: 'picture', label: refLabel, reason: outcome.reason });
    else {
      items.push(outcome.item);
      next++;
    }
  }

  markDuplicates(items, feedPath);
  return { items, skipped };
}

/** The FeedItems of a NewsML-G2 document (skipped items and package references aside). */
export function parseNewsmlG2(xml: string, feedPath: string): FeedItem[] {
  return readNewsmlG2(xml, feedPath).items;
}

const ROOT_ITEMS = new Set([
  'newsItem',
  'packageItem',
  'groupSet',
  'knowledgeItem',
  'conceptItem',
  'planningItem',
  'catalogItem',
  'conceptSet',
]);
const PICTURE_CLASSES = new Set(['picture', 'graphic', 'photo', 'image']);
const CLASS_KINDS: Record<string, string> = {
  composite: 'package',
  animated: 'video',
  video: 'video',
  audio: 'audio',
  text: 'text',
  graphic: 'picture',
};

/** The code of an itemClass (qcode `ninat:Picture`, `icls:picture`, or uri `http://cv.iptc.org/newscodes/ninature/picture`), lower-cased. */
function classCode(itemClass: XmlElement | undefined): string | undefined {
  const qcode = attrText(itemClass, 'qcode');
  if (qcode !== undefined) return (qcodeCode(qcode) ?? qcode).trim().toLowerCase();
  const uri = attrText(itemClass, 'uri');
  if (uri !== undefined) return uri.replace(/\/+$/, '').split(/[/#:]/).pop()?.toLowerCase();
  return undefined;
}

function entryKind(entry: XmlElement): string {
  switch (entry.local) {
    case 'newsItem': {
      const code = classCode(path(entry, 'itemMeta', 'itemClass'));
      if (code !== undefined) return PICTURE_CLASSES.has(code) ? 'picture' : (CLASS_KINDS[code] ?? code);
      if (imageRenditions(entry).length > 0) return 'picture';
      const contentSet = firstChild(entry, 'contentSet');
      return firstChild(contentSet, 'inlineXML') || firstChild(contentSet, 'inlineData') ? 'text' : 'unknown';
    }
    case 'packageItem':
    case 'groupSet':
      return 'package';
    case 'knowledgeItem':
    case 'conceptItem':
    case 'catalogItem':
    case 'conceptSet':
      return 'concept';
    case 'planningItem':
      return 'planning';
    default:
      return entry.local;
  }
}

/** An itemRef to a picture: its itemClass says so, or its contenttype is an image. */
function isPictureRef(ref: XmlElement): boolean {
  const code = classCode(firstChild(ref, 'itemClass'));
  if (code !== undefined) return PICTURE_CLASSES.has(code);
  return (attr(ref, 'contenttype') ?? '').trim().toLowerCase().startsWith('image/');
}

const IMAGE_NAME = /\.(?:jpe?g|png|tiff?|webp|gif|heic)$/i;

/** A picture a package refers to but this message does not carry: through its href, or why not. */
function takeRef(
  ref: XmlElement,
  residref: string | undefined,
  href: string | undefined,
  feedPath: string,
  position: number,
  label: string,
  options: NewsmlG2Options,
): { item: FeedItem } | { reason: string } {
  if (href === undefined)
    return { reason: 'a picture the package refers to, neither in this message nor given an href' };
  const resolved = resolveImageRef(feedPath, href, true, label);
  if (resolved.error || resolved.image === null) return { reason: resolved.error?.message ?? 'its href is empty' };
  const contenttype = (attr(ref, 'contenttype') ?? '').trim().toLowerCase();
  if (contenttype.startsWith('image/') || (!contenttype && IMAGE_NAME.test(href.split(/[?#]/)[0]))) {
    const caption = text(firstChild(ref, 'description'));
    const item: FeedItem = {
      source: { file: feedPath, position, line: ref.line, format: 'newsml-g2' },
      captionRaw: caption ?? '',
      iptc: compact({ caption, headline: oneLine(text(firstChild(ref, 'title'))) }),
      image: resolved.image,
    };
    if (residref !== undefined) item.agencyId = residref;
    const version = attrText(ref, 'version');
    if (version !== undefined) item.agencyVersion = version;
    return { item };
  }
  const body = options.readRef?.(resolved.image) ?? null;
  if (body === null)
    return {
      reason: `its item file ${resolved.image} is not in the feed's folder${options.readRef ? '' : ' (referenced item files are not fetched for this feed)'}`,
    };
  let found: FeedItem[];
  try {
    found = readNewsmlG2(body, resolved.image).items;
  } catch (err) {
    return { reason: `its item file ${resolved.image} could not be read: ${(err as Error).message}` };
  }
  const match =
    found.find((it) => residref === undefined || it.agencyId === residref) ??
    (found.length === 1 ? found[0] : undefined);
  if (!match)
    return { reason: `its item file ${resolved.image} holds no picture${residref ? ` with guid ${residref}` : ''}` };
  return { item: { ...match, source: { ...match.source, position } } };
}

/** A repeated guid in one message is ITEM_DUPLICATE_ID on the later item only. */
function markDuplicates(items: FeedItem[], feedPath: string): void {
  const firstSeen = new Map<string, number>();
  for (const item of items) {
    if (item.agencyId === undefined) continue;
    const earlier = firstSeen.get(item.agencyId);
    if (earlier === undefined) firstSeen.set(item.agencyId, item.source.position);
    else if (!item.error) {
      item.error = {
        code: 'ITEM_DUPLICATE_ID',
        message: `${feedPath}: item ${item.source.position} at line ${item.source.line ?? '?'}: guid ${item.agencyId} was already used by newsItem ${earlier} of this message`,
      };
    }
  }
}

function itemLabel(entry: XmlElement, position: number): string {
  const guid = attrText(entry, 'guid');
  return `${entry.local} ${position}${guid ? ` (${guid})` : ''} at line ${entry.line}`;
}

function readPictureItem(
  newsItem: XmlElement,
  position: number,
  feedPath: string,
  label: string,
  options: NewsmlG2Options,
): FeedItem {
  const contentMeta = firstChild(newsItem, 'contentMeta');
  const itemMeta = firstChild(newsItem, 'itemMeta');
  const caption = pickCaption(contentMeta);
  const concepts = new ConceptIndex(childElements(newsItem, 'assert'));
  const place = readPlace(pickLocation(contentMeta, concepts), concepts);
  if (place.city === undefined) place.city = cityFromDateline(text(firstChild(contentMeta, 'dateline')));

  const iptc: IptcFields = compact({
    caption,
    headline: oneLine(text(firstChild(contentMeta, 'headline'))),
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

  const rendition = pickRendition(newsItem);
  const resolved =
    localByResidref(rendition, feedPath, options) ??
    resolveImageRef(feedPath, attr(rendition, 'href'), true, `${feedPath}: ${label}`);
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
  const wire = newsmlWireFields(newsItem); // rights, embargo, pubStatus
  if (wire) item.wire = wire;
  if (resolved.error) item.error = resolved.error;
  return item;
}

const REMOTE = /^https?:\/\//i;

/** The rendition's file beside a local feed, named by its residref (as sent, or with `:` and `/` as `_`), when it exists. */
function localByResidref(
  rendition: XmlElement | undefined,
  feedPath: string,
  options: NewsmlG2Options,
): ResolvedImage | undefined {
  const residref = attrText(rendition, 'residref');
  const href = attrText(rendition, 'href');
  if (
    !options.localFile ||
    residref === undefined ||
    REMOTE.test(feedPath) ||
    (href !== undefined && !REMOTE.test(href))
  )
    return undefined;
  for (const name of new Set([residref, residref.replace(/[:/\\]/g, '_')])) {
    if (name.includes('/') || name.includes('\\') || name.startsWith('.')) continue;
    const local = resolveImageRef(feedPath, name, false, feedPath);
    if (local.image !== null && !local.error && options.localFile(local.image)) return local;
  }
  return undefined;
}

const GEO_TYPE = /^(?:cpttype:5|cpnat:geoarea|cpnat:poi|loctype:|geoprop:)/i;

/**
 * The concept that says where the photo was taken: the first `located` that names a place, else
 * (Reuters) the first `subject` whose type or facet is geographic (cptType:5, cpnat:geoArea,
 * cpnat:poi, loctype:*).
 */
function pickLocation(contentMeta: XmlElement | undefined, concepts: ConceptIndex): XmlElement | undefined {
  const located = childElements(contentMeta, 'located');
  const named = located.find((l) => Object.keys(readPlace(l, concepts)).length > 0);
  if (named) return named;
  if (located.length > 0) return located[0];
  return childElements(contentMeta, 'subject').find((s) => {
    const codes = [attr(s, 'type') ?? '', ...childElements(s, 'facet').map((f) => attr(f, 'qcode') ?? '')];
    if (!codes.some((c) => GEO_TYPE.test(c.trim()))) return false;
    return Object.keys(readPlace(s, concepts)).length > 0;
  });
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
  return childElements(contentMeta, 'by')
    .map((by) => text(by))
    .filter(isString);
}

function readSource(contentMeta: XmlElement | undefined): string | undefined {
  if (!contentMeta) return undefined;
  const sources = childElements(contentMeta, 'infoSource');
  // cRole:source (IPTC), isrol:contentSource (dpa); not the original provider.
  const byRole = sources.find(
    (s) => roles(s).some((r) => r === 'source' || r === 'contentsource') && conceptName(s) !== undefined,
  );
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
  const writer = childElements(contentMeta, 'contributor').find((c) =>
    roles(c).some((role) => role.includes('writer')),
  );
  return conceptName(writer);
}

function readKeywords(contentMeta: XmlElement | undefined): string[] {
  if (!contentMeta) return [];
  const words = [
    ...childElements(contentMeta, 'keyword').map((k) => text(k)),
    // Subjects sent only as codes (medtop:20000849) are not words a user searches for.
    // Geographic subjects (Reuters' cptType:5 places) are the location, not keywords.
    ...childElements(contentMeta, 'subject')
      .filter((s) => !GEO_TYPE.test((attr(s, 'type') ?? '').trim()))
      .map((s) => text(firstChild(s, 'name'))),
  ].filter(isString);
  return [...new Set(words)];
}

/** Image renditions that can be fetched or read: remoteContent with an href and an image (or no) content type. */
function imageRenditions(newsItem: XmlElement): XmlElement[] {
  return childElements(firstChild(newsItem, 'contentSet'), 'remoteContent').filter((rc) => {
    const type = attr(rc, 'contenttype');
    return attrText(rc, 'href') !== undefined && (type === undefined || type.trim().toLowerCase().startsWith('image/'));
  });
}

const HIGH_RENDITION = /^(?:highres|hires|original|print|baseimage|highdef|full|master)\b/;
const LOW_RENDITION = /^(?:thumb|thumbnail|preview|viewimage|web|small|lowres|lowdef|icon)\b/;

/**
 * rnd:highRes / original / Reuters' rend:baseImage when the provider marks one, else the
 * rendition with the most pixels, then the largest file; a thumbnail or preview only when there
 * is nothing else (Reuters sends BASEIMAGE, VIEWIMAGE and THUMBNAIL of each picture).
 */
function pickRendition(newsItem: XmlElement): XmlElement | undefined {
  const renditions = imageRenditions(newsItem);
  const name = (rc: XmlElement): string => (qcodeCode(attr(rc, 'rendition')) ?? '').trim().toLowerCase();
  const rank = (rc: XmlElement): number => (HIGH_RENDITION.test(name(rc)) ? 2 : LOW_RENDITION.test(name(rc)) ? 0 : 1);
  const num = (rc: XmlElement, attrName: string): number => {
    const value = Number(attr(rc, attrName));
    return Number.isFinite(value) && value > 0 ? value : 0;
  };
  const better = (rc: XmlElement, best: XmlElement): boolean => {
    const high = Number(rank(rc) === 2) - Number(rank(best) === 2);
    if (high !== 0) return high > 0;
    const pixels = num(rc, 'width') * num(rc, 'height') - num(best, 'width') * num(best, 'height');
    if (pixels !== 0) return pixels > 0;
    const size = num(rc, 'size') - num(best, 'size');
    if (size !== 0) return size > 0;
    return rank(rc) > rank(best);
  };
  let best: XmlElement | undefined;
  for (const rc of renditions) if (!best || better(rc, best)) best = rc;
  return best;
}
