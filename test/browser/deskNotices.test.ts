import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  CHROMIUM,
  HAS_CHROMIUM,
  launchChromium,
  openSignedIn,
  waitForImageWidth,
  type Browser,
} from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';
import { deskPhoto } from './deskFixture';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { RunLog } from '../../src/adapters/redis/runLog';
import { finishRun, newRun } from '../../src/core/runs/runRecord';

/**
 * Issue 17, "The desk": retry only where it can work, with visible feedback; resends and captions
 * of earlier nights visible on the card; restrictions on the card; tiny photos at their size; the
 * queue board with the schedule queue and nothing loaded from the internet; hot-folder failures as
 * one line. Screenshots go to test-output/.
 */
const SHOTS = path.join(REPO_ROOT, 'test-output');
const suite = HAS_CHROMIUM ? describe : describe.skip;
const HOT_FOLDER_FAILURE =
  'evening.xml: FEED_MALFORMED: line 14: an element is not closed (<newsItem> opened at line 3)\nmoved to failed/2026-12-01/evening.xml with evening.xml.error.json';

suite(
  HAS_CHROMIUM
    ? 'the desk shows what a person must notice'
    : `the desk notices (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let nightOne: string;
    let nightTwo: string;
    let badFeed: string;

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `desk-${name}.png`) });
    const card = (itemId: string) => page.locator(`article[data-item-id="${itemId}"]`);
    const openBatch = async (id: string) => {
      await page.locator(`.batch-item[data-batch-id="${id}"]`).click();
      await page.locator('#batch-title').waitFor();
      await page.locator('#grid article').first().waitFor();
    };
    const expectText = (loc: Locator, re: RegExp) => loc.filter({ hasText: re }).first().waitFor();

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      tmp = makeTmpDir('desknotices');
      const one = path.join(tmp, 'night-one');
      const two = path.join(tmp, 'night-two');
      const bad = path.join(tmp, 'bad-feed');
      for (const d of [one, two, bad]) mkdirSync(d);
      const harbour = await deskPhoto(3);
      writeFileSync(path.join(one, '01-harbour.jpg'), harbour);
      writeFileSync(
        path.join(one, '02-tiny.jpg'),
        insertIptcIntoJpeg(
          await syntheticPhoto({ width: 48, height: 32, seed: 5 }),
          buildIimBlock(
            {
              caption:
                'Volunteers clear the beach at Scheveningen after the storm. EPA/ANP/REMKO DE WAAL NETHERLANDS OUT MANDATORY CREDIT',
            },
            { utf8: true },
          ),
        ),
      );
      // The same photo the next night: a resend, and its caption joins the first night's cluster.
      writeFileSync(path.join(two, '01-harbour-again.jpg'), harbour);
      const good = await syntheticPhoto({ width: 800, height: 600, seed: 9 });
      writeFileSync(path.join(bad, 'broken.jpg'), good.subarray(0, Math.floor(good.length / 3)));
      writeFileSync(
        path.join(bad, 'manifest.ndjson'),
        [
          '{"caption":"Riot police stand guard outside parliament in Athens. REUTERS/Alkis Konstantinidis","image":"broken.jpg"}',
          '{"caption": "a line cut short',
          '{"caption":"Outside the folder","image":"../night-one/01-harbour.jpg"}',
        ].join('\n') + '\n',
      );
      desk = await startDesk();
      const outcomes = await desk.p.ingest([one]);
      nightOne = outcomes[0].batchId!;
      [nightTwo, badFeed] = (await desk.p.ingest([two, path.join(bad, 'manifest.ndjson')])).map((o) => o.batchId!);
      const runs = new RunLog(desk.p.rt.redis, desk.p.rt.config.prefix);
      const run = newRun({
        id: 'watch:test-failed-run',
        schedule: 'watch',
        source: '/srv/drop/evening.xml',
        trigger: 'drop',
        startedAt: new Date(),
      });
      await runs.save(finishRun(run, 'failed', new Date(), { note: HOT_FOLDER_FAILURE }));

      browser = await launchChromium();
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, badFeed);
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    it('offers Retry only where a retry can work, and shows it queued, then its outcome', async () => {
      await openBatch(badFeed);
      const corrupt = card(`${badFeed}-0001`);
      const malformed = card(`${badFeed}-0002`);
      const outside = card(`${badFeed}-0003`);
      await expectText(corrupt, /Failed · Image corrupt/);
      for (const c of [malformed, outside]) {
        await expectText(c, /Fix the feed and drop it again/);
        expect(await c.getByRole('button', { name: /Retry/ }).count()).toBe(0);
        expect(await c.getAttribute('data-retryable')).toBe('false');
      }
      // The header counts what a retry can change: one of the three.
      await page.getByRole('button', { name: 'Retry 1 failed item' }).waitFor();
      await shot('failed-cards');

      await corrupt.getByRole('button', { name: /^Retry/ }).click();
      const toast = page.locator('#toast');
      await expectText(toast, /1 item queued again/);
      expect(await toast.isVisible()).toBe(true);
      await expectText(toast, /Retry finished: 0 items ok, 1 failed again \(IMAGE_CORRUPT\)/);
      await page.locator(`article[data-item-id="${badFeed}-0001"][data-state="failed-again"]`).waitFor();
      await expectText(card(`${badFeed}-0001`), /Failed again after retry/);
      await shot('failed-again');
    });

    it('shows a resend with the item and batch it repeats, and a caption seen on an earlier night', async () => {
      await openBatch(nightTwo);
      const resend = card(`${nightTwo}-0001`);
      await expectText(resend, new RegExp(`resend of #1 \\(batch ${nightOne}\\)`));
      await expectText(resend, new RegExp(`caption seen before \\(batch ${nightOne}\\)`));
      await resend.scrollIntoViewIfNeeded();
      await shot('resend');
    });

    it('shows restrictions on the card and a tiny photo at its own size', async () => {
      await openBatch(nightOne);
      const tiny = card(`${nightOne}-0002`);
      await expectText(tiny, /OUT: Netherlands/);
      await expectText(tiny, /Mandatory credit/);
      const img = tiny.locator('img.thumb');
      await waitForImageWidth(page, `article[data-item-id="${nightOne}-0002"] img.thumb`, { minWidth: 1 });
      const box = (await img.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(48);
      expect(box.height).toBeLessThanOrEqual(32);
      await expectText(tiny, /48×32 px/);
      // The normal photo beside it still fills its card.
      expect((await card(`${nightOne}-0001`).locator('img.thumb').boundingBox())!.width).toBeGreaterThan(200);
      await tiny.scrollIntoViewIfNeeded();
      await shot('tiny-image');
    });

    it('shows a hot-folder failure in the sidebar as one line with the reason, the rest on click', async () => {
      const row = page.locator('.run-row.is-failed[data-run-id="watch:test-failed-run"]');
      await row.waitFor();
      const summary = row.locator('summary');
      expect((await summary.innerText()).trim()).toMatch(
        /^hot folder \d\d:\d\d · Failed: evening\.xml: FEED_MALFORMED: line 14/,
      );
      expect(await summary.innerText()).not.toContain('moved to failed');
      expect(await row.locator('.run-note').isVisible()).toBe(false);
      await summary.click();
      await expectText(row.locator('.run-note'), /moved to failed\/2026-12-01\/evening\.xml/);
      await expectText(row.locator('.run-source'), /\/srv\/drop\/evening\.xml/);
    });

    it('the queue board lists the schedule queue and loads nothing from outside this server', async () => {
      const board = await launchChromium({ httpCredentials: { username: 'desk', password: desk.token! } });
      const outside: string[] = [];
      const origin = new URL(desk.url).origin;
      await board.ctx.route('**/*', (route) => {
        const url = route.request().url();
        if (new URL(url).origin === origin) return route.continue();
        outside.push(url);
        return route.abort();
      });
      try {
        const p = board.page;
        await p.goto(`${desk.url}/admin/queues`);
        await p.getByText('photowire-schedule').first().waitFor({ timeout: 15_000 });
        await p.getByText('photowire-item').first().waitFor();
        await p.waitForLoadState('networkidle');
        expect(outside).toEqual([]);
      } finally {
        await board.close();
      }
    });
  },
);
