import { InputError } from '../../errors';
import type { FeedItem, IptcFields } from '../../../schemas/feedItem';
import { cityFromDateline } from './datelineCity';
import { compact, isString, nonEmpty, oneLine } from './fields';
import type { NewsmlG2Options } from './newsmlG2';
import { normalizeNitfDate } from './nitf';
import { resolveImageRef } from './resolveImageRef';
import { parseXmlSafely } from './safeXml';
import type { SkippedItem, WireXmlResult } from './wireXmlResult';
import { attr, attrText, childElements, descendants, firstChild, path, text, type XmlElement } from './xmlTree';

/** Media types of a ContentItem that hold a picture (MediaType FormalName, any case). */
const PICTURE_MEDIA = new Set(['photo', 'image', 'picture', 'graphic', 'graphics']);
/** Roles of a component that is one rendition (size) of a picture, not a picture of its own. */
const RENDITION_ROLES = new Set([
  'main',
  'preview',
  'quicklook',
  'thumbnail',
  'highdef',
  'hidef',
  'baseimage',
  'viewimage',
  'original',
  'full',
  'large',
]);

/**
 * NewsML 1.2 (AFP, EFE, Belga, Kyodo and other national agencies) → one FeedItem per picture.
 *
 * A NewsItem's components nest (NewsComponent in NewsComponent); a picture is the component that
 * holds ContentItems whose MediaType is Photo (or Image/Graphic, or whose MimeType is image/*),
 * either itself or through child components whose Role marks them as renditions of it (EFE's
 * Role "Main" beside a Role "Caption"; AFP's Preview/Quicklook/HighDef). Of its renditions the one
 * with the most pixels (Characteristics Width x Height) is taken; a file named by a `Filename`
 * property that exists beside a local feed wins over a remote Href, as Reuters' residref does.
 *
 * Caption: the DataContent of the picture's Role "Caption" component (NITF body.content, or plain
 * text), kept as sent. Other fields come from the nearest NewsLines/metadata walking up from the
 * picture to the item: HeadLine, CreditLine, CopyrightLine, ByLine (else the Creator party),
 * SlugLine (else the NameLabel) as the slug, DateLine (its city when the Location gives none),
 * Location City/CountryArea/Country, Keyword properties and KeywordLines, DateLineDate (else
 * FirstCreated) as the date; the id is the PublicIdentifier (with the component's Euid/Duid when an
 * item holds several pictures), the version its RevisionId, the priority its Urgency.
 * Items without pictures (text, video, audio) are counted as skipped by kind.
 */
export function readNewsml12(xml: string, feedPath: string, options: NewsmlG2Options = {}): WireXmlResult {
  const root = parseXmlSafely(xml, feedPath);
  if (root.local !== 'NewsML')
    throw new InputError(
      'FEED_UNKNOWN_FORMAT',
      `${feedPath}: root element <${root.name}> is not a NewsML 1.2 document`,
    );
  const items: FeedItem[] = [];
  const skipped: SkippedItem[] = [];
  const envelopePriority = attrText(path(root, 'NewsEnvelope', 'Priority'), 'FormalName');

  descendants(root, 'NewsItem').forEach((newsItem, n) => {
    const id = readIdentification(newsItem);
    const label = `NewsItem ${n + 1}${id.guid ? ` (${id.guid})` : ''} at line ${newsItem.line}`;
    const pictures = findPictures(newsItem);
    if (pictures.length === 0) {
      const kind = mediaKindOf(newsItem);
      skipped.push({ kind, label, reason: `a ${kind} item, not a picture` });
      return;
    }
    const management = firstChild(newsItem, 'NewsManagement');
    const urgency = attrText(firstChild(management, 'Urgency'), 'FormalName') ?? envelopePriority;
    const firstCreated = text(firstChild(management, 'FirstCreated'));
    const usedParts = new Set<string>();
    pictures.forEach((picture, i) => {
      const position = items.length;
      const itemLabel = `${feedPath}: ${label}: picture ${i + 1} at line ${picture.component.line}`;
      const caption = captionOf(picture.component);
      const chain = ancestorsWithin(newsItem, picture.component);
      const iptc: IptcFields = compact({
        ...fieldsFromChain(chain),
        caption,
        urgency,
      });
      iptc.dateCreated ??= normalizeNitfDate(firstCreated);
      if (iptc.city === undefined)
        iptc.city = cityFromDateline(nearest(chain, (c) => text(path(c, 'NewsLines', 'DateLine'))));
      const resolved = resolveImage(picture.renditions, feedPath, options, itemLabel);
      const item: FeedItem = {
        source: { file: feedPath, position, line: picture.component.line, format: 'newsml-1.2' },
        captionRaw: caption ?? '',
        iptc: compact(iptc),
        image: resolved.image,
      };
      // EFE repeats a picture's Euid/Duid when it sends the same photo from two providers: keep the records apart.
      let part = attrText(picture.component, 'Euid') ?? attrText(picture.component, 'Duid') ?? String(i + 1);
      if (usedParts.has(part)) part = `${part}-${i + 1}`;
      usedParts.add(part);
      const guid = id.guid ?? id.itemId;
      if (guid !== undefined) item.agencyId = pictures.length === 1 ? guid : `${guid}#${part}`;
      if (id.revision !== undefined) item.agencyVersion = id.revision;
      const sent = text(firstChild(management, 'ThisRevisionCreated'));
      const status = attrText(firstChild(management, 'Status'), 'FormalName');
      if (sent !== undefined || status !== undefined || guid !== undefined) {
        item.wire = {
          ...(sent !== undefined ? { sent: normalizeNitfDate(sent) } : {}),
          newsml: compact({ guid, version: id.revision, pubStatus: status?.toLowerCase() }),
        };
      }
      if (resolved.error) item.error = resolved.error;
      items.push(item);
    });
  });
  return { items, skipped };
}

