import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { detectXmlFlavor } from '../../../../../src/core/feeds/xml/detectXmlFlavor';
import { parseWireXml } from '../../../../../src/core/feeds/xml/parseWireXml';

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/feeds');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

describe('detectXmlFlavor', () => {
  it.each([
    ['newsml-g2-picture.xml', 'newsml-g2'],
    ['nitf-picture.xml', 'nitf'],
    // Hostile files are still recognised, so their parser can refuse them with a precise reason.
    ['xxe.xml', 'newsml-g2'],
    ['billion-laughs.xml', 'nitf'],
  ])('recognises the %s fixture as %s', (name, flavor) => {
    expect(detectXmlFlavor(fixture(name))).toBe(flavor);
  });

  it.each([
    ['a prefixed G2 root', '<g2:newsItem xmlns:g2="http://iptc.org/std/nar/2006-10-01/"/>', 'newsml-g2'],
    ['a G2 packageItem', '<packageItem xmlns="http://iptc.org/std/nar/2006-10-01/"/>', 'newsml-g2'],
    [
      'a newsMessage without namespace',
      '<?xml version="1.0"?><!-- c --><newsMessage><itemSet/></newsMessage>',
      'newsml-g2',
    ],
    ['NITF with its namespace', '<nitf xmlns="http://iptc.org/std/NITF/2006-10-18/"><head/></nitf>', 'nitf'],
    ['a BOM and a DOCTYPE whose literal holds ">"', '\ufeff<!DOCTYPE nitf SYSTEM "a>b.dtd"><nitf/>', 'nitf'],
    ['an internal subset with "]>" inside a comment', '<!DOCTYPE x [ <!-- ]> --> <!ENTITY e "x"> ]><nitf/>', 'nitf'],
    [
      'NewsML 1.2 (no namespace, with or without Version)',
      '<?xml version="1.0"?><NewsML Version="1.2"/>',
      'newsml-1.2',
    ],
    [
      'NewsML 1.x as AFP sends it',
      '<NewsML><Catalog Href="http://www.afp.com/dtd/AFPCatalog.xml"/></NewsML>',
      'newsml-1.2',
    ],
  ])('recognises %s', (_name, xml, flavor) => {
    expect(detectXmlFlavor(xml)).toBe(flavor);
  });

  it.each([
    ['RSS', '<rss version="2.0"><channel/></rss>'],
    ['a newsItem in a foreign namespace', '<newsItem xmlns="urn:other"/>'],
    ['a NewsML root in a foreign namespace', '<NewsML xmlns="urn:other"/>'],
    ['JSON', '{"caption": "x"}'],
    ['gallery text', 'Title line (1 of 3)\nCaption'],
    ['empty text', ''],
    ['an unterminated prolog', '<?xml version="1.0"'],
  ])('returns null for %s', (_name, text) => {
    expect(detectXmlFlavor(text)).toBeNull();
  });
});

describe('parseWireXml', () => {
  it('dispatches by content, not by file name', () => {
    const { items } = parseWireXml(fixture('nitf-picture.xml'), path.join(FIXTURES, 'misnamed.g2.xml'));
    expect(items.map((i) => i.source.format)).toEqual(['nitf']);
  });

  it('reports unknown XML as FEED_UNKNOWN_FORMAT naming the root element', () => {
    expect(() => parseWireXml('<rss><channel/></rss>', 'feed.xml')).toThrow(
      expect.objectContaining({ code: 'FEED_UNKNOWN_FORMAT', message: expect.stringContaining('<rss>') }),
    );
  });

  it('reports hostile unknown XML as XML_ENTITY_REFUSED, not as merely unknown', () => {
    expect(() =>
      parseWireXml('<!DOCTYPE rss [<!ENTITY x SYSTEM "file:///etc/passwd">]><rss>&x;</rss>', 'feed.xml'),
    ).toThrow(expect.objectContaining({ code: 'XML_ENTITY_REFUSED' }));
  });
});
