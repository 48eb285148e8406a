import type { WireFields } from '../../../schemas/feedItem';
import type { SourcedText } from '../../../schemas/rights';
import { compact, isString } from './fields';
import { attr, attrText, childElements, firstChild, rawText, text, type XmlElement } from './xmlTree';

/**
 * The rights, release and status fields of a wire item that IPTC has no field for
 * (docs/RIGHTS.md "What the wiring passes in"), read as received. Undefined when the item has none.
 */

function texts(source: SourcedText['source'], values: Array<string | undefined>): SourcedText[] {
  return values.filter(isString).map((t) => ({ source, text: t }));
}

function orUndefined<T extends object>(value: T): T | undefined {
  const c = compact(value);
  return Object.keys(c).length > 0 ? c : undefined;
}

/** NewsML-G2 newsItem: itemMeta pubStatus, embargoed, signal, edNote; rightsInfo usageTerms, copyright; versionCreated. */
export function newsmlWireFields(newsItem: XmlElement): WireFields | undefined {
  const itemMeta = firstChild(newsItem, 'itemMeta');
  const rights = childElements(newsItem, 'rightsInfo');
  const embargoedEl = firstChild(itemMeta, 'embargoed');
  const signals = childElements(itemMeta, 'signal')
    .map((s) => attrText(s, 'qcode'))
    .filter(isString);
  const all: SourcedText[] = [
    ...texts(
      'newsml:edNote',
      childElements(itemMeta, 'edNote').map((e) => text(e)),
    ),
    ...texts(
      'newsml:usageTerms',
      rights.flatMap((r) => childElements(r, 'usageTerms').map((u) => text(u))),
    ),
    ...texts(
      'newsml:copyrightNotice',
      rights.flatMap((r) => childElements(r, 'copyrightNotice').map((u) => text(u))),
    ),
    ...texts(
      'newsml:copyrightHolder',
      rights
        .map((r) => firstChild(r, 'copyrightHolder'))
        .map((h) => text(firstChild(h, 'name')) ?? attrText(h, 'literal')),
    ),
  ];
  const newsml = orUndefined({
    guid: attrText(newsItem, 'guid'),
    version: attrText(newsItem, 'version'),
    pubStatus: attrText(firstChild(itemMeta, 'pubStatus'), 'qcode'),
    // present and empty: embargoed until further notice
    embargoed: embargoedEl ? rawText(embargoedEl).trim() : undefined,
    signals: signals.length > 0 ? signals : undefined,
  });
  return orUndefined({
    texts: all.length > 0 ? all : undefined,
    newsml,
    sent: text(firstChild(itemMeta, 'versionCreated')) ?? text(firstChild(itemMeta, 'firstCreated')),
  });
}

/** NITF docdata: management-status (and of the document it names), date.release/expire, doc.rights, doc.copyright, ed-msg. */
export function nitfWireFields(docdata: XmlElement | undefined): WireFields | undefined {
  if (!docdata) return undefined;
  const docRights = childElements(docdata, 'doc.rights');
  // doc.rights carries its terms as attributes: kept as "name: value" lines, as the rules read them
  const rightsText = docRights
    .map((r) =>
      Object.entries(r.attrs ?? {})
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n'),
    )
    .filter((t) => t !== '');
  const copyright = firstChild(docdata, 'doc.copyright');
  const copyrightText = [attr(copyright, 'year'), attr(copyright, 'holder')].filter(isString).join(' ');
  const all: SourcedText[] = [
    ...texts('nitf:ed-msg', [attrText(firstChild(docdata, 'ed-msg'), 'info')]),
    ...texts('nitf:doc.rights', rightsText),
    ...texts('nitf:doc.copyright', [copyrightText || undefined]),
  ];
  const nitf = orUndefined({
    docId: attrText(firstChild(docdata, 'doc-id'), 'id-string'),
    managementStatus: attrText(docdata, 'management-status'),
    managementDocIdref: attrText(docdata, 'management-doc-idref'),
    managementIdrefStatus: attrText(docdata, 'management-idref-status'),
    dateRelease: attrText(firstChild(docdata, 'date.release'), 'norm'),
    dateExpire: attrText(firstChild(docdata, 'date.expire'), 'norm'),
  });
  return orUndefined({
    texts: all.length > 0 ? all : undefined,
    nitf,
    sent: attrText(firstChild(docdata, 'date.issue'), 'norm'),
  });
}
