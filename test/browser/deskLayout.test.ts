import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { generateSampleFeed } from '../../src/sample/generateSample';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { scaledMs } from '../helpers/deadline';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';
import { deskPhoto } from './deskFixture';

/**
 * The desk's small faults a new user met on the bundled sample, measured at the widths a desk
 * really has (a laptop split in two, a laptop, a monitor): no horizontal scrollbar, every pill
 * inside its card, the count tiles in even rows (8 tiles at 1400 px were 7 + 1), each card's
 * headline on its face, one chip per restriction ("OUT: Netherlands" was shown beside
 * "Netherlands OUT"). Screenshots: test-output/desk-layout-<width>-<batch>.png.
 *
 * The feeds are the sample's own (`run --sample`), the manifest taken first so that the photo
 * folder's captions join its clusters ("caption seen before (batch manifest-...)"), and a later
 * drop whose third photo, the sample's market photo again, lands in the grid's last column at 900 px,
 * where its pill used to push the page wider than the window.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;
const SHOTS = path.join(REPO_ROOT, 'test-output');
const WIDTHS = [900, 1400, 1920] as const;

jest.setTimeout(scaledMs(120_000));

/** What the page measures, run in the page (this project's TypeScript has no DOM library). */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface Measured {
  scrollWidth: number;
  clientWidth: number;
  /** Pills sticking out of their card: the pill's text, its box and the card's. */
  outside: Array<{ text: string; pill: Box; card: Box }>;
  pills: number;
  /** Tiles per row, top to bottom. */
  tileRows: number[];
}

function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    type El = { getBoundingClientRect(): Box; closest(s: string): El | null; textContent: string | null };
    const doc = (
      globalThis as unknown as {
        document: {
          documentElement: { scrollWidth: number; clientWidth: number };
          querySelectorAll(s: string): ArrayLike<El>;
        };
      }
    ).document;
    const box = (e: El): Box => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    };
    const pills = Array.from(doc.querySelectorAll('#grid .notices .badge'));
    const outside = pills.flatMap((p) => {
      const card = p.closest('article');
      if (!card) return [];
      const [pb, cb] = [box(p), box(card)];
      const inside =
        pb.left >= cb.left - 0.5 &&
        pb.right <= cb.right + 0.5 &&
        pb.top >= cb.top - 0.5 &&
        pb.bottom <= cb.bottom + 0.5;
      return inside ? [] : [{ text: p.textContent ?? '', pill: pb, card: cb }];
    });
    const rows = new Map<number, number>();
    for (const t of Array.from(doc.querySelectorAll('.tiles > .tile'))) {
      const top = Math.round(box(t).top);
      rows.set(top, (rows.get(top) ?? 0) + 1);
    }
    return {
      scrollWidth: doc.documentElement.scrollWidth,
      clientWidth: doc.documentElement.clientWidth,
      outside,
      pills: pills.length,
      tileRows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, n]) => n),
    };
  });
}

