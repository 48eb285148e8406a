import * as fs from 'node:fs';
import * as path from 'node:path';

import { SHARED_DIR } from '../../../helpers/sharedDir';
export { SHARED_DIR };
export const WIRE_IMAGES = path.join(SHARED_DIR, 'fixtures', 'wire-images');

export function wireImageNames(): string[] {
  return fs
    .readdirSync(WIRE_IMAGES)
    .filter((f) => /\.jpe?g$/i.test(f))
    .sort();
}

export function wireImage(name: string): Buffer {
  return fs.readFileSync(path.join(WIRE_IMAGES, name));
}

/** One raw IIM dataset; strings are written as Latin-1 bytes unless `utf8`. */
export function ds(record: number, dataset: number, value: string | Uint8Array, utf8 = false): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, utf8 ? 'utf8' : 'latin1') : Buffer.from(value);
  return Buffer.concat([Buffer.from([0x1c, record, dataset, bytes.length >> 8, bytes.length & 0xff]), bytes]);
}

export const UTF8_DECLARATION = ds(1, 90, '\x1b%G');

/** A JPEG marker segment with its length. */
export function seg(marker: number, payload: Uint8Array): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** Photoshop IRB resource (8BIM). */
export function irbResource(id: number, data: Uint8Array): Buffer {
  const head = Buffer.alloc(12);
  head.write('8BIM', 0, 'latin1');
  head.writeUInt16BE(id, 4);
  // empty Pascal name padded to 2 bytes (bytes 6-7 stay zero)
  head.writeUInt32BE(data.length, 8);
  return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
}

export function app13(...resources: Buffer[]): Buffer {
  return seg(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), ...resources]));
}

export function xmpApp1(xml: string, encoding: BufferEncoding = 'utf8'): Buffer {
  return seg(
    0xe1,
    Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(xml, encoding)]),
  );
}

/**
 * A JPEG-shaped buffer: SOI, the given segments, a start of scan and some scan bytes. Enough
 * for the metadata reader, which never looks past SOS; not decodable pixels.
 */
export function fakeJpeg(segments: Buffer[], scan: Buffer = Buffer.from([0x12, 0x34, 0xff, 0x00, 0x56])): Buffer {
  const sos = Buffer.from([0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), ...segments, sos, scan, Buffer.from([0xff, 0xd9])]);
}

export function xmpPacket(descriptionBody: string, extraNs = ''): string {
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" ${extraNs}>`,
    descriptionBody,
    '</rdf:Description></rdf:RDF></x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}
