import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, SEED_GALLERY } from '../helpers/testEnv';

/**
 * Issue 12, "The words that differ": the expanded cluster shows the canonical caption once and
 * each member's differences from it highlighted ("Police officers" where the canonical says "A
 * masked supporter of Julian Assange"), from the record's cluster.diff. Screenshot:
 * docs/desk-clusters.png.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;

suite(HAS_CHROMIUM ? "the desk shows each cluster member's differences" : `desk clusters (SKIPPED: ${CHROMIUM} is not installed)`, () => {
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

  it('expanded, the seed family of 01 shows its caption once and 08 as <del>A masked supporter of Julian Assange</del><ins>Police officers</ins>', async () => {
    const cluster = page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"]`);
    await cluster.waitFor();
    const count = Number(await cluster.getAttribute('data-count'));
    await cluster.getByRole('button', { name: `Show all ${count}` }).click();
    const members = page.getByRole('list', { name: `The ${count} items of this cluster` });
    await members.waitFor();
    const m08 = members.locator(`article.member[data-item-id="${galleryId}-0008"]`);
    await m08.waitFor();
    // Before: the member's whole caption again, with nothing marked.
    expect(await m08.locator('.caption-diff del').first().innerText()).toBe('A masked supporter of Julian Assange');
    expect(await m08.locator('.caption-diff ins').first().innerText()).toBe('Police officers');
    // 11 against 01: "A" dropped, "supporter" -> "supporters"
    const m11 = members.locator(`article.member[data-item-id="${galleryId}-0011"]`);
    expect(await m11.locator('.caption-diff del').allInnerTexts()).toEqual(['A', 'supporter']);
    expect(await m11.locator('.caption-diff ins').allInnerTexts()).toEqual(['supporters']);
    // The canonical caption is shown once, in the cluster's head, not repeated per member.
    expect(await page.locator(`article.cluster[data-item-ids~="${galleryId}-0001"] .cluster-head .caption`).count()).toBe(1);
    expect(await members.locator('article.member[data-item-id$="-0001"] .caption').count()).toBe(0);
    await m08.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(REPO_ROOT, 'docs/desk-clusters.png') });
  });
});