interface Picture {
  /** The component that is the picture (its metadata and its caption live here or above). */
  component: XmlElement;
  renditions: XmlElement[];
}

function readIdentification(newsItem: XmlElement): { guid?: string; itemId?: string; revision?: string } {
  const ident = path(newsItem, 'Identification', 'NewsIdentifier');
  return {
    guid: text(firstChild(ident, 'PublicIdentifier')),
    itemId: text(firstChild(ident, 'NewsItemId')),
    revision: text(firstChild(ident, 'RevisionId')),
  };
}

function isPictureContent(ci: XmlElement): boolean {
  const media = attrText(firstChild(ci, 'MediaType'), 'FormalName')?.toLowerCase();
  const mime = attrText(firstChild(ci, 'MimeType'), 'FormalName')?.toLowerCase();
  return (media !== undefined && PICTURE_MEDIA.has(media)) || (mime?.startsWith('image/') ?? false);
}

const roleOf = (c: XmlElement): string | undefined => attrText(firstChild(c, 'Role'), 'FormalName')?.toLowerCase();

/** The pictures of a NewsItem in document order, each with the ContentItems that are its renditions. */
function findPictures(newsItem: XmlElement): Picture[] {
  const byComponent = new Map<XmlElement, XmlElement[]>();
  const order: XmlElement[] = [];
  const walk = (component: XmlElement, parent: XmlElement | undefined): void => {
    const own = childElements(component, 'ContentItem').filter(isPictureContent);
    if (own.length > 0) {
      // A rendition component (Role Main/Preview/...) without a heading of its own belongs to its parent picture.
      const role = roleOf(component);
      const isRendition =
        parent !== undefined && role !== undefined && RENDITION_ROLES.has(role) && !firstChild(component, 'NewsLines');
      const owner = isRendition ? parent! : component;
      if (!byComponent.has(owner)) {
        byComponent.set(owner, []);
        order.push(owner);
      }
      byComponent.get(owner)!.push(...own);
    }
    for (const child of childElements(component, 'NewsComponent')) walk(child, component);
  };
  for (const top of childElements(newsItem, 'NewsComponent')) walk(top, undefined);
  return order.map((component) => ({ component, renditions: byComponent.get(component)! }));
}

/** What a NewsItem without pictures holds, for the skipped count: text, video, audio ... */
function mediaKindOf(newsItem: XmlElement): string {
  const media = descendants(newsItem, 'MediaType')
    .map((m) => attrText(m, 'FormalName')?.toLowerCase())
    .filter(isString);
  for (const kind of ['video', 'audio', 'text']) if (media.includes(kind)) return kind;
  return media[0] ?? 'text';
}

