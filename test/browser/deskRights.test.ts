import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Issue 16 on the desk: a killed photo struck through in red with its reason and notice, an
 * embargoed one locked with the time left, the Kills view listing every copy. Screenshots go to docs/.
 */
const hasChromium = HAS_CHROMIUM;
const suite = hasChromium ? describe : describe.skip;
const DOCS = path.join(REPO_ROOT, 'docs');

suite(
  hasChromium ? 'the desk shows killed and embargoed photos' : `desk rights (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let night: string;
    let killedId: string;
    let embargoedId: string;

    beforeAll(async () => {
      tmp = makeTmpDir('deskrights');
      const dir = path.join(tmp, 'night');
      mkdirSync(dir);
      copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), path.join(dir, '01-LON805.jpg'));
      execFileSync('exiftool', [
        '-q',
        '-overwrite_original',
        '-IPTC:OriginalTransmissionReference=LON805',
        path.join(dir, '01-LON805.jpg'),
      ]);
      copyFileSync(path.join(WIRE_IMAGES, 'IPTC.jpg'), path.join(dir, '02-embargoed.jpg'));
      execFileSync('exiftool', [
        '-q',
        '-overwrite_original',
        '-IPTC:ReleaseDate=2099:01:01',
        '-IPTC:ReleaseTime=00:01:00+00:00',
        '-IPTC:SpecialInstructions=EMBARGOED UNTIL 0001 GMT JANUARY 1, 2099',
        path.join(dir, '02-embargoed.jpg'),
      ]);
      copyFileSync(path.join(WIRE_IMAGES, 'GAC103-thumb.jpg'), path.join(dir, '03-handout.jpg'));
      desk = await startDesk();
      night = (await desk.p.ingest([dir]))[0].batchId!;
      const records = await desk.p.rt.ctx.catalog.getRecords(night);
      killedId = records.find((r) => r.source.file.endsWith('01-LON805.jpg'))!.id;
      embargoedId = records.find((r) => r.source.file.endsWith('02-embargoed.jpg'))!.id;
      const res = await desk.fetch('/api/kills', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          target: 'LON805',
          reason: 'MANDATORY KILL: the image was digitally manipulated at source',
        }),
      });
      expect(res.status).toBe(201);

      browser = await launchChromium();
      page = browser.page;
      await openSignedIn(page, desk.url, desk.token, night);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    it('a killed photo is struck through in red with its reason and notice; an embargoed one is locked with the time left', async () => {
      await page.locator(`.batch-item[data-batch-id="${night}"]`).click();
      const killed = page.locator(`article[data-item-id="${killedId}"]`);
      await killed.locator('.state-killed').waitFor();
      expect(await killed.getAttribute('data-availability')).toBe('killed');
      expect(await killed.locator('.state-banner').innerText()).toMatch(
        /KILLED[\s\S]*digitally manipulated at source[\s\S]*manual kill/,
      );
      const caption = killed.locator('.caption');
      // run in the page (the test's TypeScript has no DOM types)
      type Styled = {
        ownerDocument: { defaultView: { getComputedStyle(e: unknown): { textDecorationLine: string; color: string } } };
      };
      // The grid re-renders on live updates: a card replaced between finding and reading it reads as
      // detached (empty styles), so read again until the style of the card on the page is known.
      const readStyle = () =>
        caption.evaluate((el) => {
          const cs = (el as unknown as Styled).ownerDocument.defaultView.getComputedStyle(el);
          return { line: cs.textDecorationLine, color: cs.color };
        });
      let style = await readStyle();
      for (let i = 0; i < 50 && style.line === ''; i++) {
        await page.waitForTimeout(100);
        style = await readStyle();
      }
      expect(style).toEqual({ line: 'line-through', color: 'rgb(176, 0, 32)' });
      const embargoed = page.locator(`article[data-item-id="${embargoedId}"]`);
      expect(await embargoed.getAttribute('data-availability')).toBe('embargoed');
      expect(await embargoed.locator('.state-banner').innerText()).toMatch(
        /EMBARGOED[\s\S]*until Thu, 01 Jan 2099 00:01:00 UTC · \d+ days left/,
      );
      await killed.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(DOCS, 'desk-killed.png') });
      await embargoed.screenshot({ path: path.join(DOCS, 'desk-embargoed.png') });
    });

    it('the Kills view lists every copy of the kill and where it is stored', async () => {
      await page.locator('#kills-open').click();
      const kill = page.locator('.kill').first();
      await kill.waitFor();
      expect(await kill.locator('.kill-head').innerText()).toMatch(/KILLED[\s\S]*LON805/);
      expect(await kill.locator(`.kill-copy[data-item-id="${killedId}"]`).innerText()).toMatch(/originals\//);
      await page.screenshot({ path: path.join(DOCS, 'desk-kills.png') });
    });

    it('a batch still loading when the Kills view opens does not draw over it', async () => {
      // Hold the batch's detail answer until the Kills view is on the page (CI once caught a live
      // reload landing there and replacing the kills with the batch's grid).
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let seen!: () => void;
      const requested = new Promise<void>((r) => (seen = r));
      const detail = `**/api/batches/${encodeURIComponent(night)}`;
      await page.route(detail, async (route) => {
        seen();
        await held;
        await route.continue();
      });
      try {
        await page.locator(`.batch-item[data-batch-id="${night}"]`).click();
        await requested;
        await page.locator('#kills-open').click();
        await page.locator('.kill').first().waitFor();
        const answered = page.waitForResponse((r) => r.url().endsWith(`/api/batches/${encodeURIComponent(night)}`));
        release();
        await answered;
        await page.waitForTimeout(500);
        expect(await page.locator('.kills-view').count()).toBe(1);
        expect(await page.locator(`article[data-item-id="${killedId}"]`).count()).toBe(0);
      } finally {
        release();
        await page.unroute(detail);
      }
    });

    it('a kill sent in error is lifted from the Kills view with a reason: its photo is publishable again and the lift is kept', async () => {
      await page.locator('#kills-open').click();
      const kill = page.locator('.kill').first();
      await kill.waitFor();
      await kill.locator('.kill-lift input[name="reason"]').fill('sent in error by the night desk');
      await kill.locator('.kill-lift button[type="submit"]').click();
      // lifted kills leave the default list; with "show lifted" it is there, marked, with who and why
      await page.locator('.kills-view .empty-state').waitFor();
      await page.locator('.kill-all input').check();
      const lifted = page.locator('.kill.kill-lifted').first();
      await lifted.waitFor();
      expect(await lifted.locator('.kill-head').innerText()).toMatch(/KILLED · LIFTED/);
      expect(await lifted.locator('.kill-lifted-note').innerText()).toMatch(/by desk: sent in error by the night desk/);
      expect(await lifted.locator('.kill-lift').count()).toBe(0);
      const answer = (await (
        await desk.fetch(`/api/batches/${encodeURIComponent(night)}/records?limit=50`)
      ).json()) as { records: Array<{ id: string }> };
      const record = answer.records.find((r) => r.id === killedId);
      expect(record).toMatchObject({ status: 'active', availability: { state: 'publishable' } });
    });
  },
);
