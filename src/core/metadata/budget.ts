import type { WarningCode } from '../errors';

/**
 * What the metadata readers may spend on one photo. A 166 KB PNG with ten compressed XMP chunks,
 * each just under the old per-chunk inflate cap of 16 MB, took a worker to 2.66 GB RSS and 23.7 s
 * (in-process on this box: 1.93 GB and 55 s); parsing XMP costs about 60 times its size in
 * memory (2 MB of `<rdf:li>` items: 1 s and 124 MB RSS; 4 MB: 2.2 s and 167 MB). Real packets are
 * a few KB, Photoshop's with history and extended XMP some hundred KB. Over a budget the photo is
 * kept and what is left of its metadata is skipped, with a METADATA_SKIPPED warning naming the
 * block (the pipeline adds the file). docs/RECORDS.md "Input limits".
 */
export const METADATA_LIMITS = {
  /** Bytes all compressed text chunks of one file may inflate to, together. */
  inflatedBytes: 16 * 1024 * 1024,
  /** tEXt/zTXt/iTXt chunks of one PNG that are read; the rest are skipped. */
  textChunks: 64,
  /** One XMP packet's size (UTF-16 code units, about bytes) before it is parsed. */
  xmpPacketChars: 512 * 1024,
  /** All XMP packets of one file together (several APP1 segments, chunks, extended XMP). */
  xmpTotalChars: 1024 * 1024,
} as const;

export type MetadataLimits = { [K in keyof typeof METADATA_LIMITS]: number };

/** The warning code of metadata skipped over a budget (src/core/errors.ts, WARNING_CODES). */
export const METADATA_SKIPPED: WarningCode = 'METADATA_SKIPPED';

/** What is left of one file's budgets; each reader takes from it as it goes. */
export class MetadataBudget {
  private inflatedLeft: number;
  private textChunksLeft: number;
  private xmpLeft: number;
  private skippedChunks = 0;
  readonly limits: MetadataLimits;

  constructor(limits: Partial<MetadataLimits> = {}) {
    this.limits = { ...METADATA_LIMITS, ...limits };
    this.inflatedLeft = this.limits.inflatedBytes;
    this.textChunksLeft = this.limits.textChunks;
    this.xmpLeft = this.limits.xmpTotalChars;
  }

  /** The most the next inflate may produce (0: the budget is spent). */
  inflateAllowance(): number {
    return this.inflatedLeft;
  }

  spendInflated(n: number): void {
    this.inflatedLeft = Math.max(0, this.inflatedLeft - n);
  }

  /** One more text chunk: false once the cap is reached (the chunk is counted as skipped). */
  takeTextChunk(): boolean {
    if (this.textChunksLeft > 0) {
      this.textChunksLeft--;
      return true;
    }
    this.skippedChunks++;
    return false;
  }

  /** Text chunks skipped over the cap: one warning for all of them. */
  skippedTextChunks(): number {
    return this.skippedChunks;
  }

  /**
   * May a packet of `chars` be parsed? Undefined if so (and it is taken from the file's budget);
   * 'total' when the file's XMP budget is spent; else why this packet alone is too big.
   */
  takeXmp(chars: number): string | undefined {
    if (chars > this.limits.xmpPacketChars)
      return `is ${chars} characters, over the cap of ${this.limits.xmpPacketChars} for one XMP packet`;
    if (chars > this.xmpLeft) return 'total';
    this.xmpLeft -= chars;
    return undefined;
  }
}

/** A METADATA_SKIPPED warning: the code first, then where and why. */
export function skippedWarning(where: string, why: string): string {
  return `${METADATA_SKIPPED}: ${where} ${why}; skipped (the photo is kept)`;
}

/**
 * The index just past the end of a packet: after its closing `<?xpacket end="w"?>` (what follows
 * is padding, NULs or junk), else after the last character that is not a NUL. A linear scan: the
 * regex /\0+$/ it replaces tried every position of a NUL run and took 28.6 s on 200,000 NULs
 * followed by one other character.
 */
export function packetEnd(text: string): number {
  for (let at = text.indexOf('<?xpacket'); at >= 0; at = text.indexOf('<?xpacket', at + 9)) {
    const close = closingPi(text, at + 9);
    if (close >= 0) return close;
  }
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0) end--;
  return end;
}

/** `\s+end\s*=\s*["'][rw]?["']\s*?>` from `i`: the index after `?>`, or -1. */
function closingPi(s: string, i: number): number {
  const ws = (k: number) => {
    while (k < s.length && isSpace(s.charCodeAt(k))) k++;
    return k;
  };
  let k = ws(i);
  if (k === i || !s.startsWith('end', k)) return -1;
  k = ws(k + 3);
  if (s[k] !== '=') return -1;
  k = ws(k + 1);
  const q = s[k];
  if (q !== '"' && q !== "'") return -1;
  k++;
  if (s[k] === 'r' || s[k] === 'w') k++;
  if (s[k] !== q) return -1;
  k = ws(k + 1);
  return s.startsWith('?>', k) ? k + 2 : -1;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