/** The caption: the DataContent of the picture's Role "Caption" component, as sent. */
function captionOf(component: XmlElement): string | undefined {
  const captionComponent = childElements(component, 'NewsComponent').find((c) => roleOf(c) === 'caption');
  const holder = captionComponent ?? component;
  for (const ci of childElements(holder, 'ContentItem')) {
    if (isPictureContent(ci)) continue;
    const data = firstChild(ci, 'DataContent');
    if (!data) continue;
    const content = descendants(data, 'body.content')[0];
    const value = text(content ?? data);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The components from the picture up to the item's top component, nearest first. */
function ancestorsWithin(newsItem: XmlElement, target: XmlElement): XmlElement[] {
  const trail: XmlElement[] = [];
  const visit = (component: XmlElement): boolean => {
    if (component === target) {
      trail.push(component);
      return true;
    }
    for (const child of childElements(component, 'NewsComponent')) {
      if (visit(child)) {
        trail.push(component);
        return true;
      }
    }
    return false;
  };
  for (const top of childElements(newsItem, 'NewsComponent')) if (visit(top)) break;
  return trail;
}

function nearest<T>(chain: XmlElement[], pick: (c: XmlElement) => T | undefined): T | undefined {
  for (const c of chain) {
    const value = pick(c);
    if (value !== undefined) return value;
  }
  return undefined;
}

const locationProperty = (c: XmlElement, name: string): string | undefined => {
  for (const loc of childElements(firstChild(c, 'DescriptiveMetadata'), 'Location')) {
    const prop = childElements(loc, 'Property').find(
      (p) => attr(p, 'FormalName')?.toLowerCase() === name.toLowerCase(),
    );
    const value = attrText(prop, 'Value');
    if (value !== undefined) return value;
  }
  return undefined;
};

const partyName = (c: XmlElement, role: string): string | undefined => {
  const party = path(c, 'AdministrativeMetadata', role, 'Party');
  return attrText(party, 'FormalName')?.replace(/\s+/g, ' ');
};

function fieldsFromChain(chain: XmlElement[]): IptcFields {
  const line = (name: string) => nearest(chain, (c) => text(path(c, 'NewsLines', name)));
  const keywords = nearest(chain, (c) => {
    const fromLines = childElements(firstChild(c, 'NewsLines'), 'KeywordLine')
      .map((k) => text(k))
      .filter(isString);
    const fromProps = childElements(firstChild(c, 'DescriptiveMetadata'), 'Property')
      .filter((p) => attr(p, 'FormalName')?.toLowerCase() === 'keyword')
      .map((p) => attrText(p, 'Value'))
      .filter(isString);
    return nonEmpty([...fromLines, ...fromProps]);
  });
  const byline = line('ByLine') ?? nearest(chain, (c) => partyName(c, 'Creator'));
  const country = nearest(chain, (c) => locationProperty(c, 'Country'));
  return {
    headline: oneLine(line('HeadLine')),
    credit: line('CreditLine'),
    copyright: line('CopyrightLine'),
    byline: byline ? [byline] : undefined,
    source: nearest(chain, (c) => partyName(c, 'Source') ?? partyName(c, 'Provider')),
    objectName: line('SlugLine'),
    city: nearest(chain, (c) => locationProperty(c, 'City')),
    state: nearest(chain, (c) => locationProperty(c, 'CountryArea')),
    sublocation: nearest(chain, (c) => locationProperty(c, 'SubLocation')),
    // AFP and Kyodo write ISO 3166 alpha-3 codes ("FRA"): a code, not a name.
    ...(country && /^[A-Z]{3}$/.test(country) ? { countryCode: country } : { country }),
    keywords,
    dateCreated: normalizeNitfDate(nearest(chain, (c) => text(path(c, 'DescriptiveMetadata', 'DateLineDate')))),
  };
}

const pixels = (ci: XmlElement): number => {
  const props = childElements(firstChild(ci, 'Characteristics'), 'Property');
  const value = (name: string) =>
    Number(
      attr(
        props.find((p) => attr(p, 'FormalName')?.toLowerCase() === name),
        'Value',
      ),
    );
  const n = value('width') * value('height');
  return Number.isFinite(n) ? n : 0;
};

const fileNameOf = (ci: XmlElement): string | undefined => {
  const prop = childElements(firstChild(ci, 'Characteristics'), 'Property').find((p) =>
    /filename$/i.test(attr(p, 'FormalName') ?? ''),
  );
  return attrText(prop, 'Value');
};

function resolveImage(
  renditions: XmlElement[],
  feedPath: string,
  options: NewsmlG2Options,
  label: string,
): ReturnType<typeof resolveImageRef> {
  let best: XmlElement | undefined;
  for (const ci of renditions) if (!best || pixels(ci) > pixels(best)) best = ci;
  if (!best) return { image: null };
  const name = fileNameOf(best);
  if (name !== undefined && options.localFile) {
    const local = resolveImageRef(feedPath, name, false, label);
    if (local.image && options.localFile(local.image)) return local;
  }
  return resolveImageRef(feedPath, attrText(best, 'Href'), true, label);
}
