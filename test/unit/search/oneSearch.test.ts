import table from '../../fixtures/search/queries.json';
import { parseQuery, recordMatches } from '../../../src/core/search/query';
import type { CatalogRecord } from '../../../src/schemas/record';
import { loadWebModule } from '../web/loadWebModule';
import { record } from '../web/records';

/** One search: the page's parser and matcher and the server's pass the same table. */
const web = loadWebModule<{
  parseQuery(q: string): Array<{ field: string | null; text: string }>;
  recordMatches(r: CatalogRecord, terms: unknown[]): boolean;
}>('lib/search.js');

type Row = {
  caption: string;
  creators: string[];
  agency: string;
  agencyId: string | null;
  distributor?: string;
  distributorId?: string;
  line?: string;
  headline?: string;
  error?: string;
};
const records = (table.records as Row[]).map((r, i) =>
  record(i, {
    caption: r.caption,
    headline: r.headline ?? null,
    credit: {
      creators: r.creators,
      agency: r.agency,
      agencyId: r.agencyId,
      distributor: r.distributor ?? null,
      distributorId: r.distributorId ?? null,
      line: r.line ?? null,
    },
    error: r.error ? { code: 'IMAGE_CORRUPT', message: r.error } : null,
  }),
);

describe.each([
  [
    'the page (web/lib/search.js)',
    web.parseQuery,
    web.recordMatches as (r: CatalogRecord, t: ReturnType<typeof parseQuery>) => boolean,
  ],
  ['the server (src/core/search/query.ts)', parseQuery, recordMatches],
])('%s', (_name, parse, matches) => {
  it.each(table.queries.map((t) => [t.q, t]))('%s', (_q, t) => {
    const terms = parse(t.q);
    if ('terms' in t) expect(terms).toEqual(t.terms);
    expect(records.flatMap((r, i) => (matches(r, terms as never) ? [i] : []))).toEqual(t.matches);
  });
});
