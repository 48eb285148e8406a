import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { CatalogRecord } from '../../src/schemas/record';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 18, attack 4: "one 80,000-character 'ł' credit blocked the event loop, the item's lock
 * was lost and it ran twice". Real Redis, real workers, a real manifest. docs/RELIABILITY.md.
 */
jest.setTimeout(scaledMs(120_000));

describe('long non-ASCII metadata does not freeze a worker (attack 4)', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('long-fields');
  afterAll(async () => {
    await p?.close();
    removeDir(dir);
  });

  it('a batch with an 80,000-character "ł" credit and a 1,000,000-character caption finishes in seconds, each item once, stored values cut to their caps', async () => {
    const longCredit = 'ł'.repeat(80_000);
    const longCaption = `${'Łódź żółć gęślą jaźń '.repeat(50_000)}(Photo by Leon Neal/Getty Images)`;
    const feed = path.join(dir, 'long.ndjson');
    writeFileSync(
      feed,
      [
        {
          id: 'long-1',
          caption: 'Fans wait outside the stadium. REUTERS/Kacper Pempel',
          credit: longCredit,
          byline: ['Ł'.repeat(80_000)],
        },
        { id: 'long-2', caption: longCaption },
        { id: 'short-3', caption: 'A ferry waits at Dover. (Photo: Jo Bloggs/AFP)' },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    p = await TestPipeline.start();
    const started = Date.now();
    const [o] = await p.ingest([feed], 60_000);
    const elapsed = Date.now() - started;
    const records = readFileSync(path.join(p.config.dataDir, 'batches', o.batchId!, 'records.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as CatalogRecord);
    expect(records.map((r) => [r.agencyId, r.error])).toEqual([
      ['long-1', null],
      ['long-2', null],
      ['short-3', null],
    ]);
    // Before the caps and the linear rules, normalizing long-1 alone took minutes.
    expect(elapsed).toBeLessThan(scaledMs(20_000));
    const [one, two] = records;
    // stored cut to the caps where the feed is read (src/core/feeds/capItems.ts); the feed file keeps them whole
    expect(one.iptc.credit).toBe(longCredit.slice(0, 500));
    expect(one.iptc.byline![0]).toHaveLength(300);
    expect([one.credit.creators, one.credit.agency]).toEqual([['Kacper Pempel'], 'REUTERS']);
    expect(two.captionRaw).toHaveLength(10_000);
    expect(two.captionRaw.endsWith('(Photo by Leon Neal/Getty Images)')).toBe(true);
    expect(readFileSync(feed, 'utf8')).toContain(longCaption);
    expect([two.credit.creators, two.credit.agency]).toEqual([['Leon Neal'], 'Getty Images']);
  });
});
