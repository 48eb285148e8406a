import { existsSync, readdirSync } from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { BOARD_CSP } from '../../src/server/guards';
import { HostPolicy, crossSiteRefusal, parseHostName } from '../../src/server/sameOrigin';
import { scaledMs } from '../helpers/deadline';

/**
 * Attacks on the desk's HTTP server from the network and from other pages (docs/RELIABILITY.md
 * "Attacks"): forged Host headers (DNS rebinding), cross-site requests, slow and many clients, the
 * queue board's headers. Each against a real server on 127.0.0.1 with real Redis. The browser side
 * of the cross-site attack is test/browser/attacks.crossSite.test.ts.
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request over plain HTTP, every header as given (fetch would not let a test set Host). */
function raw(
  url: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const json = (a: Answer) =>
  JSON.parse(a.body) as { error?: string; message?: string; batches?: Array<{ id: string }>; kill?: unknown };

function multipart(files: Array<{ name: string; body: string }>): { body: Buffer; type: string } {
  const boundary = 'attackboundary7d3f';
  const parts = files.map(
    (f) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n${f.body}\r\n`,
  );
  return {
    body: Buffer.from(parts.join('') + `--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Wait until `check` holds, asking again each turn of the event loop's timers; fail after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const limit = scaledMs(ms); // scaled by the load (test/helpers/deadline.ts)
  const end = Date.now() + limit;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${limit} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const KILL_FEED =
  '{"id":"EVILKILL1","headline":"MANDATORY KILL","caption":"MANDATORY KILL: The photo (transmission reference LON805) has been retracted. (AP Photo)","specialInstructions":"MANDATORY KILL: transmission reference LON805. PLEASE DELETE FROM ALL YOUR SYSTEMS."}\n';

describe('Host and Origin (a loopback desk without a token)', () => {
  let desk: Desk;
  let hostPort: string;
  beforeAll(async () => {
    desk = await startDesk({
      token: null,
      workers: false,
      overrides: { PHOTOWIRE_ALLOWED_HOSTS: 'desk.example.org, proxy.example.org:8443' },
    });
    hostPort = new URL(desk.url).host;
  });
  afterAll(async () => desk?.close());

  it('reads Host headers as a browser sends them', () => {
    expect(parseHostName('LOCALHOST:8080')).toEqual({ name: 'localhost', port: 8080 });
    expect(parseHostName('[::1]:80')).toEqual({ name: '[::1]', port: 80 });
    expect(parseHostName('127.1:9')).toEqual({ name: '127.0.0.1', port: 9 });
    expect(parseHostName('desk.example.org')).toEqual({ name: 'desk.example.org', port: null });
    for (const bad of [undefined, '', 'a b', 'x/y', 'user@127.0.0.1', '127.0.0.1:8080/evil', '[::1'])
      expect([bad, parseHostName(bad)]).toEqual([bad, null]);
  });

  it('answers 421 HOST_NOT_ALLOWED to a Host that is not one of its addresses (DNS rebinding), on every kind of route', async () => {
    const port = new URL(desk.url).port;
    for (const host of [
      `evil.example:${port}`,
      `rebind.127.0.0.1.nip.io:${port}`,
      `127.0.0.1:${Number(port) + 1}`,
      'localhost',
      `desk.example.org.evil:${port}`,
    ]) {
      for (const p of ['/api/batches', '/', '/healthz', '/admin/queues', '/openapi.json']) {
        const a = await raw(desk.url, { path: p, headers: { Host: host } });
        expect([host, p, a.status, json(a).error]).toEqual([host, p, 421, 'HOST_NOT_ALLOWED']);
        expect(a.body).not.toContain('"batches"');
      }
    }
    // HTTP/1.0 may leave Host out: no name, no answer.
    const noHost = await new Promise<string>((resolve, reject) => {
      const u = new URL(desk.url);
      const sock = net.connect(Number(u.port), u.hostname, () => sock.write('GET /api/batches HTTP/1.0\r\n\r\n'));
      let got = '';
      sock.setEncoding('utf8');
      sock.on('data', (d) => (got += d));
      sock.on('end', () => resolve(got));
      sock.on('error', reject);
    });
    expect(noHost).toMatch(/^HTTP\/1\.[01] 421 /);
    expect(noHost).toContain('HOST_NOT_ALLOWED');
    // A refused upload is never read, and the connection is closed after the answer.
    const form = multipart([{ name: 'kill.ndjson', body: KILL_FEED }]);
    const up = await raw(desk.url, {
      method: 'POST',
      path: '/api/feeds',
      headers: { Host: `evil.example:${port}`, 'Content-Type': form.type },
      body: form.body,
    });
    expect([up.status, json(up).error]).toEqual([421, 'HOST_NOT_ALLOWED']);
    expect(await desk.p.rt.ctx.catalog.listBatches()).toEqual([]);
  });

  it('answers its own names: the bound address, localhost, [::1], and PHOTOWIRE_ALLOWED_HOSTS', async () => {
    const port = new URL(desk.url).port;
    for (const host of [
      hostPort,
      `localhost:${port}`,
      `LocalHost:${port}`,
      `[::1]:${port}`,
      `desk.example.org:${port}`,
      'desk.example.org',
      'proxy.example.org:8443',
    ]) {
      const a = await raw(desk.url, { path: '/api/batches', headers: { Host: host } });
      expect([host, a.status]).toEqual([host, 200]);
    }
    expect((await raw(desk.url, { path: '/api/batches', headers: { Host: 'proxy.example.org:8444' } })).status).toBe(
      421,
    );
  });

  it('refuses a change asked by a page of another site or origin (403 CROSS_SITE_REFUSED), before reading its body', async () => {
    const form = multipart([{ name: 'kill.ndjson', body: KILL_FEED }]);
    const attempts: Array<Record<string, string>> = [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' },
      { 'Sec-Fetch-Site': 'same-site', Origin: `http://127.0.0.1:1` }, // another port of this machine
      { 'Sec-Fetch-Site': 'none' },
      { Origin: 'http://evil.example' }, // a browser without Sec-Fetch-Site
      { Origin: 'null' }, // a sandboxed frame or a file:// page
      { Origin: `http://${hostPort}.evil.example` },
      { Origin: 'http://localhost:1' },
    ];
    for (const h of attempts) {
      const a = await raw(desk.url, {
        method: 'POST',
        path: '/api/feeds',
        headers: { Host: hostPort, 'Content-Type': form.type, ...h },
        body: form.body,
      });
      expect([h, a.status, json(a).error]).toEqual([h, 403, 'CROSS_SITE_REFUSED']);
      expect(a.headers.connection).toBe('close');
      const kill = await raw(desk.url, {
        method: 'POST',
        path: '/api/kills',
        headers: { Host: hostPort, 'Content-Type': 'application/json', ...h },
        body: JSON.stringify({ target: 'LON805', reason: 'forged' }),
      });
      expect([h, kill.status, json(kill).error]).toEqual([h, 403, 'CROSS_SITE_REFUSED']);
    }
    expect(await desk.p.rt.ctx.catalog.listBatches()).toEqual([]);
    const uploads = path.join(desk.p.config.dataDir, 'uploads');
    expect(existsSync(uploads) ? readdirSync(uploads) : []).toEqual([]);
    const kills = json(await raw(desk.url, { path: '/api/kills?since=1h', headers: { Host: hostPort } })) as {
      kills: unknown[];
    };
    expect(kills.kills).toEqual([]);
  });

  it("takes the desk's own page (same-origin) and clients that are not browsers (no Origin, no Sec-Fetch-Site: curl, the CLI)", async () => {
    const port = new URL(desk.url).port;
    const ok = async (h: Record<string, string>, target: string) => {
      const a = await raw(desk.url, {
        method: 'POST',
        path: '/api/kills',
        headers: { Host: hostPort, 'Content-Type': 'application/json', ...h },
        body: JSON.stringify({ target, reason: 'a real kill from the desk' }),
      });
      expect([h, a.status]).toEqual([h, 201]);
    };
    await ok({ 'Sec-Fetch-Site': 'same-origin', Origin: desk.url }, 'SAME1');
    await ok({ Origin: desk.url }, 'SAME2');
    await ok({ Origin: `http://localhost:${port}` }, 'SAME3'); // the page opened as localhost, Host rewritten by nothing
    await ok({ Origin: 'https://desk.example.org' }, 'PROXY1'); // behind a TLS proxy that sends Host as 127.0.0.1:port
    await ok({}, 'CURL1');
    const got = await fetch(`${desk.url}/api/kills`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ target: 'NODE1', reason: 'node fetch' }),
    });
    expect(got.status).toBe(201);
    // GET stays open to reads from anywhere the Host check lets through (no CORS headers: another page cannot read them).
    const list = await raw(desk.url, {
      path: '/api/batches',
      headers: { Host: hostPort, 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' },
    });
    expect(list.status).toBe(200);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('decides Origin and Sec-Fetch-Site by one rule (unit)', () => {
    const hosts = new HostPolicy(['desk.example.org'], () => ({ address: '127.0.0.1', family: 'IPv4', port: 8080 }));
    const ask = (method: string, headers: Record<string, string>) =>
      crossSiteRefusal({ method, headers: { host: '127.0.0.1:8080', ...headers } }, hosts);
    expect(ask('GET', { 'sec-fetch-site': 'cross-site' })).toBeNull();
    expect(ask('POST', {})).toBeNull();
    expect(ask('POST', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8080' })).toBeNull();
    expect(ask('DELETE', { origin: 'http://evil.example' })).toMatch(/another origin/);
    expect(ask('PUT', { 'sec-fetch-site': 'weird\nINFO forged' })).toMatch(/an unknown place/);
    expect(ask('PATCH', { origin: 'http://evil.example\nINFO batch done' })).not.toMatch(/\n/);
    expect(ask('POST', { origin: 'https://desk.example.org' })).toBeNull();
    expect(hosts.allows('localhost:8080')).toBe(true);
    expect(hosts.allows('localhost:8081')).toBe(false);
    const wildcard = new HostPolicy([], () => ({ address: '0.0.0.0', family: 'IPv4', port: 8080 }));
    expect(wildcard.allows('127.0.0.1:8080')).toBe(true);
    expect(wildcard.allows('evil.example:8080')).toBe(false);
  });
});

describe('slow and many clients', () => {
  let desk: Desk;
  const TOKEN_HEADERS = (d: Desk) => ({ Authorization: `Bearer ${d.token}` });
  beforeAll(async () => {
    desk = await startDesk({
      workers: false,
      overrides: {
        PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS: '3000',
        PHOTOWIRE_HTTP_BODY_IDLE_MS: '500',
        PHOTOWIRE_UPLOADS_PER_CLIENT: '2',
        PHOTOWIRE_EVENT_STREAMS_PER_CLIENT: '3',
      },
    });
  });
  afterAll(async () => desk?.close());

  /** A raw connection sending an upload's headers and the start of its body; the rest is up to the test. */
  function openUpload(
    d: Desk,
    declared: number,
  ): { socket: net.Socket; closed: Promise<number>; answer: () => string } {
    const u = new URL(d.url);
    const socket = net.connect(Number(u.port), u.hostname);
    const started = Date.now();
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (c) => (answer += c));
    socket.on('error', () => {});
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    const head =
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
    socket.write(
      `POST /api/feeds HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${d.token}\r\nContent-Type: multipart/form-data; boundary=b0undary\r\nContent-Length: ${head.length + declared}\r\n\r\n${head}`,
    );
    return { socket, closed, answer: () => answer };
  }

  it('cuts an upload whose body is trickled (a byte every 200 ms) at PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS, keeping nothing', async () => {
    const up = openUpload(desk, 1_000_000);
    let sent = 0;
    const trickle = setInterval(() => {
      if (!up.socket.destroyed) up.socket.write('x');
      sent++;
    }, 200);
    // Before the fix the server kept it open for good: give up on it at 20 s.
    const giveUp = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 20_000).unref());
    const after = await Promise.race([up.closed, giveUp]);
    clearInterval(trickle);
    up.socket.destroy();
    expect(after).toBeGreaterThan(0);
    expect(after).toBeGreaterThanOrEqual(2900); // the whole-request deadline, not the idle one: a byte came every 200 ms
    expect(sent).toBeGreaterThan(10);
    await until(
      () =>
        !existsSync(path.join(desk.p.config.dataDir, 'tmp')) ||
        readdirSync(path.join(desk.p.config.dataDir, 'tmp')).length === 0,
      10_000,
      'the upload scratch files to go',
    );
    expect(await desk.p.listStored('uploads/')).toEqual([]);
    expect(await desk.p.rt.ctx.catalog.listBatches()).toEqual([]);
  }, 30_000);

  it('cuts an upload whose body stops (nothing for PHOTOWIRE_HTTP_BODY_IDLE_MS), long before the request deadline', async () => {
    const up = openUpload(desk, 1_000_000);
    up.socket.write('partial bytes of a photo');
    const giveUp = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 20_000).unref());
    const after = await Promise.race([up.closed, giveUp]);
    up.socket.destroy();
    expect(after).toBeGreaterThanOrEqual(450);
    expect(after).toBeLessThan(2900);
    expect(await desk.p.rt.ctx.catalog.listBatches()).toEqual([]);
  }, 30_000);

  it('refuses a third upload in flight from one client (PHOTOWIRE_UPLOADS_PER_CLIENT=2) with 429 TOO_MANY_OPEN, and takes one again when a slot frees', async () => {
    const a = openUpload(desk, 1_000_000);
    const b = openUpload(desk, 1_000_000);
    // Both are in the handler once they have answered nothing yet and the server holds their slots: wait on the refusal itself.
    const keepAlive = setInterval(() => [a, b].forEach((u) => !u.socket.destroyed && u.socket.write('y')), 100);
    try {
      const form = multipart([{ name: 'kill.ndjson', body: KILL_FEED }]);
      let third: Answer | null = null;
      await until(
        async () => {
          third = await raw(desk.url, {
            method: 'POST',
            path: '/api/feeds',
            headers: { ...TOKEN_HEADERS(desk), 'Content-Type': form.type },
            body: form.body,
          });
          if (third.status === 202) throw new Error('the third upload was taken while two were in flight');
          return third.status === 429;
        },
        10_000,
        'the third upload to be refused',
      );
      expect(json(third!)).toMatchObject({
        error: 'TOO_MANY_OPEN',
        message: expect.stringContaining('PHOTOWIRE_UPLOADS_PER_CLIENT'),
      });
      a.socket.destroy();
      await a.closed;
      await until(
        async () => {
          const again = await raw(desk.url, {
            method: 'POST',
            path: '/api/feeds',
            headers: { ...TOKEN_HEADERS(desk), 'Content-Type': form.type },
            body: form.body,
          });
          return again.status === 202;
        },
        10_000,
        'an upload to be taken once a slot is free',
      );
    } finally {
      clearInterval(keepAlive);
      a.socket.destroy();
      b.socket.destroy();
    }
  }, 30_000);

  it('holds at most PHOTOWIRE_EVENT_STREAMS_PER_CLIENT event streams per client: the extra one is 429 TOO_MANY_OPEN', async () => {
    const controllers = Array.from({ length: 3 }, () => new AbortController());
    try {
      const open = await Promise.all(controllers.map((c) => desk.fetch('/api/events', { signal: c.signal })));
      expect(open.map((r) => r.status)).toEqual([200, 200, 200]);
      const extra = await desk.fetch('/api/events');
      expect(extra.status).toBe(429);
      expect(await extra.json()).toMatchObject({
        error: 'TOO_MANY_OPEN',
        message: expect.stringContaining('PHOTOWIRE_EVENT_STREAMS_PER_CLIENT'),
      });
      controllers[0].abort();
      await until(
        async () => {
          const c = new AbortController();
          controllers.push(c);
          const r = await desk.fetch('/api/events', { signal: c.signal });
          if (r.status === 200) return true;
          await r.body?.cancel();
          return false;
        },
        10_000,
        'a stream slot to free',
      );
    } finally {
      controllers.forEach((c) => c.abort());
    }
  });
});

