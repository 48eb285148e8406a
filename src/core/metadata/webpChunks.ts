/** WebP (RIFF) metadata chunks: "EXIF" and "XMP ". */
export interface WebpMetadataBlocks {
  /** The XMP chunks' bytes: decoded by the caller, within the file's metadata budget. */
  xmp: Uint8Array[];
  exif: Uint8Array[];
  warnings: string[];
}

export function isWebp(buf: Uint8Array): boolean {
  return (
    buf.length >= 12 &&
    Buffer.from(buf.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(buf.subarray(8, 12)).toString('latin1') === 'WEBP'
  );
}

export function readWebpChunks(buf: Uint8Array): WebpMetadataBlocks {
  const out: WebpMetadataBlocks = { xmp: [], exif: [], warnings: [] };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 12;
  while (pos + 8 <= buf.length) {
    const type = Buffer.from(buf.subarray(pos, pos + 4)).toString('latin1');
    const len = view.getUint32(pos + 4, true);
    const start = pos + 8;
    if (start + len > buf.length) {
      out.warnings.push(
        `WebP: chunk ${JSON.stringify(type)} at byte ${pos} is cut off (file truncated); metadata after it is not read`,
      );
      break;
    }
    const data = buf.subarray(start, start + len);
    if (type === 'XMP ') out.xmp.push(data);
    else if (type === 'EXIF') out.exif.push(data);
    pos = start + len + (len & 1);
  }
  return out;
}
