import { mkdirSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium, type Browser } from '../helpers/browser';
import { startDesk, type Desk } from '../helpers/deskServer';
import { makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Cross-site requests and DNS rebinding against a loopback desk without a token, in real Chromium
 * (docs/RELIABILITY.md "Attacks"). Another origin's page posts a multipart form carrying a kill
 * notice to /api/feeds (no CORS preflight for multipart), by fetch and by a plain form; a page
 * whose name was made to resolve to 127.0.0.1 reads /api/batches as its own origin. Before the
 * fix both were answered: the upload became a batch whose notice killed a photo in another batch,
 * and the catalog was read.
 */
const suite = HAS_CHROMIUM ? describe : describe.skip;
const KILL_FEED =
  '{"id":"EVILKILL1","headline":"MANDATORY KILL","caption":"MANDATORY KILL: The photo (transmission reference NYC100) has been retracted. (AP Photo)","specialInstructions":"MANDATORY KILL: transmission reference NYC100. PLEASE DELETE FROM ALL YOUR SYSTEMS."}\n';

/** The attacker's page: served from another origin, it knows the desk's address. */
const attackPage = (desk: string) => `<!doctype html><meta charset="utf-8"><title>cute cats</title>
<form id="f" method="post" enctype="multipart/form-data" action="${desk}/api/feeds"><input type="file" name="file" id="file"></form>
<script>
const KILL = ${JSON.stringify(KILL_FEED)};
window.fetchAttack = async () => {
  const fd = new FormData();
  fd.append('file', new Blob([KILL], { type: 'application/x-ndjson' }), 'kill.ndjson');
  try { await fetch(${JSON.stringify(desk)} + '/api/feeds', { method: 'POST', mode: 'no-cors', body: fd }); return 'sent'; } catch (e) { return 'failed: ' + e; }
};
window.formAttack = () => {
  const dt = new DataTransfer();
  dt.items.add(new File([KILL], 'kill.ndjson', { type: 'application/x-ndjson' }));
  document.getElementById('file').files = dt.files;
  document.getElementById('f').submit();
};
window.readCatalog = async () => { const r = await fetch('/api/batches'); return { status: r.status, body: await r.text() }; };
</script>`;

suite(
  HAS_CHROMIUM
    ? 'another origin attacks a loopback desk in Chromium'
    : `cross-site attacks (SKIPPED: ${CHROMIUM} is not installed)`,
  () => {
    let desk: Desk;
    let evil: http.Server;
    let evilPort: number;
    let browser: Browser;
    let page: Page;
    let tmp: string;
    let victimBatch: string;

    beforeAll(async () => {
      tmp = makeTmpDir('crosssite');
      const victim = path.join(tmp, 'victim');
      mkdirSync(victim);
      writeFileSync(
        path.join(victim, 'manifest.ndjson'),
        '{"id":"NYC100","caption":"Firefighters at a blaze in Queens, New York. (AP Photo/Ann Example)"}\n',
      );
      desk = await startDesk({ token: null });
      [victimBatch] = (await desk.p.ingest([path.join(victim, 'manifest.ndjson')])).map((o) => o.batchId!);
      evil = http.createServer((req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(attackPage(desk.url));
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      evilPort = (evil.address() as AddressInfo).port;
      const deskPort = new URL(desk.url).port;
      // A DNS answer the attacker controls: rebind.test resolves to the desk's machine.
      // Chromium's own guard against public pages calling private addresses (Private Network Access)
      // is off, as in a browser that has none: the desk must refuse on its own.
      browser = await launchChromium({
        args: [
          '--host-resolver-rules=MAP rebind.test 127.0.0.1',
          '--disable-features=BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults,LocalNetworkAccessChecks',
        ],
      });
      page = browser.page;
      expect(deskPort).not.toBe(String(evilPort));
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await new Promise((r) => evil?.close(r));
      await desk?.close();
      if (tmp) removeDir(tmp);
    });

    const nothingHappened = async () => {
      expect((await desk.p.rt.ctx.catalog.listBatches()).sort()).toEqual([victimBatch]);
      expect(await desk.p.listStored('uploads/')).toEqual([]);
      const kills = (await (await desk.fetch('/api/kills?since=1h')).json()) as { kills: unknown[] };
      expect(kills.kills).toEqual([]);
      const records = (await (await desk.fetch(`/api/batches/${victimBatch}/records`)).json()) as {
        records: Array<{ status: string }>;
      };
      expect(records.records.map((r) => r.status)).toEqual(['active']);
    };

    // localhost and 127.0.0.1 are different sites to a browser (Sec-Fetch-Site: cross-site); another
    // port of 127.0.0.1 is the same site but another origin (same-site): both refused.
    for (const [label, host] of [
      ['a cross-site page (localhost, the desk on 127.0.0.1)', 'localhost'],
      ['a same-site page of another origin (127.0.0.1, another port)', '127.0.0.1'],
    ] as const) {
      it(`${label}: a no-preflight multipart fetch carrying a kill notice is refused, nothing ingested or killed`, async () => {
        await page.goto(`http://${host}:${evilPort}/cats.html`);
        const answered = page.waitForResponse((r) => r.url() === `${desk.url}/api/feeds`);
        expect(await page.evaluate('window.fetchAttack()')).toBe('sent');
        const res = await answered;
        expect(res.status()).toBe(403);
        await nothingHappened();
      });

      it(`${label}: a plain form post of the same file lands on the refusal`, async () => {
        await page.goto(`http://${host}:${evilPort}/cats.html`);
        const landed = page.waitForNavigation({ url: `${desk.url}/api/feeds` });
        await page.evaluate('window.formAttack()');
        const res = (await landed)!;
        expect(res.status()).toBe(403);
        // The refusal names what Chromium said of the page: localhost and 127.0.0.1 are two sites; another port is the same site.
        const site = host === 'localhost' ? 'cross-site' : 'same-site';
        expect(JSON.parse(await res.text())).toMatchObject({
          error: 'CROSS_SITE_REFUSED',
          message: expect.stringContaining(`comes from a ${site} page (Sec-Fetch-Site)`),
        });
        await nothingHappened();
      });
    }

    it('a DNS-rebinding page (its own name now resolving to 127.0.0.1) cannot read the catalog: 421 HOST_NOT_ALLOWED', async () => {
      const deskPort = new URL(desk.url).port;
      const origin = `http://rebind.test:${deskPort}`;
      // The attacker's server answered the first lookup: its page, under its own name and the desk's port.
      await page.route(`${origin}/cats.html`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: attackPage(origin) }),
      );
      await page.goto(`${origin}/cats.html`);
      // The page's same-origin fetch now reaches the desk (the name resolves to 127.0.0.1), with Host: rebind.test:<port>.
      const got = (await page.evaluate('window.readCatalog()')) as { status: number; body: string };
      expect(got.status).toBe(421);
      expect(JSON.parse(got.body)).toMatchObject({ error: 'HOST_NOT_ALLOWED' });
      expect(got.body).not.toContain(victimBatch);
      // A change asked the same way is refused too, before its body is read.
      const feeds = page.waitForResponse((r) => r.url() === `${origin}/api/feeds`);
      await page.evaluate('window.fetchAttack()');
      expect((await feeds).status()).toBe(421);
      await nothingHappened();
    });

    it('the desk itself still works: its page lists the batch and its own kill button reaches the API', async () => {
      await page.goto(`${desk.url}/`);
      await page.locator(`.batch-item[data-batch-id="${victimBatch}"]`).waitFor();
      const ok = (await page.evaluate(
        `fetch('/api/kills', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ target: 'SOMETHING-ELSE', reason: 'a real kill from the desk page' }) }).then((r) => r.status)`,
      )) as number;
      expect(ok).toBe(201);
    });

    it('the queue board runs under its Content-Security-Policy: it renders, and Chromium reports no violation', async () => {
      const violations: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
      });
      const res = await page.goto(`${desk.url}/admin/queues`);
      expect(res!.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      await page.getByText('photowire-item').first().waitFor({ timeout: 15_000 });
      await page.waitForLoadState('networkidle');
      expect(violations).toEqual([]);
    });
  },
);
