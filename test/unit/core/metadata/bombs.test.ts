import { readImageMetadata, readImageMetadataBySource } from '../../../../src/core/metadata';
import { packetEnd } from '../../../../src/core/metadata/budget';
import { cpuMs } from '../../../helpers/cpuTime';
import {
  jpegManyXmp,
  jpegNulPadding,
  keywordXmp,
  pngDeepNesting,
  pngHugeAttributes,
  pngInflateBomb,
  pngManyChunks,
  pngNulPadding,
  tiffWithXmp,
} from '../../../helpers/metadataBombs';

/**
 * Metadata bombs built from real PNG, JPEG and TIFF bytes (test/helpers/metadataBombs.ts): each is
 * read within the per-file budgets (src/core/metadata/budget.ts), what is over them is skipped with a
 * METADATA_SKIPPED warning, and what is within them is still read. The worker's memory on the same
 * files is measured by test/integration/attacks.metadataBombs.test.ts.
 */
jest.setTimeout(60_000);

const skipped = (w: string[]) => w.filter((x) => x.startsWith('METADATA_SKIPPED:'));

describe('metadata bombs are read within budget', () => {
  it('ten compressed XMP chunks of 16 MB each (the reported 166 KB PNG): one inflated, none parsed, in well under a second of CPU', () => {
    const bomb = pngInflateBomb();
    expect(bomb.length).toBeLessThan(500_000);
    let r!: ReturnType<typeof readImageMetadata>;
    // before: 55 s of CPU and 1.93 GB RSS in this process
    const ms = cpuMs(() => (r = readImageMetadata(bomb)));
    expect(ms).toBeLessThan(5_000);
    // each XMP chunk is inflated no further than a packet may be (4 bytes a character), until the file's 16 MB are spent
    const w = skipped(r.warnings);
    expect(w).toHaveLength(9);
    for (const x of w.slice(0, 8))
      expect(x).toMatch(
        /^METADATA_SKIPPED: PNG iTXt chunk at byte \d+ inflates to more than 2097152 bytes, over the cap of 524288 characters for one XMP packet/,
      );
    expect(w[8]).toMatch(
      /^METADATA_SKIPPED: PNG: 2 compressed text chunk\(s\), the first at PNG iTXt chunk at byte \d+, would inflate past the budget of 16777216 bytes per file/,
    );
    expect(r.iptc.keywords).toBeUndefined();
    expect(r.raw.xmp!.length).toBeLessThan(10_000); // the fixture's own small packet only
  });

  it('text chunks past the cap are skipped with one warning; the budget is per file, across chunks', () => {
    const r = readImageMetadata(pngManyChunks(1_000));
    expect(skipped(r.warnings)).toEqual([
      expect.stringMatching(/^METADATA_SKIPPED: PNG: \d+ text chunk\(s\) are past the cap of 64 text chunks per file/),
    ]);
    // a smaller budget: the 65th chunk is over the inflated total although each chunk alone is small
    const small = readImageMetadata(pngManyChunks(40), { inflatedBytes: 100_000 });
    expect(skipped(small.warnings)).toEqual([
      expect.stringMatching(
        /PNG: \d+ compressed text chunk\(s\), .* would inflate past the budget of 100000 bytes per file/,
      ),
    ]);
  });

  it('XMP padded with NULs and no closing PI is trimmed by a linear scan (the regex took 28.6 s on 200,000 NULs)', () => {
    let r!: ReturnType<typeof readImageMetadata>;
    const ms = cpuMs(() => (r = readImageMetadata(pngNulPadding(400_000))));
    expect(ms).toBeLessThan(3_000);
    expect(r.iptc.credit).toBe('Padded Credit');
    let jpeg!: ReturnType<typeof readImageMetadataBySource>;
    expect(cpuMs(() => (jpeg = readImageMetadataBySource(jpegNulPadding(20))))).toBeLessThan(3_000);
    expect(jpeg.bySource.xmp.credit).toBe('Nul Credit');
    // a packet with its closing PI ends there, whatever follows
    const text = `<x>${'\0'.repeat(500_000)}<?xpacket end = 'w' ?>${'\0'.repeat(500_000)}y`;
    expect(cpuMs(() => expect(packetEnd(text)).toBe(3 + 500_000 + 22))).toBeLessThan(1_000);
  });

  it('a JPEG with 40 XMP segments and a 5 MB extended XMP: packets within the file budget are read, the rest skipped', () => {
    const r = readImageMetadataBySource(jpegManyXmp(40, 5 * 1024 * 1024));
    expect(r.bySource.xmp.credit).toBe('Jpeg Credit');
    const w = skipped(r.warnings);
    expect(
      w.filter((x) =>
        /^METADATA_SKIPPED: XMP packets \d+ to \d+ of \d+ \(\d+\) would take the file's XMP past its budget of 1048576/.test(
          x,
        ),
      ),
    ).toHaveLength(1);
    expect(w).toContainEqual(
      expect.stringMatching(/^METADATA_SKIPPED: extended XMP A{32} declares \d+ bytes, over the cap of 524288/),
    );
    expect(r.raw.xmp!.length).toBeLessThanOrEqual(1024 * 1024 + 40);
  });

  it('a TIFF with a 20 MB XMP tag: skipped before it is decoded; its IPTC still read', () => {
    const r = readImageMetadata(tiffWithXmp(Buffer.from(keywordXmp(20 * 1024 * 1024), 'utf8')));
    expect(skipped(r.warnings)).toEqual([
      expect.stringMatching(/^METADATA_SKIPPED: TIFF XMP tag 700 is \d+ bytes, over the cap of 524288 characters/),
    ]);
    expect(r.iptc.caption).toBeTruthy();
    const ok = readImageMetadataBySource(tiffWithXmp(Buffer.from(keywordXmp(50_000, 'Tiff Credit'), 'utf8')));
    expect(ok.bySource.xmp.credit).toBe('Tiff Credit');
  });

  it('deep nesting is refused by the parser, a packet of 25,000 attributes is within budget and read, one of 80,000 is not', () => {
    const deep = readImageMetadata(pngDeepNesting(30_000));
    expect(deep.warnings.join('\n')).toMatch(/Maximum nested tags exceeded/);
    const attrs = readImageMetadata(pngHugeAttributes(300_000));
    expect(attrs.iptc.credit).toBe('Attr Credit');
    const over = readImageMetadata(pngHugeAttributes(1_000_000));
    expect(skipped(over.warnings)).toEqual([expect.stringMatching(/over the cap of 524288 for one XMP packet/)]);
  });
});
