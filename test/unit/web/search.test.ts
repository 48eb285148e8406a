import type { CatalogRecord } from '../../../src/schemas/record';
import { queryRecords } from '../../../src/app/records/recordQuery';
import { parseQuery } from '../../../src/core/search/query';
import { recordQuerySchema } from '../../../src/schemas/api';
import { record } from './records';

/**
 * What the desk shows for its search box and its show menu: the page sends both to the API
 * (web/app.js: `q`, and `show` as `failed=true` or `lowConfidence=true`) and shows what it answers;
 * it has no search of its own.
 */
function filterRecords(rs: CatalogRecord[], { q = '', show = 'all' }: { q?: string; show?: string } = {}) {
  const query = recordQuerySchema.parse({
    q,
    limit: 1000,
    failed: show === 'failed' ? 'true' : undefined,
    lowConfidence: show === 'low' ? 'true' : undefined,
  });
  return queryRecords(rs, query).page;
}

const records = [
  record(0, {
    caption: 'Supporters of Julian Assange outside the Embassy of Ecuador in London.',
    credit: {
      creators: ['Leon Neal'],
      agency: 'AFP',
      distributor: 'Getty Images',
      line: 'Leon Neal/AFP via Getty Images',
      raw: { captionTail: 'LEON NEAL/AFP/GettyImages', byline: [], creditLine: null, source: null, copyright: null },
    },
  }),
  record(1, {
    caption: 'Police officers outside the embassy.',
    credit: { creators: ['Dominic Lipinski'], agency: 'PA', line: 'Dominic Lipinski/PA' },
  }),
  record(2, {
    caption: 'Crowds gather in São Paulo for the final.',
    credit: { creators: ['J. Smith'], agency: 'Daily Bugle Ltd', confidence: 'low' },
  }),
  record(3, { caption: 'Truncated file', error: { code: 'IMAGE_CORRUPT', message: '/drop/x.jpg: cut short' } }),
];
const ids = (rs: CatalogRecord[]) => rs.map((r) => r.source.position);

describe('searching a batch', () => {
  it('finds caption words in any case and without accents, all words required', () => {
    expect(ids(filterRecords(records, { q: 'EMBASSY' }))).toEqual([0, 1]);
    expect(ids(filterRecords(records, { q: 'embassy police' }))).toEqual([1]);
    expect(ids(filterRecords(records, { q: 'sao paulo' }))).toEqual([2]);
  });

  it('finds a creator or an agency by name, or only in that field with agency: / creator:', () => {
    expect(ids(filterRecords(records, { q: 'neal' }))).toEqual([0]);
    expect(ids(filterRecords(records, { q: 'getty' }))).toEqual([0]);
    expect(ids(filterRecords(records, { q: 'agency:pa' }))).toEqual([1]);
    expect(ids(filterRecords(records, { q: 'creator:"dominic lipinski"' }))).toEqual([1]);
    // "pa" as a free word also matches inside "Paulo"; as an agency it does not.
    expect(ids(filterRecords(records, { q: 'pa' }))).toEqual([1, 2]);
  });

  it('narrows to failed items or low-confidence credits', () => {
    expect(ids(filterRecords(records, { show: 'failed' }))).toEqual([3]);
    expect(ids(filterRecords(records, { show: 'low' }))).toEqual([2]);
    expect(ids(filterRecords(records, { show: 'failed', q: 'cut short' }))).toEqual([3]);
    expect(ids(filterRecords(records, {}))).toEqual([0, 1, 2, 3]);
    // "medium" (an organisation the rules do not list) is not shown as low.
    expect(
      ids(
        filterRecords([record(0, { credit: { confidence: 'medium' } }), record(1, { credit: { confidence: 'low' } })], {
          show: 'low',
        }),
      ),
    ).toEqual([1]);
  });

  it('reads quoted phrases and field terms; an unknown field is a plain word', () => {
    expect(parseQuery('tulip agency:AFP by:"van weel" "near Lisse" note:x')).toEqual([
      { field: null, text: 'tulip' },
      { field: 'agency', text: 'afp' },
      { field: 'creator', text: 'van weel' },
      { field: null, text: 'near lisse' },
      { field: null, text: 'note:x' },
    ]);
    expect(parseQuery('   ')).toEqual([]);
  });

  describe('one organisation under every shape', () => {
    // As stored: a record made before rules 2026.12.2 holds the rules id ("GETTY"), a new one the
    // display name and the id; a third names Getty only as the distributor.
    const stored = [
      record(0, { credit: { creators: ['Oli Scarff'], agency: 'GETTY', line: 'Oli Scarff/Getty Images' } }),
      record(1, {
        credit: {
          creators: ['Phil Cole'],
          agency: 'Getty Images',
          agencyId: 'GETTY',
          distributorId: null,
          line: 'Phil Cole/Getty Images',
        },
      }),
      record(2, {
        credit: {
          creators: ['Leon Neal'],
          agency: 'AFP',
          agencyId: 'AFP',
          distributor: 'Getty Images',
          distributorId: 'GETTY',
        },
      }),
      record(3, { credit: { creators: ['Paul Chiasson'], agency: 'CP' } }),
      record(4, {
        credit: {
          creators: ['Jane Roe'],
          agency: 'Adobe Stock',
          agencyId: null,
          distributor: 'Adobe Stock',
          distributorId: 'ADOBE_STOCK',
        },
      }),
      record(5, { credit: { creators: ['J. Smith'], agency: 'Daily Bugle Ltd', agencyId: null, distributorId: null } }),
    ];
    const query = (q: Partial<Parameters<typeof queryRecords>[1]>) =>
      queryRecords(stored, { offset: 0, limit: 100, ...q } as Parameters<typeof queryRecords>[1]);
    // What the page receives: the API's records (src/app/records/recordQuery.ts), every credit in today's shape.
    const served = query({}).page;

    it('serves an old record with the display name and the id, raw untouched', () => {
      expect(served[0].credit).toMatchObject({
        agency: 'Getty Images',
        agencyId: 'GETTY',
        distributor: null,
        distributorId: null,
      });
      expect(served[3].credit).toMatchObject({ agency: 'The Canadian Press', agencyId: 'CP' });
      expect(served[5].credit).toMatchObject({ agency: 'Daily Bugle Ltd', agencyId: null });
      expect(served[0].credit.raw).toEqual(stored[0].credit.raw);
    });

    it('finds both shapes on the page with agency:getty, agency:GETTY, agency:"getty images" and agency:gettyimages', () => {
      for (const q of [
        'agency:getty',
        'agency:GETTY',
        'agency:"getty images"',
        'agency:gettyimages',
        'agency:"Getty Images"',
      ]) {
        expect([q, ids(filterRecords(served, { q }))]).toEqual([q, [0, 1, 2]]);
      }
      expect(ids(filterRecords(served, { q: 'agency:cp' }))).toEqual([3]);
      expect(ids(filterRecords(served, { q: 'agency:"canadian press"' }))).toEqual([3]);
      expect(ids(filterRecords(served, { q: 'agency:adobe_stock' }))).toEqual([4]);
    });

    it('finds both shapes through the API agency filter, by id, name or alias', () => {
      for (const agency of ['getty', 'GETTY', 'Getty Images', 'GettyImages', 'WireImage']) {
        expect([agency, query({ agency }).page.map((r) => r.source.position)]).toEqual([agency, [0, 1]]);
      }
      expect(query({ agency: 'La Presse Canadienne' }).page.map((r) => r.source.position)).toEqual([3]);
      expect(query({ agency: 'daily bugle ltd' }).page.map((r) => r.source.position)).toEqual([5]);
    });
  });
});
