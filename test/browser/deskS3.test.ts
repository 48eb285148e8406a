import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, openSignedIn, waitForImages, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { createBucket, dropBucket, uniqueBucket } from '../helpers/s3Bucket';
import { cephRgw, type S3Env } from '../helpers/services';
import { STORAGE_VARS as TEST_STORAGE_VARS, WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 13: the desk with PHOTOWIRE_STORAGE=s3://... and no proxy. The page asks the rendition
 * route where a thumbnail is (`?as=url`, a same-origin fetch with the token) and sets the
 * presigned URL as the <img> src: the bucket needs no CORS, the page's CSP lets images (only)
 * come from the storage's origin, and no token is in any image URL. Real Ceph RGW, real workers,
 * headless Chromium.
 */
jest.setTimeout(scaledMs(180_000));

const rgw = cephRgw();
const PHOTOS = ['cp.jpg', 'pa.jpg', 'getty.jpg'];
const STORAGE_VARS = [...TEST_STORAGE_VARS, 'PHOTOWIRE_STORAGE_PROXY'] as const;
if (!HAS_CHROMIUM)
  process.stderr.write(`deskS3 browser test skipped: ${CHROMIUM} is not installed (apt-get install chromium)\n`);
const suite = HAS_CHROMIUM ? rgw.describe : describe.skip;

interface ImgInfo {
  src: string;
  naturalWidth: number;
  complete: boolean;
}

suite('the desk page with renditions on S3 (Ceph RGW), by presigned URL', () => {
  const bucket = uniqueBucket('desk-page');
  const feeds = makeTmpDir('s3-desk');
  const saved: Record<string, string | undefined> = {};
  let env: S3Env;
  let desk: Desk | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let batchId: string;

  beforeAll(async () => {
    await rgw.start();
    env = rgw.env();
    await createBucket(env, bucket);
    // Workers and server read the storage from the environment, as the deployed ones do.
    for (const k of STORAGE_VARS) saved[k] = process.env[k];
    Object.assign(process.env, { PHOTOWIRE_STORAGE: `s3://${bucket}/pw`, ...env });
    delete process.env.PHOTOWIRE_STORAGE_PROXY;
    desk = await startDesk({ overrides: { PHOTOWIRE_STORAGE_PROXY: '0' } });
    const feed = path.join(feeds, 'evening-s3');
    mkdirSync(feed);
    for (const name of PHOTOS) copyFileSync(path.join(WIRE_IMAGES, name), path.join(feed, name));
    const [o] = await desk.p.ingest([feed], 120_000);
    batchId = o.batchId!;
    browser = await launchChromium();
    page = browser.page;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await desk?.p.rt.ctx.storage.close();
    await desk?.close();
    for (const k of STORAGE_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    if (env) await dropBucket(env, bucket);
    await rgw.stop();
    removeDir(feeds);
  }, 120_000);

  it("loads the thumbnails from the storage's origin, with the page's CSP allowing images from there only", async () => {
    const origin = new URL(env.S3_ENDPOINT).origin;
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|CORS/i.test(m.text())) refused.push(m.text());
    });
    const answer = await page.goto(`${desk!.url}/`);
    const csp = answer!.headers()['content-security-policy'];
    expect(csp).toContain(`img-src 'self' blob: data: ${origin};`);
    expect(csp).toContain("connect-src 'self';");

    await openSignedIn(page, desk!.url, desk!.token, batchId);
    await page.locator(`.batch-item[data-batch-id="${batchId}"]`).click();
    await page.locator('#grid article').first().waitFor();
    await waitForImages(page, '#grid img.thumb');
    const imgs = await page.evaluate(() =>
      Array.from(
        (
          globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<ImgInfo> } }
        ).document.querySelectorAll('#grid img.thumb'),
      ).map((i) => ({
        src: i.src,
        naturalWidth: i.naturalWidth,
        complete: i.complete,
      })),
    );
    expect(imgs).toHaveLength(PHOTOS.length);
    for (const i of imgs) {
      const u = new URL(i.src);
      expect(u.origin).toBe(origin);
      expect(u.pathname).toMatch(
        new RegExp(`^/${bucket}/pw/renditions/[0-9a-f]{2}/[0-9a-f]{2}/[0-9a-f]{64}/thumb\\.webp$`),
      );
      expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
      expect(i.src).not.toContain(desk!.token!);
      expect(i.naturalWidth).toBeGreaterThan(0);
    }
    expect(refused).toEqual([]);
  });
});
