import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, SEED_GALLERY } from '../helpers/testEnv';

/**
 * The words that differ, and why: the expanded cluster shows the canonical caption once and each
 * member's differences from it highlighted (11 "Masked supporters" where the canonical 01 says "A
 * masked supporter"), from the record's cluster.diff, with the line that says why it joined
 * (cluster.why: the subject matched, the background the same, the article dropped). 08 ("Police
 * officers", another picture on the same background) is not in 01's cluster: it is in its own,
 * with 09. Screenshot: docs/desk-clusters.png.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;

suite(
  HAS_CHROMIUM
    ? "the desk shows each cluster member's differences and why it joined"
    : `desk clusters (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let galleryId: string;

    beforeAll(async () => {
      desk = await startDesk();
      [galleryId] = (await desk.p.ingest([SEED_GALLERY])).map((o) => o.batchId!);
      browser = await launchChromium({ viewport: { width: 1440, height: 1100 } });
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, galleryId);
    });
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
    });

    it('expanded, the cluster of 01 shows its caption once, 11 as <del>A</del> ... <del>supporter</del><ins>supporters</ins> with why, and not 08', async () => {
      const cluster = page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"]`);
      await cluster.waitFor();
      const ids = (await cluster.getAttribute('data-item-ids'))!.split(' ');
      expect(ids.map((id) => id.slice(-2)).sort()).toEqual(['01', '02', '03', '07', '11']);
      const count = Number(await cluster.getAttribute('data-count'));
      expect(count).toBe(5);
      await cluster.getByRole('button', { name: `Show all ${count}` }).click();
      const members = page.getByRole('list', { name: `The ${count} items of this cluster` });
      await members.waitFor();
      // 11 against 01: "A" dropped, "supporter" -> "supporters"
      const m11 = members.locator(`article.member[data-item-id="${galleryId}-0011"]`);
      await m11.waitFor();
      expect(await m11.locator('.caption-diff del').allInnerTexts()).toEqual(['A', 'supporter']);
      expect(await m11.locator('.caption-diff ins').allInnerTexts()).toEqual(['supporters']);
      expect(await m11.locator('.cluster-why').innerText()).toBe('same subject · same background · word “a” → ∅');
      // 03 and 07 are 01's caption again: no diff, no why.
      expect(await members.locator(`article.member[data-item-id="${galleryId}-0003"] .cluster-why`).count()).toBe(0);
      // The canonical caption is shown once, in the cluster's head, not repeated per member.
      expect(
        await page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"] .cluster-head .caption`).count(),
      ).toBe(1);
      expect(await members.locator('article.member[data-item-id$="-0001"] .caption').count()).toBe(0);
      // The police picture is another cluster, with its resend 09; never a member of 01's.
      expect(await members.locator(`article.member[data-item-id="${galleryId}-0008"]`).count()).toBe(0);
      const police = page.locator(`article.cluster[data-item-ids~="${galleryId}-0008"]`);
      expect(
        (await police.getAttribute('data-item-ids'))!
          .split(' ')
          .map((id) => id.slice(-2))
          .sort(),
      ).toEqual(['08', '09']);
      await m11.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(REPO_ROOT, 'docs/desk-clusters.png') });
    });
  },
);
