import { copyFileSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestPipeline } from '../helpers/pipeline';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import type { CatalogRecord } from '../../src/schemas/record';
import type { IptcFields } from '../../src/schemas/feedItem';
import { Watcher, type TakeResult } from '../../src/sources/hotFolder/watcher';
import { scaledMs } from '../helpers/deadline';

const FIXTURES = path.resolve(__dirname, '../fixtures/feeds');

/** The photo the three sample feeds describe, as its IPTC would carry it (values from the fixtures). */
const IPTC: IptcFields = {
  caption:
    'Spectators shelter under umbrellas as rain delays the men’s singles final on Centre Court at the All England Lawn Tennis & Croquet Club in London, Sunday, July 8, 2012. (Photo: Jane Halloran/Northwind Press)',
  headline: 'Rain delays final at Wimbledon',
  byline: ['Jane Halloran'],
  credit: 'Jane Halloran/Northwind Press',
  source: 'Northwind Press',
  copyright: '© 2012 Northwind Press',
  dateCreated: '2012-07-08T14:32:10+01:00',
  city: 'London',
  country: 'United Kingdom',
  countryCode: 'GB',
  objectName: 'TEN-WIMBLEDON-RAIN',
  keywords: ['tennis', 'Wimbledon', 'rain'],
  transmissionReference: 'tag:nwp.example,2012:NWP0042',
};

/** What a picture desk reads off a record, whichever format the photo came in. */
const essence = (r: CatalogRecord) => ({
  error: r.error,
  caption: r.caption,
  headline: r.headline,
  credit: r.credit,
  byline: r.iptc.byline,
  dateCreated: r.dateCreated,
  location: r.location,
  keywords: r.keywords,
  agencyId: r.agencyId,
  size: r.image && [r.image.width, r.image.height],
});

describe('NewsML-G2, NITF and CSV feeds give the same record as the photo with IPTC (dropped in a hot folder)', () => {
  let p: TestPipeline;
  let drop: string;
  let watcher: Watcher;
  const taken: TakeResult[] = [];

  beforeAll(async () => {
    p = await TestPipeline.start();
    drop = makeTmpDir('wire');
    const pixels = await syntheticPhoto({ width: 1600, height: 1067, seed: 2012 });
    const stage = makeTmpDir('stage');
    try {
      // Staged elsewhere, copied in, then announced by a .done marker as a sender would.
      writeFileSync(
        path.join(stage, 'photo-iptc.jpg'),
        insertIptcIntoJpeg(pixels, buildIimBlock(IPTC, { utf8: true })),
      );
      for (const [dir, feed] of [
        ['g2', 'newsml-g2-picture.xml'],
        ['nitf', 'nitf-picture.xml'],
        ['csv', 'manifest.csv'],
      ]) {
        mkdirSync(path.join(stage, dir));
        copyFileSync(path.join(FIXTURES, feed), path.join(stage, dir, feed));
        // The photo beside each feed carries no metadata: everything must come from the feed.
        writeFileSync(path.join(stage, dir, 'photo.jpg'), pixels);
      }
      for (const name of ['photo-iptc.jpg', 'g2', 'nitf', 'csv']) {
        cpSync(path.join(stage, name), path.join(drop, name), { recursive: true });
        writeFileSync(path.join(drop, `${name}.done`), '');
      }
    } finally {
      removeDir(stage);
    }
    watcher = new Watcher(p.rt, { dirs: [drop], settleMs: 60_000, scanMs: 100, fsWatch: false });
    watcher.on('taken', (t: TakeResult) => taken.push(t));
    await watcher.start();
    const deadline = Date.now() + scaledMs(60_000);
    while (taken.length < 4 && Date.now() < deadline) await sleep(100);
  });
  afterAll(async () => {
    await watcher.stop();
    await p.close();
    removeDir(drop);
  });

  const recordOf = async (name: string) => {
    const t = taken.find((x) => x.name === name);
    expect(t).toMatchObject({ outcome: 'processed' });
    const records = await p.rt.ctx.catalog.getRecords(t!.batchId!);
    expect(records).toHaveLength(1);
    return records[0];
  };

  it('the photo with IPTC makes the reference record', async () => {
    const r = await recordOf('photo-iptc.jpg');
    expect(essence(r)).toMatchObject({
      error: null,
      headline: 'Rain delays final at Wimbledon',
      byline: ['Jane Halloran'],
      dateCreated: '2012-07-08T14:32:10+01:00',
      keywords: ['tennis', 'Wimbledon', 'rain'],
      agencyId: 'tag:nwp.example,2012:NWP0042',
      location: expect.objectContaining({ city: 'London', country: 'United Kingdom', countryCode: 'GB' }),
      size: [1600, 1067],
    });
    expect(r.caption).not.toContain('Jane Halloran/Northwind Press');
    expect(r.credit.creators).toEqual(['Jane Halloran']);
  });

  it.each([
    ['NewsML-G2', 'g2', 'newsml-g2'],
    ['NITF', 'nitf', 'nitf'],
    ['CSV manifest', 'csv', 'csv'],
  ])('%s gives the same record', async (_label, dir, format) => {
    const reference = await recordOf('photo-iptc.jpg');
    const r = await recordOf(dir);
    expect(r.source.format).toBe(format);
    expect(essence(r)).toEqual(essence(reference));
    expect(r.agencyVersion).toBe('3');
  });

  it('each feed folder left the hot folder whole, its photo taken once, as part of the feed', async () => {
    expect(taken.map((t) => t.name).sort()).toEqual(['csv', 'g2', 'nitf', 'photo-iptc.jpg']);
    const batches = await p.rt.ctx.catalog.listBatches();
    expect(batches).toHaveLength(4);
  });
});