suite(
  HAS_CHROMIUM ? 'the desk at 900, 1400 and 1920 px' : `desk layout (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let tmp: string;
    let photosId: string;
    let laterId: string;
    let tulipId: string;
    let floodIds: string[];

    beforeAll(async () => {
      tmp = makeTmpDir('desklayout');
      const sample = await generateSampleFeed(tmp);
      const [photos, manifest, gallery] = sample.feeds;
      const later = path.join(tmp, 'night2-drop');
      mkdirSync(later);
      writeFileSync(path.join(later, '01-council.jpg'), await deskPhoto(4));
      writeFileSync(path.join(later, '02-harbour.jpg'), await deskPhoto(3));
      copyFileSync(path.join(photos, '03-market-afp.jpg'), path.join(later, '03-market-afp.jpg'));
      desk = await startDesk();
      await desk.p.ingest([manifest]);
      [photosId] = (await desk.p.ingest([photos, gallery])).map((o) => o.batchId!);
      [laterId] = (await desk.p.ingest([later])).map((o) => o.batchId!);
      const records = await desk.p.rt.ctx.catalog.getRecords(photosId);
      tulipId = records.find((r) => r.source.file.endsWith('06-tulips-epa.jpg'))!.id;
      floodIds = records.filter((r) => /flood/.test(r.source.file)).map((r) => r.id);
      // What the fixture is for: the photos join the manifest's clusters, the tulip photo carries the
      // restriction both in its rights and in its credit, and the batch has the eighth tile.
      const summary = (await desk.p.rt.ingest.summarize([photosId]))[0]!;
      expect(summary.joinedEarlier).toBeGreaterThan(0);
      const tulip = records.find((r) => r.id === tulipId)!;
      expect(tulip.rights?.outMarkets.map((m) => m.name)).toEqual(['Netherlands']);
      expect(tulip.credit.flags.restrictions).toEqual(['Netherlands OUT']);
      expect(tulip.headline).toBe('Bulb planting season in the Netherlands');
    }, scaledMs(180_000));

    afterAll(async () => {
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    describe.each(WIDTHS)('%i px wide', (width) => {
      let browser: Browser;
      let page: Page;

      beforeAll(async () => {
        browser = await launchChromium({ viewport: { width, height: 1000 } });
        page = browser.page;
        await openSignedIn(page, desk.url, desk.token, photosId);
      });
      afterAll(async () => {
        await browser?.close();
      });

      async function openBatch(batchId: string, firstCard: string): Promise<void> {
        await page.locator(`.batch-item[data-batch-id="${batchId}"]`).click();
        await page
          .locator(`#grid > article[data-item-id="${firstCard}"], #grid > article[data-item-ids~="${firstCard}"]`)
          .waitFor();
        // The head (tiles) is drawn before the grid: with a card on the page, the tiles are laid out.
      }

      it('the sample photo folder: no horizontal scrollbar, pills inside their cards, even tile rows', async () => {
        await openBatch(photosId, floodIds[0]);
        const m = await measure(page);
        await page.screenshot({ path: path.join(SHOTS, `desk-layout-${width}-photos.png`), fullPage: true });
        expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
        expect(m.pills).toBeGreaterThanOrEqual(2);
        expect(m.outside).toEqual([]);
        // 8 tiles (with "joined earlier clusters"): one row, or rows of the same length give or take one; never one alone.
        expect(m.tileRows.reduce((a, b) => a + b, 0)).toBe(8);
        expect(Math.max(...m.tileRows) - Math.min(...m.tileRows)).toBeLessThanOrEqual(1);
      });

      it('each card shows its headline, and a restriction read twice is one chip', async () => {
        const tulip = page.locator(`#grid article[data-item-id="${tulipId}"]`);
        await tulip.scrollIntoViewIfNeeded();
        expect(await tulip.locator('.badge-restrict').allInnerTexts()).toEqual(['OUT: Netherlands']);
        const headline = tulip.locator('.headline');
        expect(await headline.count()).toBe(1);
        expect(await headline.innerText()).toBe('Bulb planting season in the Netherlands');
        expect(await headline.isVisible()).toBe(true);
        const box = await headline.boundingBox();
        expect(box!.height).toBeGreaterThan(8);
        // The flood cluster's card shows the lead's headline too.
        const flood = page.locator(`#grid article.cluster[data-item-ids~="${floodIds[0]}"]`);
        expect(await flood.locator('.headline').innerText()).toBe('Harbourton Weather');
      });

      it('a later drop whose last-column card has a pill: no horizontal scrollbar, the pill inside its card', async () => {
        await openBatch(laterId, `${laterId}-0001`);
        const m = await measure(page);
        await page.screenshot({ path: path.join(SHOTS, `desk-layout-${width}-later.png`), fullPage: true });
        expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
        expect(m.pills).toBeGreaterThanOrEqual(1);
        expect(m.outside).toEqual([]);
        expect(Math.max(...m.tileRows) - Math.min(...m.tileRows)).toBeLessThanOrEqual(1);
      });
    });
  },
);
