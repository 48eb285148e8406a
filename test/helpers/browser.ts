import { existsSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { removeDir } from './testEnv';

/**
 * Debian's Chromium, driven by playwright-core: the browser tests never download one. Started
 * with the flags this closed network needs (no background networking, no component updates), a
 * fresh profile each time, removed on close.
 */
export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  ctx: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(opts: { viewport?: { width: number; height: number }; httpCredentials?: { username: string; password: string } } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'photowire-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: opts.viewport ?? { width: 1440, height: 1000 },
    colorScheme: 'light',
    httpCredentials: opts.httpCredentials,
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  page.setDefaultTimeout(15_000);
  return {
    ctx,
    page,
    close: async () => {
      await ctx.close();
      removeDir(profile);
    },
  };
}

/** Open the desk signed in (the token the page keeps in sessionStorage) and wait for a batch in the list. */
export async function openSignedIn(page: Page, url: string, token: string | null, batchId: string): Promise<void> {
  await page.goto(`${url}/`);
  if (token) {
    await page.evaluate(`sessionStorage.setItem('photowire.token', ${JSON.stringify(token)})`);
    await page.reload();
  }
  await page.locator(`.batch-item[data-batch-id="${batchId}"]`).waitFor();
}
