import type { CatalogRecord } from '../../../src/schemas/record';

/** A catalog record as the API sends it, with only what a test cares about changed. */
type Over = Omit<Partial<CatalogRecord>, 'credit'> & { credit?: Partial<CatalogRecord['credit']> };
export function record(position: number, over: Over = {}): CatalogRecord {
  const { credit, ...rest } = over;
  const id = `batch-abc-${String(position + 1).padStart(4, '0')}`;
  return {
    schemaVersion: 1,
    id,
    batchId: 'batch-abc',
    source: { file: '/feeds/gallery.txt', position, format: 'gallery-text', counter: position + 1, counterTotal: 41 },
    agencyId: null,
    agencyVersion: null,
    title: null,
    caption: `Caption ${position + 1}`,
    captionRaw: `Caption ${position + 1}`,
    captionRemoved: [],
    headline: null,
    credit: {
      raw: { captionTail: null, byline: [], creditLine: null, source: null, copyright: null },
      creators: [],
      agency: null,
      distributor: null,
      partners: [],
      flags: { file: false, pool: false, handout: false, mandatory: false, restrictions: [], supplierRef: null },
      line: null,
      confidence: 'high',
      rule: null,
      rulesVersion: '1',
      ...credit,
    },
    dateCreated: null,
    location: null,
    keywords: [],
    iptc: {},
    image: null,
    renditions: [],
    cluster: null,
    photo: null,
    probableResend: false,
    error: null,
    processedAt: '2026-11-30T21:00:00.000Z',
    ...rest,
  };
}

export const cluster = (id: string, canonicalId: string, exact = true, similarity = 1) => ({
  id,
  canonicalId,
  exact,
  similarity,
});
