import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { presentRecords } from '../../src/app/presentRecords';

/**
 * A correction on the desk: an AP-style photo and its corrected version (same
 * transmission reference, "CORRECTS ..." in 2:40) in one hot-folder batch. The corrected one is
 * shown first, the older one is marked SUPERSEDED with a link that takes the focus to the newer.
 * The two items run in parallel, so the correction may be stored before the photo it corrects.
 */
const hasChromium = HAS_CHROMIUM;
const suite = hasChromium ? describe : describe.skip;
const exif = (file: string, ...args: string[]) =>
  execFileSync('exiftool', ['-q', '-overwrite_original', ...args, file]);
const caption = (text: string) => [
  `-IPTC:Caption-Abstract=${text}`,
  `-XMP-dc:Description=${text}`,
  `-EXIF:ImageDescription=${text}`,
];

suite(
  hasChromium
    ? 'the desk shows the newer version of a correction first'
    : `desk corrections (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let batch: string;
    let oldId: string;
    let newId: string;

    beforeAll(async () => {
      tmp = makeTmpDir('deskcorrections');
      const dir = path.join(tmp, 'fire');
      mkdirSync(dir);
      const original = path.join(dir, '01-NYPS301.jpg');
      copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), original);
      exif(
        original,
        '-IPTC:OriginalTransmissionReference=NYPS301',
        ...caption(
          'Firefighters battle a blaze at a warehouse in the Bronx borough of New York, Monday, March 4, 2024. (AP Photo/Ana Lopez)',
        ),
      );
      const corrected = path.join(dir, '02-NYPS301-corrected.jpg');
      execFileSync('convert', [original, '-quality', '70', corrected]);
      exif(
        corrected,
        '-IPTC:OriginalTransmissionReference=NYPS301',
        '-IPTC:SpecialInstructions=CORRECTS LOCATION TO QUEENS',
        ...caption(
          'CORRECTS LOCATION TO QUEENS: Smoke rises over Long Island City as crews fight a fire in a storage building in the Queens borough of New York, March 4, 2024. (AP Photo/Ana Lopez)',
        ),
      );
      desk = await startDesk();
      batch = (await desk.p.ingest([dir]))[0].batchId!;
      const records = await presentRecords(desk.p.rt.ctx, await desk.p.rt.ctx.catalog.getRecords(batch));
      oldId = records.find((r) => r.source.file.endsWith('01-NYPS301.jpg'))!.id;
      newId = records.find((r) => r.source.file.endsWith('-corrected.jpg'))!.id;
      expect(records.find((r) => r.id === oldId)).toMatchObject({
        status: 'superseded',
        supersededBy: newId,
        availability: { state: 'superseded' },
      });
      expect(records.find((r) => r.id === newId)).toMatchObject({
        status: 'active',
        availability: { state: 'publishable' },
      });

      browser = await launchChromium();
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, batch);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    it('the corrected version comes first; the older one is SUPERSEDED with a link to it', async () => {
      await page.locator(`.batch-item[data-batch-id="${batch}"]`).click();
      const older = page.locator(`article[data-item-id="${oldId}"]`);
      await older.locator('.state-superseded').waitFor();
      const order = await page
        .locator('#grid article[data-item-id], .grid article[data-item-id]')
        .evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { itemId: string } }).dataset.itemId));
      expect(order.indexOf(newId)).toBeGreaterThanOrEqual(0);
      expect(order.indexOf(newId)).toBeLessThan(order.indexOf(oldId));
      expect(await older.getAttribute('data-availability')).toBe('superseded');
      expect(await older.locator('.state-banner').innerText()).toMatch(
        new RegExp(`SUPERSEDED[\\s\\S]*corrected by ${newId}`),
      );
      const link = older.locator('a.state-link');
      expect(await link.getAttribute('href')).toBe(`#/batch/${encodeURIComponent(batch)}`);
      expect(await page.locator(`article[data-item-id="${newId}"] .state-banner`).count()).toBe(0);
      await link.click();
      expect(await page.evaluate('document.activeElement && document.activeElement.dataset.itemId')).toBe(newId);
    });
  },
);
