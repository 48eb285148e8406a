import { readMetadataBlocks, readXmpFields } from '../../../../src/core/metadata';
import { xmpPacket } from './helpers';

describe('readXmpFields', () => {
  it('maps the IPTC core properties to our fields', () => {
    const xml = xmpPacket(`
      <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Caption</rdf:li></rdf:Alt></dc:description>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">OBJECT</rdf:li></rdf:Alt></dc:title>
      <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">© Agency</rdf:li></rdf:Alt></dc:rights>
      <dc:creator><rdf:Seq><rdf:li>Ann One</rdf:li><rdf:li>Bob Two</rdf:li></rdf:Seq></dc:creator>
      <dc:subject><rdf:Bag><rdf:li>k1</rdf:li><rdf:li>k2</rdf:li></rdf:Bag></dc:subject>
      <photoshop:Headline>Head</photoshop:Headline>
      <photoshop:AuthorsPosition>Staff</photoshop:AuthorsPosition>
      <photoshop:Credit>Credit</photoshop:Credit>
      <photoshop:Source>Source</photoshop:Source>
      <photoshop:DateCreated>2015-01-22T10:00:00Z</photoshop:DateCreated>
      <photoshop:City>City</photoshop:City>
      <photoshop:State>State</photoshop:State>
      <photoshop:Country>Country</photoshop:Country>
      <photoshop:TransmissionReference>JOB1</photoshop:TransmissionReference>
      <photoshop:Instructions>Embargo</photoshop:Instructions>
      <photoshop:CaptionWriter>ed</photoshop:CaptionWriter>
      <Iptc4xmpCore:Location>Stadium</Iptc4xmpCore:Location>
      <Iptc4xmpCore:CountryCode>GBR</Iptc4xmpCore:CountryCode>`);
    expect(readXmpFields(xml)).toEqual({
      caption: 'Caption',
      headline: 'Head',
      byline: ['Ann One', 'Bob Two'],
      bylineTitle: ['Staff'],
      credit: 'Credit',
      source: 'Source',
      copyright: '© Agency',
      dateCreated: '2015-01-22T10:00:00Z',
      city: 'City',
      sublocation: 'Stadium',
      state: 'State',
      country: 'Country',
      countryCode: 'GBR',
      transmissionReference: 'JOB1',
      objectName: 'OBJECT',
      keywords: ['k1', 'k2'],
      specialInstructions: 'Embargo',
      writer: 'ed',
    });
  });

  it('reads the shorthand attribute form and a plain text where a lang-alt belongs', () => {
    const xml = xmpPacket('<dc:title>82486881</dc:title>').replace(
      'rdf:about=""',
      'rdf:about="" photoshop:City="London" photoshop:Credit="A &amp; B"',
    );
    expect(readXmpFields(xml)).toEqual({ city: 'London', credit: 'A & B', objectName: '82486881' });
  });

  it('takes x-default wherever it is in the Alt, else the first language', () => {
    const pick = (lis: string) =>
      readXmpFields(xmpPacket(`<dc:description><rdf:Alt>${lis}</rdf:Alt></dc:description>`)).caption;
    expect(pick('<rdf:li xml:lang="fr">Légende</rdf:li><rdf:li xml:lang="x-default">Caption</rdf:li>')).toBe('Caption');
    expect(pick('<rdf:li xml:lang="de">Bildunterschrift</rdf:li><rdf:li xml:lang="fr">Légende</rdf:li>')).toBe(
      'Bildunterschrift',
    );
  });

  it('matches properties by namespace URI, not by prefix', () => {
    const other = xmpPacket(
      '<ps:Credit>Via another prefix</ps:Credit>',
      'xmlns:ps="http://ns.adobe.com/photoshop/1.0/"',
    );
    expect(readXmpFields(other).credit).toBe('Via another prefix');
    const wrong = xmpPacket(
      '<fake:Credit>Not photoshop</fake:Credit>',
      'xmlns:fake="http://example.com/not-photoshop/"',
    );
    expect(readXmpFields(wrong).credit).toBeUndefined();
  });

  it('keeps whitespace, decodes entities and CDATA, leaves unknown entities alone', () => {
    const xml = xmpPacket(
      '<photoshop:Headline>  A &lt;b&gt; &#169; &#xE9; &nbsp; </photoshop:Headline><photoshop:Source><![CDATA[x &amp; <y>]]></photoshop:Source>',
    );
    const r = readXmpFields(xml);
    expect(r.headline).toBe('  A <b> © é &nbsp; ');
    expect(r.source).toBe('x &amp; <y>');
  });

  it('leaves out empty values (Getty writes empty bags and attributes)', () => {
    const xml = xmpPacket(
      '<dc:subject><rdf:Bag /></dc:subject><photoshop:Instructions></photoshop:Instructions>',
    ).replace('rdf:about=""', 'rdf:about="" Iptc4xmpCore:Location=""');
    expect(readXmpFields(xml)).toEqual({});
  });

  it('normalizes XMP dates as writers bend them', () => {
    const date = (v: string) =>
      readXmpFields(xmpPacket(`<photoshop:DateCreated>${v}</photoshop:DateCreated>`)).dateCreated;
    expect(date('2015-01-22T00:00:00 +00:00')).toBe('2015-01-22T00:00:00+00:00');
    expect(date('2007-04-19T11:03:15-0600')).toBe('2007-04-19T11:03:15-06:00');
    expect(date('2008-08-20')).toBe('2008-08-20');
    expect(date('2008')).toBe('2008');
    expect(date('yesterday')).toBeUndefined();
  });

  it('never expands a DOCTYPE entity and reports the refusal', () => {
    const evil = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY lol "LOLLOLLOL">]>\n${xmpPacket('<photoshop:Credit>&lol;</photoshop:Credit>')}`;
    expect(readXmpFields(evil)).toEqual({});
    const r = readMetadataBlocks({ xmp: evil });
    expect(r.iptc).toEqual({});
    expect(r.warnings.join()).toMatch(/XML_ENTITY_REFUSED/);
  });

  it('does not throw on text that is not XMP', () => {
    expect(readXmpFields('')).toEqual({});
    expect(readXmpFields('<<<not xml')).toEqual({});
    expect(readXmpFields('<a><b></a>')).toEqual({});
    expect(readMetadataBlocks({ xmp: 'plain text' }).warnings.join()).toMatch(/rdf:RDF/);
  });
});

describe('readMetadataBlocks (blocks from another decoder)', () => {
  const xml = xmpPacket('<photoshop:Credit>Crédit</photoshop:Credit>');

  it.each([
    ['UTF-8', Buffer.from(xml, 'utf8')],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml, 'utf8')])],
    ['UTF-16LE', Buffer.from(xml, 'utf16le')],
    ['UTF-16BE', Buffer.from(xml, 'utf16le').swap16()],
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')])],
  ])('decodes %s XMP bytes', (_label, bytes) => {
    expect(readMetadataBlocks({ xmp: bytes }).iptc).toEqual({ credit: 'Crédit' });
  });
});
