import { InputError } from '../../errors';
import { detectXmlFlavor } from './detectXmlFlavor';
import { readNewsmlG2, type NewsmlG2Options } from './newsmlG2';
import { readNewsml12 } from './newsml12';
import { readNitf } from './nitf';
import { parseXmlSafely } from './safeXml';
import type { WireXmlResult } from './wireXmlResult';

/**
 * Parse a feed that is XML of some kind: NewsML-G2, NewsML 1.2 or NITF by root element. For any other
 * XML the safe parser still runs first, so a hostile or broken document is reported as
 * XML_ENTITY_REFUSED / FEED_MALFORMED rather than as merely unknown. A document of only
 * non-picture items (text, video, a package) is a valid feed of no items; they come back in
 * `skipped`.
 */
export function parseWireXml(text: string, feedPath: string, options: NewsmlG2Options = {}): WireXmlResult {
  const flavor = detectXmlFlavor(text);
  if (flavor === 'newsml-g2') return readNewsmlG2(text, feedPath, options);
  if (flavor === 'nitf') return readNitf(text, feedPath);
  if (flavor === 'newsml-1.2') return readNewsml12(text, feedPath, options);
  const root = parseXmlSafely(text, feedPath);
  throw new InputError(
    'FEED_UNKNOWN_FORMAT',
    `${feedPath}: XML with root element <${root.name}> is neither NewsML-G2, NewsML 1.2 nor NITF`,
  );
}
