import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, SEED_GALLERY } from '../helpers/testEnv';

/**
 * The story level: from an item's details, "Show the story" opens story -> clusters ->
 * versions. The seed's 01-11 are one story over several clusters (the masked supporters, the
 * police officers, the media, the file photo...), each version saying why it is in the story.
 * Screenshot at 1400 px: test-output/desk-story.png.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;
const SHOTS = path.join(REPO_ROOT, 'test-output');

suite(
  HAS_CHROMIUM
    ? 'the desk shows a story, its clusters and their versions'
    : `desk stories (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let galleryId: string;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      desk = await startDesk();
      [galleryId] = (await desk.p.ingest([SEED_GALLERY])).map((o) => o.batchId!);
      browser = await launchChromium({ viewport: { width: 1400, height: 1000 } });
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, galleryId);
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
    });

    it('opens the story of seed 08 from its details: 11 captions in clusters, each version with why it joined', async () => {
      await page.locator(`.batch-item[data-batch-id="${galleryId}"]`).click();
      // 08 (the police) is in a cluster with its resend 09: open it, then 08's details.
      const cluster = page.locator(`article.cluster[data-item-ids~="${galleryId}-0008"]`);
      await cluster.waitFor();
      const count = Number(await cluster.getAttribute('data-count'));
      await cluster.getByRole('button', { name: `Show all ${count}` }).click();
      await page.getByRole('button', { name: /Details of #08/ }).click();
      const details = page.getByRole('dialog');
      await details.getByText('In a story of 11 captions.').waitFor();
      await details.getByRole('link', { name: 'Show the story' }).click();

      const story = page.locator('section.story-view');
      await story.waitFor();
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Story · 11 captions');
      const clusters = story.locator('li.story-cluster');
      // One per picture: {01,02,03,07,11} (the masked supporter), {04,05}, {08,09}, 06, 10.
      expect(await clusters.count()).toBe(5);
      const versions = story.locator('li.story-version');
      expect(await versions.count()).toBe(11);
      const ids = await versions.evaluateAll((els) =>
        els.map((e) => (e as unknown as { dataset: { itemId: string } }).dataset.itemId),
      );
      expect(ids.sort()).toEqual(
        Array.from({ length: 11 }, (_, i) => `${galleryId}-${String(i + 1).padStart(4, '0')}`),
      );
      // Why: 01 started it; 06 shares the day's words with 04.
      expect(await story.locator(`li.story-version[data-item-id="${galleryId}-0001"] .story-via`).innerText()).toBe(
        'started the story',
      );
      expect(await story.locator(`li.story-version[data-item-id="${galleryId}-0006"] .story-via`).innerText()).toMatch(
        /^\d+% of its words shared: .*embassy/,
      );
      // A version that is not its cluster's canonical caption says why it joined; the canonical does not.
      expect(await story.locator(`li.story-version[data-item-id="${galleryId}-0011"] .cluster-why`).innerText()).toBe(
        'same subject · same background · word “a” → ∅',
      );
      expect(await story.locator(`li.story-version[data-item-id="${galleryId}-0008"] .cluster-why`).count()).toBe(0);
      // Each cluster shows its caption once, above its versions.
      expect(await clusters.first().locator('.story-cluster-head .caption').count()).toBe(1);
      await page.screenshot({ path: path.join(SHOTS, 'desk-story.png'), fullPage: true });
    });
  },
);
