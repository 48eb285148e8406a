import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, waitForImages, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * A kill or an embargo of one member of a caption group is seen on the group's card, collapsed and
 * expanded, and on the member itself; the group is publishable only when every member is. Two
 * groups of three photos (one caption each, different pixels), one member of the first killed
 * (POST /api/kills, by item id: the others are listed for review, never killed), one of the second
 * embargoed (its Special Instructions). Screenshots: test-output/ and docs/desk-group-rights.png.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;
const OUT = path.join(REPO_ROOT, 'test-output');
const CAPTION_A =
  'Firefighters battle a blaze at a timber warehouse in the port district of Hamburg, Germany, on Tuesday night.';
const CAPTION_B =
  'Voters queue outside a polling station in a village school near Kraków, Poland, as the European elections open.';

/** A real JPEG of its own noise: no two share pixels or a perceptual hash, so none is a resend of another. */
async function photo(file: string, seed: number): Promise<void> {
  const base = sharp({
    create: {
      width: 900,
      height: 600,
      channels: 3,
      background: { r: (seed * 53) % 256, g: (seed * 97) % 256, b: (seed * 151) % 256 },
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  });
  await base.jpeg({ quality: 85 }).toFile(file);
}

suite(
  HAS_CHROMIUM
    ? 'the desk shows a killed or embargoed member of a caption group'
    : `desk group rights (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let night: string;
    let ids: string[];
    let killedId: string;
    let embargoedId: string;

    beforeAll(async () => {
      tmp = makeTmpDir('deskgrouprights');
      const dir = path.join(tmp, 'night');
      mkdirSync(dir);
      mkdirSync(OUT, { recursive: true });
      const rows = ['ID,Caption,Credit,Instructions,Image'];
      for (let i = 1; i <= 6; i++) {
        const name = `0${i}.jpg`;
        await photo(path.join(dir, name), i);
        const caption = i <= 3 ? CAPTION_A : CAPTION_B;
        const instructions = i === 6 ? 'EMBARGOED UNTIL 0001 GMT JANUARY 1, 2099' : '';
        rows.push(`DSKGRP${1000 + i},"${caption}",Jan Novak/Northwind Press,"${instructions}",${name}`);
      }
      writeFileSync(path.join(dir, 'manifest.csv'), `${rows.join('\n')}\n`);
      desk = await startDesk();
      night = (await desk.p.ingest([path.join(dir, 'manifest.csv')]))[0].batchId!;
      const records = await desk.p.rt.ctx.catalog.getRecords(night);
      const byFile = (n: number) =>
        records.find(
          (r) =>
            r.source.file.endsWith(`0${n}.jpg`) ||
            r.image?.original.endsWith(`0${n}.jpg`) ||
            r.agencyId === `DSKGRP${1000 + n}`,
        )!;
      ids = [1, 2, 3, 4, 5, 6].map((n) => byFile(n).id);
      // Two caption groups of three, every member a photo of its own.
      expect(records.every((r) => r.error === null && r.renditions.length === 2)).toBe(true);
      expect(new Set([1, 2, 3].map((n) => byFile(n).cluster?.id)).size).toBe(1);
      expect(new Set([4, 5, 6].map((n) => byFile(n).cluster?.id)).size).toBe(1);
      expect(byFile(1).cluster?.id).not.toBe(byFile(4).cluster?.id);
      expect(byFile(6).release?.embargoUntil?.at).toBe('2099-01-01T00:01:00.000Z');
      // Not the group's lead: the hardest case, a publishable photo in front of a killed one.
      killedId = ids[1];
      embargoedId = ids[5];
      const res = await desk.fetch('/api/kills', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ target: killedId, reason: 'MANDATORY KILL: the photographer withdrew consent' }),
      });
      expect(res.status).toBe(201);

      browser = await launchChromium({ viewport: { width: 1440, height: 1100 } });
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, night);
      await page.locator(`.batch-item[data-batch-id="${night}"]`).click();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    const group = (memberId: string): Locator => page.locator(`article.cluster[data-item-ids~="${memberId}"]`);

    it('collapsed, each group card says how many of its members are killed or embargoed, and is not publishable', async () => {
      const a = group(killedId);
      const b = group(embargoedId);
      await a.waitFor();
      await b.waitFor();
      const killedBanner = a.locator('.state-banner.state-killed');
      await killedBanner.waitFor();
      expect(await killedBanner.count()).toBe(1);
      expect(await killedBanner.innerText()).toMatch(/1 of 3 KILLED[\s\S]*the photographer withdrew consent/);
      expect(await killedBanner.getAttribute('data-item-ids')).toBe(killedId);
      expect(await a.getAttribute('data-availability')).toBe('killed');
      const embargoBanner = b.locator('.state-banner.state-embargoed');
      expect(await embargoBanner.count()).toBe(1);
      expect(await embargoBanner.innerText()).toMatch(/1 EMBARGOED[\s\S]*2099/);
      expect(await b.getAttribute('data-availability')).toBe('embargoed');
      // Only those banners: the killed group is not also called embargoed, and the other way round.
      expect(await a.locator('.state-banner').count()).toBe(1);
      expect(await b.locator('.state-banner').count()).toBe(1);
      await a.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'desk-group-rights-collapsed.png') });
    });

    it('expanded, the killed and the embargoed member each carry their own banner; the group banner stays', async () => {
      for (const [memberId, state, pattern, others] of [
        [
          killedId,
          'killed',
          /KILLED[\s\S]*the photographer withdrew consent[\s\S]*manual kill/,
          ids.slice(0, 3).filter((i) => i !== killedId),
        ],
        [
          embargoedId,
          'embargoed',
          /EMBARGOED[\s\S]*until Thu, 01 Jan 2099 00:01:00 UTC · \d+ days left/,
          ids.slice(3).filter((i) => i !== embargoedId),
        ],
      ] as const) {
        const card = group(memberId);
        await card.getByRole('button', { name: 'Show all 3' }).click();
        const member = group(memberId).locator(`article.member[data-item-id="${memberId}"]`);
        await member.waitFor();
        expect(await member.getAttribute('data-availability')).toBe(state);
        expect(await member.locator(`.state-banner.state-${state}`).innerText()).toMatch(pattern);
        for (const other of others) {
          const m = group(memberId).locator(`article.member[data-item-id="${other}"]`);
          expect(await m.getAttribute('data-availability')).toBe('publishable');
          expect(await m.locator('.state-banner').count()).toBe(0);
        }
        expect(await group(memberId).locator(`.cluster-head .state-banner.state-${state}`).count()).toBe(1);
        expect(await group(memberId).getAttribute('data-availability')).toBe(state);
      }
      const killedMember = group(killedId).locator(`article.member[data-item-id="${killedId}"]`);
      // Its thumbnail is withheld on the grid (the server answers 410 outside the Details view).
      expect(await killedMember.locator('.card-media.is-withheld').innerText()).toMatch(
        /Killed: preview in Details only/,
      );
      await killedMember.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'desk-group-rights-expanded.png') });
      await page.screenshot({ path: path.join(REPO_ROOT, 'docs/desk-group-rights.png') });
      await group(embargoedId).locator(`article.member[data-item-id="${embargoedId}"]`).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(OUT, 'desk-group-rights-embargoed.png') });
    });

    it("the Details view still shows the killed member's preview", async () => {
      const killedMember = group(killedId).locator(`article.member[data-item-id="${killedId}"]`);
      await killedMember.getByRole('button', { name: /^Details/ }).click();
      await waitForImages(page, '#details-body img.details-preview');
      await page.screenshot({ path: path.join(OUT, 'desk-group-rights-details.png') });
    });
  },
);
