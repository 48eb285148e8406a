import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, type Browser } from '../helpers/browser';
import { archiveBatch } from '../helpers/archive';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Issue 14: a batch the retention pass removed from Redis opens on the desk from storage,
 * read-only, and says so: a notice with the day it was archived, no "Retry N failed items"
 * button, and failed cards that say "Archived: read-only" instead of offering Retry (the API
 * answers 409 BATCH_ARCHIVED to a retry). Screenshot: test-output/desk-archived.png.
 */
const SHOTS = path.join(REPO_ROOT, 'test-output');
const suite = HAS_CHROMIUM ? describe : describe.skip;

suite(
  HAS_CHROMIUM
    ? 'the desk on an archived batch'
    : `the desk on an archived batch (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let batchId = '';

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      tmp = makeTmpDir('desk-archived');
      const good = await syntheticPhoto({ width: 800, height: 600, seed: 4 });
      writeFileSync(path.join(tmp, 'harbour.jpg'), good);
      writeFileSync(path.join(tmp, 'broken.jpg'), good.subarray(0, Math.floor(good.length / 3)));
      writeFileSync(
        path.join(tmp, 'manifest.ndjson'),
        [
          '{"caption":"Fishing boats return to Scarborough harbour at dawn. (Photo: Jo Bloggs/AFP)","image":"harbour.jpg"}',
          '{"caption":"Riot police stand guard outside parliament in Athens. REUTERS/Alkis Konstantinidis","image":"broken.jpg"}',
        ].join('\n') + '\n',
      );
      desk = await startDesk({ overrides: { PHOTOWIRE_RETENTION_EVERY: '0' } });
      const [out] = await desk.p.ingest([path.join(tmp, 'manifest.ndjson')]);
      batchId = out.batchId!;
      // 45 days old, then the real retention pass (30 days): Redis forgets it, storage keeps it.
      expect(await archiveBatch(desk.p, batchId, { daysOld: 45, retentionDays: 30 })).toEqual([batchId]);

      browser = await launchChromium();
      page = browser.page;
      await page.goto(`${desk.url}/`);
      if (desk.token) {
        await page.evaluate(`sessionStorage.setItem('photowire.token', ${JSON.stringify(desk.token)})`);
      }
      await page.goto(`${desk.url}/#/batch/${batchId}`);
      await page.reload();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    it('says it is archived and read-only, and offers no retry anywhere', async () => {
      await page.locator('#batch-title').waitFor();
      const notice = page.locator('.notice-archived');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/^Archived on \d{1,2} \w+ \d{4}: read from storage, read-only$/);
      // The photo is there, read from the archived records.ndjson; the failed item too.
      const ok = page.locator(`article[data-item-id="${batchId}-0001"]`);
      const failed = page.locator(`article[data-item-id="${batchId}-0002"]`);
      await ok.waitFor();
      await failed.filter({ hasText: /Failed · Image corrupt/ }).waitFor();
      await failed.filter({ hasText: 'Archived: read-only' }).waitFor();
      // On a live batch this failure is retryable (deskNotices.test.ts): here nothing offers it.
      expect(await page.getByRole('button', { name: /Retry/ }).count()).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, 'desk-archived.png') });
    }, 60_000);
  },
);