describe('event streams share one poller', () => {
  let desk: Desk;
  beforeAll(async () => {
    // A keep-alive comment on every tick, so each stream's messages count the ticks it saw.
    desk = await startDesk({
      workers: false,
      overrides: { PHOTOWIRE_EVENT_STREAMS_PER_CLIENT: '100' },
      server: { eventsIntervalMs: 100, eventsHeartbeatMs: 0 },
    });
  });
  afterAll(async () => desk?.close());

  /** Open `n` streams; resolves with a function giving each stream's count of messages so far. */
  async function openStreams(n: number): Promise<{ counts: () => number[]; close: () => void }> {
    const controllers = Array.from({ length: n }, () => new AbortController());
    const counts = Array(n).fill(0) as number[];
    const responses = await Promise.all(controllers.map((c) => desk.fetch('/api/events', { signal: c.signal })));
    expect(responses.map((r) => r.status)).toEqual(Array(n).fill(200));
    responses.forEach((r, i) => {
      void (async () => {
        const reader = r.body!.getReader();
        const dec = new TextDecoder();
        try {
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            counts[i] += (dec.decode(value, { stream: true }).match(/\n\n/g) ?? []).length;
          }
        } catch {
          // aborted
        }
      })();
    });
    return { counts: () => counts, close: () => controllers.forEach((c) => c.abort()) };
  }

  /** Redis commands the server sends while stream 0 receives `ticks` more messages. */
  async function commandsOver(streams: { counts: () => number[] }, ticks: number): Promise<number> {
    const redis = desk.p.rt.redis as unknown as { sendCommand: (...a: unknown[]) => unknown };
    const original = redis.sendCommand;
    let n = 0;
    await until(() => streams.counts()[0] >= 2, 10_000, 'the first messages');
    redis.sendCommand = function (this: unknown, ...a: unknown[]) {
      n++;
      return original.apply(this, a);
    };
    try {
      const from = streams.counts()[0];
      await until(() => streams.counts()[0] >= from + ticks, 20_000, `${ticks} ticks`);
    } finally {
      redis.sendCommand = original;
    }
    return n;
  }

  it('reads the batches once per tick whatever the number of streams, and /healthz answers meanwhile', async () => {
    const one = await openStreams(1);
    const alone = await commandsOver(one, 10);
    one.close();
    await until(() => desk.app.eventHub.stats.streams === 0, 10_000, 'the stream to close');

    const many = await openStreams(40);
    try {
      const crowded = await commandsOver(many, 10);
      if (process.env.PHOTOWIRE_PRINT_TIMINGS)
        process.stderr.write(`redis commands over 10 ticks: 1 stream ${alone}, 40 streams ${crowded}\n`);
      // Before: one poller per stream, 40 times the commands (measured on a busy 2-core box: 20 alone, 750 with 40 streams).
      expect(crowded).toBeLessThan(alone * 3);
      expect(desk.app.eventHub.stats).toEqual({ streams: 40, queries: 1, pollers: 1 });
      const health = await desk.fetch('/healthz');
      expect(await health.json()).toEqual({ ok: true, redis: 'PONG' });
      // Every stream saw the ticks, not only the first.
      expect(Math.min(...many.counts())).toBeGreaterThan(2);
    } finally {
      many.close();
    }
    await until(() => desk.app.eventHub.stats.pollers === 0, 10_000, 'the poller to stop with the last stream');
  }, 60_000);
});

describe("the queue board's headers", () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ workers: false });
  });
  afterAll(async () => desk?.close());

  it("answers /admin/queues (page, API, files) with a CSP that refuses framing, like the desk's page", async () => {
    const page = await desk.fetch('/admin/queues');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toBe(BOARD_CSP);
    expect(BOARD_CSP).toMatch(/frame-ancestors 'none'/);
    expect(BOARD_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const api = await desk.fetch('/admin/queues/api/queues');
    expect(api.status).toBe(200);
    expect(api.headers.get('content-security-policy')).toBe(BOARD_CSP);
    const script = /src="(static\/js\/[^"]+\.js)"/.exec(html)![1];
    const file = await desk.fetch(`/admin/queues/${script}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-security-policy')).toBe(BOARD_CSP);
    // The desk's page keeps its own.
    const desksPage = await desk.fetch('/', { auth: false });
    expect(desksPage.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });
});
