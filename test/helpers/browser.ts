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
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  ctx: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchChromium(
  opts: {
    viewport?: { width: number; height: number };
    httpCredentials?: { username: string; password: string };
    args?: string[];
  } = {},
): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(os.tmpdir(), 'photowire-chromium-'));
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
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

/**
 * The page's own types, for predicates run in it (this project's TypeScript has no DOM library).
 * Predicates are passed as functions, never as strings: Playwright polls a string expression
 * through eval(), which the desk's Content-Security-Policy (script-src 'self') rightly refuses.
 * A predicate is sent as its source text, so it may use only its argument and the page's globals.
 */
interface PageElement {
  complete: boolean;
  naturalWidth: number;
  dataset: Record<string, string | undefined>;
}
export interface PageDocument {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}
export type PageGlobals = { document: PageDocument };

/** Every image matching `selector` (at least one) has loaded with real pixels. */
export function waitForImages(page: Page, selector: string): Promise<unknown> {
  return page.waitForFunction((sel) => {
    const imgs = Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll(sel));
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, selector);
}

/** The image matching `selector` has loaded at least `minWidth` (or exactly `width`) pixels wide. */
export function waitForImageWidth(
  page: Page,
  selector: string,
  want: { width?: number; minWidth?: number },
): Promise<unknown> {
  return page.waitForFunction(
    ({ sel, width, minWidth }) => {
      const img = (globalThis as unknown as PageGlobals).document.querySelector(sel);
      if (!img) return false;
      return width !== undefined ? img.naturalWidth === width : img.naturalWidth >= (minWidth ?? 1);
    },
    { sel: selector, width: want.width, minWidth: want.minWidth },
  );
}

/** The grid's cards, each by its item id (a cluster card by its first item), are exactly `itemIds`. */
export function waitForCards(page: Page, itemIds: string[]): Promise<unknown> {
  return page.waitForFunction((want) => {
    const cards = Array.from((globalThis as unknown as PageGlobals).document.querySelectorAll('#grid > article'));
    const got = cards.map((a) => a.dataset.itemId ?? (a.dataset.itemIds ?? '').split(' ')[0]);
    return JSON.stringify(got) === JSON.stringify(want);
  }, itemIds);
}

/** The page's focused element has the id `id`. */
export function waitForFocus(page: Page, id: string): Promise<unknown> {
  return page.waitForFunction(
    (want) =>
      ((globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ??
        '') === want,
    id,
    { timeout: 5000 },
  );
}
