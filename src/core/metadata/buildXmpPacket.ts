import type { IptcFields } from '../../schemas/feedItem';
import { FIELD_ORDER, NS, XMP_FIELDS, type XmpFieldSpec } from './fieldTables';

const PREFIX: Record<string, string> = { [NS.dc]: 'dc', [NS.photoshop]: 'photoshop', [NS.iptcCore]: 'Iptc4xmpCore' };

/**
 * Serialize fields as a complete XMP packet (the shape Photoshop writes: one rdf:Description,
 * lang-alt for dc:title/description/rights, Seq for dc:creator, Bag for dc:subject).
 * For tests and sample data; real photos keep the XMP their agency wrote.
 */
export function buildXmpPacket(fields: IptcFields): string {
  const props: string[] = [];
  for (const field of FIELD_ORDER) {
    const value = fields[field];
    if (value === undefined) continue;
    const spec = XMP_FIELDS.find((s) => s.field === field) as XmpFieldSpec;
    const name = `${PREFIX[spec.ns]}:${spec.name}`;
    const values = Array.isArray(value) ? value : [value as string];
    if (spec.shape === 'langAlt') {
      props.push(
        `   <${name}><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(values[0] ?? '')}</rdf:li></rdf:Alt></${name}>`,
      );
    } else if (spec.shape === 'list') {
      const container = field === 'byline' ? 'rdf:Seq' : 'rdf:Bag';
      const items = values.map((v) => `<rdf:li>${escapeXml(v)}</rdf:li>`).join('');
      props.push(`   <${name}><${container}>${items}</${container}></${name}>`);
    } else {
      // bylineTitle is a list in IIM but one text in XMP
      props.push(`   <${name}>${escapeXml(values.join(', '))}</${name}>`);
    }
  }
  return xmpPacket(`xmlns:dc="${NS.dc}" xmlns:photoshop="${NS.photoshop}" xmlns:Iptc4xmpCore="${NS.iptcCore}"`, props);
}

/** One rdf:Description holding `props` (lines of XMP properties), wrapped as a whole packet. */
export function xmpPacket(namespaces: string, props: string[]): string {
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ` <rdf:RDF xmlns:rdf="${NS.rdf}">`,
    `  <rdf:Description rdf:about="" ${namespaces}>`,
    ...props,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
