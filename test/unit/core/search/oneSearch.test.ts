import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import table from '../../../fixtures/search/queries.json';
import { parseQuery, recordMatches } from '../../../../src/core/search/query';
import { record } from '../../web/records';

/**
 * The one search: the desk page sends its search box to the API, so the server's parser and matcher
 * (src/core/search/query.ts) are the only ones, and they pass the table.
 */
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

describe('the search of the desk and the API (src/core/search/query.ts)', () => {
  it.each(table.queries.map((t) => [t.q, t]))('%s', (_q, t) => {
    const terms = parseQuery(t.q);
    if ('terms' in t) expect(terms).toEqual(t.terms);
    expect(records.flatMap((r, i) => (recordMatches(r, terms) ? [i] : []))).toEqual(t.matches);
  });

  it('has no second copy in the page: the page imports no parser and sends q to the API', () => {
    const web = path.resolve(__dirname, '../../../../web');
    const pageFiles = readdirSync(web, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(pageFiles.length).toBeGreaterThan(5);
    const parsers = pageFiles.filter((f) =>
      /function parseQuery|function recordMatches/.test(readFileSync(path.join(web, f), 'utf8')),
    );
    expect(parsers).toEqual([]);
    // The page's search is a call of the records API with the box's text as `q`.
    expect(readFileSync(path.join(web, 'app.js'), 'utf8')).toMatch(
      /search: \(batchId, \{ q,[^}]*\}\) =>\s*api\.recordsPage\(batchId, \{\s*q,/,
    );
  });
});
