import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  CHROMIUM,
  HAS_CHROMIUM,
  launchChromium,
  waitForCards,
  waitForFocus,
  waitForImageWidth,
  waitForImages,
  type Browser,
} from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, SEED_GALLERY, makeTmpDir, removeDir } from '../helpers/testEnv';
import { BROKEN_NAME, deskPhoto, repairPhoto, writeDeskPhotoFeed } from './deskFixture';

const SHOTS = path.join(REPO_ROOT, 'test-output');
const hasChromium = HAS_CHROMIUM;
if (!hasChromium) {
  process.stderr.write(
    `browser tests skipped: ${CHROMIUM} is not installed (apt-get install chromium); they never download a browser\n`,
  );
}
const suite = hasChromium ? describe : describe.skip;

suite(
  hasChromium
    ? 'the desk page in headless Chromium, against a real server'
    : `the desk page (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let feedTmp: string;
    let feedDir: string;
    let galleryId: string;
    let photosId: string;

    const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `desk-${name}.png`) });
    const card = (itemId: string) => page.locator(`article[data-item-id="${itemId}"]`);
    const openBatch = async (id: string) => {
      await page.locator(`.batch-item[data-batch-id="${id}"]`).click();
      await page.locator('#batch-title').waitFor();
      await page.locator('#grid article').first().waitFor();
    };
    // Page-side code is passed as text: this project's TypeScript has no DOM types.
    const imagesShown = (selector: string) => waitForImages(page, selector);

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      feedTmp = makeTmpDir('deskphotos');
      // The folder's name is the batch's name on the page.
      feedDir = path.join(feedTmp, 'evening-photos');
      mkdirSync(feedDir);
      await writeDeskPhotoFeed(feedDir);
      desk = await startDesk();
      const outcomes = await desk.p.ingest([SEED_GALLERY, feedDir]);
      [galleryId, photosId] = outcomes.map((o) => o.batchId!);

      browser = await launchChromium({ viewport: { width: 1440, height: 900 } });
      page = browser.page;
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (feedTmp) removeDir(feedTmp);
    });

    it('asks for the token, then lists the batches with their counts, live', async () => {
      await page.goto(`${desk.url}/`);
      const login = page.getByRole('dialog', { name: 'Sign in to the desk' });
      await login.waitFor();
      await page.getByLabel('API token').fill('not the token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('That token was not accepted.').waitFor();
      await page.getByLabel('API token').fill(desk.token!);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await login.waitFor({ state: 'hidden' });

      await page.locator(`.batch-item[data-batch-id="${galleryId}"]`).waitFor();
      await page.locator('#live[data-state="live"]').waitFor();
      const gallery = page.locator(`.batch-item[data-batch-id="${galleryId}"]`);
      await expectText(gallery, /41 items/);
      const bar = gallery.getByRole('progressbar');
      expect(await bar.getAttribute('aria-valuenow')).toBe('41');
      expect(await bar.getAttribute('aria-valuemax')).toBe('41');
      await expectText(page.locator(`.batch-item[data-batch-id="${photosId}"]`), /1 failed/);
    });

    it('shows the seed gallery with items 01, 03 and 07 as one cluster card, count 3 or more, that expands to them', async () => {
      await openBatch(galleryId);
      const cluster = page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"]`);
      const ids = (await cluster.getAttribute('data-item-ids'))!.split(' ');
      expect(ids).toEqual(expect.arrayContaining([`${galleryId}-0001`, `${galleryId}-0003`, `${galleryId}-0007`]));
      const count = Number(await cluster.getAttribute('data-count'));
      expect(count).toBeGreaterThanOrEqual(3);
      expect(await cluster.locator('.count-badge').textContent()).toBe(`×${count}`);
      // The caption is shown once on the card, not once per member.
      expect(await cluster.getByText(/^A masked supporter of Julian Assange outside the Embassy/).count()).toBe(1);
      await shot('gallery');

      await cluster.getByRole('button', { name: `Show all ${count}` }).click();
      const members = page.getByRole('list', { name: `The ${count} items of this cluster` });
      for (const n of ['#01', '#03', '#07']) await members.locator('.num', { hasText: n }).waitFor();
      expect(
        await page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"] [aria-expanded="true"]`).count(),
      ).toBe(1);
      await shot('gallery-cluster-expanded');
      await page.getByRole('button', { name: 'Collapse' }).click();
    });

    it('shows photos with their normalized credit line, the raw credit on hover and in the details', async () => {
      await openBatch(photosId);
      const tulips = card(`${photosId}-0001`);
      const credit = tulips.locator('.credit');
      expect(await credit.locator('.credit-line').innerText()).toBe('EPA-EFE/Koen van Weel');
      expect(await tulips.innerText()).not.toContain('KOEN VAN WEEL');
      expect(await credit.getAttribute('title')).toBe(
        'Raw credit: Caption credit: EPA-EFE/KOEN VAN WEEL · By-line: KOEN VAN WEEL · Credit: EPA-EFE · Copyright: EPA',
      );
      await imagesShown('#grid img.thumb');
      expect(await page.locator('#grid img.thumb').count()).toBe(4);

      const low = card(`${photosId}-0005`);
      expect(await low.getAttribute('class')).toContain('is-low');
      await expectText(low, /Low-confidence credit/);
      const lisbon = page.locator(`article.cluster[data-item-ids~="${photosId}-0002"]`);
      expect(await lisbon.getAttribute('data-count')).toBe('2');
      // Tall enough to show the failed card whole: this is the README's picture.
      await page.setViewportSize({ width: 1440, height: 1010 });
      await shot('photos');
      // The README's picture is this one: written here so docs/desk.png is what the desk shows today.
      copyFileSync(path.join(SHOTS, 'desk-photos.png'), path.join(REPO_ROOT, 'docs', 'desk.png'));

      await tulips.getByRole('button', { name: /Open #1 in full/ }).click();
      const details = page.getByRole('dialog', { name: /01-tulips\.jpg/ });
      await details.waitFor();
      await expectText(details, /KOEN VAN WEEL/);
      await waitForImageWidth(page, '.details-preview', { width: 1200 });
      await shot('details');
      await page.keyboard.press('Escape');
      await details.waitFor({ state: 'hidden' });
    });

    it('finds items by caption text, creator or agency', async () => {
      await page.keyboard.press('/');
      const search = page.getByRole('searchbox', { name: /Search this batch/ });
      await waitForFocus(page, 'batch-search');
      await search.fill('lisbon');
      await expectCards([`${photosId}-0002`]);
      await search.fill('agency:epa');
      await expectCards([`${photosId}-0001`]);
      await search.fill('creator:"pedro nunes"');
      await expectCards([`${photosId}-0004`]);
      await search.fill('');
      await page.getByRole('button', { name: /^Failed 1/ }).click();
      await expectCards([`${photosId}-0006`]);
      await page.getByRole('button', { name: /^All / }).click();
    });

    it('shows the batch again, searchable, after another view replaced it', async () => {
      const batchHash = new URL(page.url()).hash;
      await page.locator('#kills-open').click();
      await page.waitForURL(/#\/kills$/);
      await page.evaluate((h) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = h;
      }, batchHash);
      // The same cards as before the detour, and the search is there to focus.
      await card(`${photosId}-0001`).waitFor();
      expect(await page.locator('#batch-search').count()).toBe(1);
      await page.keyboard.press('/');
      await waitForFocus(page, 'batch-search');
      await page.locator('#batch-search').blur();
    });

    it('shows a failed item with its reason, and retry turns it into a photo once the file is fixed', async () => {
      const failed = card(`${photosId}-0006`);
      await expectText(failed, /Failed · Image corrupt/);
      await expectText(failed, new RegExp(`${BROKEN_NAME}: the image could not be decoded`));
      await failed.scrollIntoViewIfNeeded();
      await shot('failed');

      writeFileSync(path.join(feedDir, BROKEN_NAME), await repairPhoto());
      // A card the retry does not change stays the same element through the re-renders it causes
      // (before, every live reload rebuilt the whole grid: flicker, and a card held by a reader went stale).
      const untouched = card(`${photosId}-0001`);
      // (a property, not an attribute: the desk compares the markup)
      await untouched.evaluate((el) => ((el as unknown as { photowireKept: boolean }).photowireKept = true));
      await failed.getByRole('button', { name: /^Retry/ }).click();
      // The card leaves the failed state for a photo card with its normalized credit.
      const fixed = page.locator(`article[data-item-id="${photosId}-0006"]:not(.is-failed)`);
      await fixed.waitFor();
      expect(await fixed.locator('.credit-line').innerText()).toBe('Remko de Waal/ANP');
      await imagesShown(`article[data-item-id="${photosId}-0006"] img.thumb`);
      await expectText(page.locator(`.batch-item[data-batch-id="${photosId}"]`), /0 failed/);
      expect(
        await untouched.evaluate((el) => (el as unknown as { photowireKept?: boolean }).photowireKept === true),
      ).toBe(true);
      await fixed.scrollIntoViewIfNeeded();
      await shot('retried');
    });

    it('imports an upload from the dialog and shows its progress to the end', async () => {
      const dir = makeTmpDir('upload');
      try {
        writeFileSync(path.join(dir, 'harbour.jpg'), await deskPhoto(3));
        writeFileSync(path.join(dir, 'council.jpg'), await deskPhoto(4));
        await page.getByRole('button', { name: 'Import feed' }).click();
        await page.getByLabel('Files').setInputFiles([path.join(dir, 'harbour.jpg'), path.join(dir, 'council.jpg')]);
        await page.getByRole('button', { name: 'Upload and import' }).click();
        await expectText(page.locator('#import-result'), /Queued: .* \(2 items\)/);
        await page.keyboard.press('Escape');
        const id = decodeURIComponent(new URL(page.url()).hash.replace('#/batch/', ''));
        const item = page.locator(`.batch-item[data-batch-id="${id}"]`);
        await item.locator('.state-done').waitFor();
        expect(await item.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
        await page.locator(`article[data-item-id="${id}-0002"]`).waitFor();
      } finally {
        removeDir(dir);
      }
    });

    async function expectText(loc: Locator, re: RegExp): Promise<void> {
      await loc.filter({ hasText: re }).first().waitFor();
    }

    async function expectCards(itemIds: string[]): Promise<void> {
      // A cluster card counts by its first item.
      await waitForCards(page, itemIds);
    }
  },
);
