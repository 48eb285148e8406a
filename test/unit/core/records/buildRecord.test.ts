import { buildRecord, mergeIptc } from '../../../../src/core/records/buildRecord';
import { planRenditions } from '../../../../src/core/images/planRenditions';
import type { Credit } from '../../../../src/schemas/credit';
import { catalogRecordSchema } from '../../../../src/schemas/record';

const credit: Credit = {
  raw: { captionTail: null, byline: [], creditLine: null, source: null, copyright: null },
  creators: [],
  agency: null,
  distributor: null,
  partners: [],
  flags: { file: false, pool: false, handout: false, mandatory: false, restrictions: [], supplierRef: null },
  line: null,
  confidence: 'low',
  rule: null,
  rulesVersion: 'test',
};

describe('record assembly', () => {
  it('lets the feed override what the photo carries, but not with blanks', () => {
    expect(
      mergeIptc(
        { headline: 'From feed', city: '', keywords: [] },
        { headline: 'From photo', city: 'Lisse', keywords: ['a'] },
      ),
    ).toEqual({
      headline: 'From feed',
      city: 'Lisse',
      keywords: ['a'],
    });
  });

  it('prefers IPTC date and place over what was read from the caption, and validates', () => {
    const r = buildRecord({
      id: 'b-0001',
      batchId: 'b',
      item: {
        source: { file: 'f', position: 0, format: 'manifest-json' },
        captionRaw: 'raw',
        iptc: {},
        image: null,
        agencyId: 'X1',
      },
      iptc: { dateCreated: '2012-05-30', city: 'London' },
      captionRaw: 'raw',
      cleaned: {
        caption: 'clean',
        removed: [],
        dateCreated: '2011-01-01',
        dateline: { text: 'PARIS, FRANCE - JAN 1:', city: 'Paris', state: null, country: 'France' },
      },
      credit,
      image: null,
      renditions: [],
      cluster: null,
      error: null,
      processedAt: '2026-11-30T00:00:00.000Z',
    });
    expect(r.dateCreated).toBe('2012-05-30');
    expect(r.location).toMatchObject({ city: 'London', country: 'France', dateline: 'PARIS, FRANCE - JAN 1:' });
    expect(r.agencyId).toBe('X1');
    expect(() => catalogRecordSchema.parse(r)).not.toThrow();
  });
});

describe('rendition plan', () => {
  it('decodes once at the largest box and makes thumb (WebP 400) and preview (JPEG 1600)', () => {
    const plan = planRenditions({ creditLine: 'Leon Neal/AFP via Getty Images', copyright: '© AFP' });
    expect(plan.decodeBox).toBe(1600);
    expect(plan.renditions.map((r) => [r.name, r.box, r.format])).toEqual([
      ['thumb', 400, 'webp'],
      ['preview', 1600, 'jpeg'],
    ]);
    expect(plan.exif).toEqual({ Artist: 'Leon Neal/AFP via Getty Images', Copyright: 'AFP' });
  });
  it('keeps accented names readable in EXIF ASCII', () => {
    expect(planRenditions({ creditLine: 'Jérôme Dupont/EPA-EFE', copyright: null }).exif).toEqual({
      Artist: 'Jerome Dupont/EPA-EFE',
    });
    expect(planRenditions({ creditLine: null, copyright: null }).exif).toBeNull();
  });
});
