import type { CatalogRecord } from '../../../src/schemas/record';
import { ADVISORY_IDS, RESTRICTION_IDS } from '../../../src/schemas/rights';
import { loadWebModule } from './loadWebModule';
import { record } from './records';

const f = loadWebModule<{
  resendLabel(r: CatalogRecord): string | null;
  earlierClusterBatch(r: CatalogRecord): string | null;
  restrictionLabels(r: CatalogRecord): string[];
  thumbSize(r: CatalogRecord): { width: number; height: number; small: boolean } | null;
}>('lib/format.js');
const list = loadWebModule<{ shortNote(note: string, max?: number): string }>('ui/batchList.js');

describe('what a card must show on its face', () => {
  it('names the item a probable resend repeats, and its batch when that was another night', () => {
    // The same bytes again are the same photo (version 1, no previous item): the cluster's canonical item is what it repeats.
    const photo = { id: 'p1', version: 1, previousSha256: null, previousItemId: null };
    const cluster = (canonicalId: string) => ({ id: 'c1', canonicalId, similarity: 1, exact: true });
    expect(f.resendLabel(record(0, { probableResend: true, photo, cluster: cluster('batch-abc-0012') }))).toBe(
      'resend of #12',
    );
    expect(
      f.resendLabel(record(0, { probableResend: true, photo, cluster: cluster('afp-night-0123456789ab-0003') })),
    ).toBe('resend of #3 (batch afp-night-0123456789ab)');
    expect(
      f.resendLabel(
        record(0, { probableResend: true, photo: { ...photo, version: 2, previousItemId: 'batch-abc-0004' } }),
      ),
    ).toBe('resend of #4');
    expect(f.resendLabel(record(0, { probableResend: false, photo, cluster: cluster('batch-abc-0012') }))).toBeNull();
  });

  it('says when a caption joined a cluster that began in an earlier batch', () => {
    expect(
      f.earlierClusterBatch(
        record(1, { cluster: { id: 'c1', canonicalId: 'older-batch-0001', similarity: 0.97, exact: false } }),
      ),
    ).toBe('older-batch');
    expect(
      f.earlierClusterBatch(
        record(1, { cluster: { id: 'c1', canonicalId: 'batch-abc-0001', similarity: 1, exact: true } }),
      ),
    ).toBeNull();
  });

  it('lists restrictions from the rights record and the credit flags, once each', () => {
    const r = record(2, {
      credit: {
        flags: {
          file: false,
          pool: true,
          handout: true,
          mandatory: true,
          restrictions: ['Netherlands OUT'],
          supplierRef: null,
        },
      },
      rights: {
        restrictions: ['one-time-use', 'no-archive', 'handout'],
        outMarkets: [{ name: 'Canada', kind: 'country', code: 'CA', raw: 'CANADA' }],
      } as unknown as CatalogRecord['rights'],
    });
    // The credit's "Netherlands OUT" is another market than the rights record's Canada: shown, in the same form.
    expect(f.restrictionLabels(r)).toEqual([
      'One-time use',
      'No archives',
      'Handout',
      'OUT: Canada',
      'Mandatory credit',
      'Pool',
      'OUT: Netherlands',
    ]);
    expect(f.restrictionLabels(record(3))).toEqual([]);
  });

  it('shows a restriction the rights record and the credit both read once, in one form (not "OUT: Netherlands" beside "Netherlands OUT")', () => {
    const netherlands = { name: 'Netherlands', kind: 'country', code: 'NL', raw: 'NETHERLANDS' };
    const flags = (restrictions: string[]) => ({
      flags: { file: false, pool: false, handout: false, mandatory: false, restrictions, supplierRef: null },
    });
    const rights = (outMarkets: unknown[], restrictions: string[] = []) =>
      ({ restrictions, outMarkets }) as unknown as CatalogRecord['rights'];
    // What the sample's tulip photo carries: EPA-EFE/KOEN VAN DER BERG NETHERLANDS OUT.
    expect(
      f.restrictionLabels(record(7, { credit: flags(['Netherlands OUT']), rights: rights([netherlands]) })),
    ).toEqual(['OUT: Netherlands']);
    expect(
      f.restrictionLabels(record(7, { credit: flags(['NETHERLANDS OUT']), rights: rights([netherlands]) })),
    ).toEqual(['OUT: Netherlands']);
    expect(
      f.restrictionLabels(record(7, { credit: flags(['OUT: Netherlands']), rights: rights([netherlands]) })),
    ).toEqual(['OUT: Netherlands']);
    // Two markets in one credit flag: both known, nothing more; one unknown, the flag shows whole.
    const belgium = { name: 'Belgium', kind: 'country', code: 'BE', raw: 'BELGIUM' };
    expect(
      f.restrictionLabels(
        record(7, { credit: flags(['NETHERLANDS AND BELGIUM OUT']), rights: rights([netherlands, belgium]) }),
      ),
    ).toEqual(['OUT: Netherlands', 'OUT: Belgium']);
    expect(
      f.restrictionLabels(record(7, { credit: flags(['NETHERLANDS AND BELGIUM OUT']), rights: rights([netherlands]) })),
    ).toEqual(['OUT: Netherlands', 'OUT: Netherlands, Belgium']);
    // The same words in another case are the same restriction.
    expect(f.restrictionLabels(record(7, { credit: flags(['NO SALES']), rights: rights([], ['no-sales']) }))).toEqual([
      'No sales',
    ]);
  });

  it('labels every restriction and advisory of the closed vocabularies, and the markets a photo is limited to (issue 16/17 audit)', () => {
    // Before, 14 of the 27 restriction ids showed as raw ids ("time-limited") and advisories (a file
    // photo, a photo illustration, unverified, graphic content) and FOR USE ONLY IN markets never reached the card.
    for (const id of RESTRICTION_IDS) {
      const labels = f.restrictionLabels(
        record(5, { rights: { restrictions: [id], outMarkets: [] } as unknown as CatalogRecord['rights'] }),
      );
      expect({ id, labels }).toEqual({ id, labels: [expect.not.stringMatching(/^[a-z]+(-[a-z]+)*$/)] });
    }
    for (const id of ADVISORY_IDS) {
      const labels = f.restrictionLabels(
        record(5, { rights: { restrictions: [], advisories: [id] } as unknown as CatalogRecord['rights'] }),
      );
      expect({ id, labels }).toEqual({ id, labels: [expect.not.stringMatching(/^[a-z]+(-[a-z]+)*$/)] });
    }
    const only = record(6, {
      rights: {
        restrictions: ['editorial-only'],
        onlyMarkets: [{ name: 'Germany', kind: 'country', code: 'DE', raw: 'GERMANY' }],
        advisories: ['file-photo'],
      } as unknown as CatalogRecord['rights'],
    });
    expect(f.restrictionLabels(only)).toEqual(['Editorial use only', 'ONLY: Germany', 'File photo']);
  });

  it('keeps a tiny photo at its size', () => {
    const rendition = (w: number, h: number) => [
      { name: 'thumb' as const, path: 'r/t.webp', width: w, height: h, format: 'webp', bytes: 10 },
    ];
    expect(f.thumbSize(record(4, { renditions: rendition(48, 32) }))).toEqual({ width: 48, height: 32, small: true });
    expect(f.thumbSize(record(4, { renditions: rendition(400, 267) }))?.small).toBe(false);
    expect(f.thumbSize(record(4))).toBeNull();
  });

  it('cuts a hot-folder failure to its first line', () => {
    expect(list.shortNote('gallery.xml: FEED_MALFORMED: line 3 is not XML\nmore detail\n')).toBe(
      'gallery.xml: FEED_MALFORMED: line 3 is not XML',
    );
    expect(list.shortNote('x'.repeat(200), 20)).toHaveLength(20);
  });
});
