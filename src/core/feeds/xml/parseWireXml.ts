import { InputError } from '../../errors';
import type { FeedItem } from '../../../schemas/feedItem';
import { detectXmlFlavor } from './detectXmlFlavor';
import { parseNewsmlG2 } from './newsmlG2';
import { parseNitf } from './nitf';
import { parseXmlSafely } from './safeXml';

/**
 * Parse a feed that is XML of some kind: NewsML-G2 or NITF by root element. For any other
 * XML the safe parser still runs first, so a hostile or broken document is reported as
 * XML_ENTITY_REFUSED / FEED_MALFORMED rather than as merely unknown.
 */
export function parseWireXml(text: string, feedPath: string): FeedItem[] {
  const flavor = detectXmlFlavor(text);
  if (flavor === 'newsml-g2') return parseNewsmlG2(text, feedPath);
  if (flavor === 'nitf') return parseNitf(text, feedPath);
  const root = parseXmlSafely(text, feedPath);
  throw new InputError(
    'FEED_UNKNOWN_FORMAT',
    `${feedPath}: XML with root element <${root.name}> is neither NewsML-G2 nor NITF`,
  );
}
