import type { CatalogRecord } from '../../../src/schemas/record';
import { loadWebModule } from './loadWebModule';
import { record } from './records';

const { filterRecords, parseQuery } = loadWebModule<{
  filterRecords(r: CatalogRecord[], o?: { q?: string; show?: string }): CatalogRecord[];
  parseQuery(q: string): Array<{ field: string | null; text: string }>;
}>('lib/search.js');

const records = [
  record(0, {
    caption: 'Supporters of Julian Assange outside the Embassy of Ecuador in London.',
    credit: { creators: ['Leon Neal'], agency: 'AFP', distributor: 'Getty Images', line: 'Leon Neal/AFP via Getty Images', raw: { captionTail: 'LEON NEAL/AFP/GettyImages', byline: [], creditLine: null, source: null, copyright: null } },
  }),
  record(1, { caption: 'Police officers outside the embassy.', credit: { creators: ['Dominic Lipinski'], agency: 'PA', line: 'Dominic Lipinski/PA' } }),
  record(2, { caption: 'Crowds gather in São Paulo for the final.', credit: { creators: ['J. Smith'], agency: 'Daily Bugle Ltd', confidence: 'low' } }),
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
});
