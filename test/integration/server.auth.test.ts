import * as http from 'node:http';
import { Job, Queue } from 'bullmq';
import { startDesk, type Desk } from '../helpers/deskServer';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { QUEUES, jobIds, queuePrefix } from '../../src/queues/definitions';
import { writeDeskPhotoFeed } from '../browser/deskFixture';
import { scaledMs } from '../helpers/deadline';

/**
 * Attack 1 of issue 18: the desk's token guard tested the raw URL while the router decodes it, so
 * `GET /%61pi/batches` reached the handler without a token. Every route fastify holds is tried
 * here, over real HTTP against a real server, in every spelling a router or proxy might fold onto
 * it; without a token none may reach a handler.
 */
jest.setTimeout(scaledMs(120_000));

interface Answer {
  status: number;
  body: string;
}

/** One request with the path sent byte for byte (fetch would normalise `/./`, `\` and `%61`). */
function rawRequest(
  base: string,
  method: string,
  rawPath: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path: rawPath,
        headers: {
          ...headers,
          ...(body !== undefined
            ? { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) }
            : {}),
        },
        agent: false,
      },
      (res) => {
        // An event stream never ends: its status is enough.
        if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, body: '(event stream)' });
          return;
        }
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(5000, () => {
      req.destroy();
      resolve({ status: 0, body: '(no answer within 5 s)' });
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const encodeChar = (c: string) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Spellings of one concrete path that a lenient router, a proxy or a file system might take for
 * it: percent-encoded letters (one, all, upper-case hex), double-encoded, mixed case, doubled
 * slashes, `/./`, trailing dots, backslashes, `..` detours and a NUL.
 */
function spellings(p: string): string[] {
  const segs = p.split('/').slice(1);
  const first = segs[0];
  const rest = '/' + segs.slice(1).join('/');
  const tail = segs.slice(1).join('/');
  const out = [
    p,
    `/${encodeChar(first[0])}${first.slice(1)}${rest}`,
    `/${encodeChar(first[0]).toUpperCase()}${first.slice(1)}${rest}`,
    '/' + segs.map((s) => [...s].map(encodeChar).join('')).join('/'),
    '/' + segs.map((s) => (s ? encodeChar(s[0]) + s.slice(1) : s)).join('/'),
    `/%25${encodeChar(first[0]).slice(1)}${first.slice(1)}${rest}`,
    `/${first.toUpperCase()}${rest}`,
    `/${first[0].toUpperCase()}${first.slice(1)}${rest.toUpperCase()}`,
    p.toUpperCase(),
    `/${p}`,
    p.replace(/\//g, '//'),
    `/${first}//${tail}`,
    `/./${p.slice(1)}`,
    `/${first}/./${tail}`,
    p.replace(/\//g, '/./'),
    `${p}.`,
    `/${first}./${tail}`,
    `${p}/.`,
    `${p}/`,
    `/${first}\\${tail.replace(/\//g, '\\')}`,
    `/${first}%5c${tail}`,
    `/\\${first}/${tail}`,
    `/x/../${p.slice(1)}`,
    `/${first}/x/..${rest}`,
    `/${first}%2f${tail}`,
    `/${first}%2F${tail}`,
    `${p}%00`,
    `/${first};x${rest}`,
    `${p};`,
    `${p}?x=1`,
  ];
  return [...new Set(out)];
}

describe('the desk refuses every spelling of every protected route without the token (real server, real HTTP)', () => {
  let desk: Desk;
  let feed: string;
  const values: Record<string, string> = {};

  beforeAll(async () => {
    feed = makeTmpDir('auth-feed');
    desk = await startDesk({ server: { rateLimit: 1_000_000 } });
    // Real things behind every parameter: a handler reached by a bypass answers 200, not "no such batch".
    await writeDeskPhotoFeed(feed);
    const [o] = await ingestPaths(desk.p.rt, [feed]);
    await waitForBatches(desk.p.rt, [o.batchId!], { progress: false, timeoutMs: 60_000 });
    const records = await desk.p.rt.ctx.catalog.getRecords(o.batchId!);
    const withRendition = records.find((r) => r.renditions.length > 0)!;
    const rendition = withRendition.renditions[0].path.split('/'); // renditions/ab/cd/<sha>/thumb.webp
    const failed = records.find((r) => r.error)!;
    Object.assign(values, {
      batchId: o.batchId!,
      itemId: failed.id,
      clusterId: records.find((r) => r.cluster)!.cluster!.id,
      storyId: records.find((r) => r.story)!.story!.id,
      a: rendition[1],
      b: rendition[2],
      sha256: rendition[3],
      file: rendition[4],
      queueName: QUEUES.item,
      jobId: jobIds.item(failed.id),
      queueStatus: 'failed',
      schedulerId: 'nightly',
      '*': 'images/logo.svg',
    });
  });
  afterAll(async () => {
    await desk?.close();
    removeDir(feed);
  });

  const concrete = (url: string) =>
    url.replace(/:(\w+)|\*/g, (m, name: string | undefined) => values[name ?? '*'] ?? 'x');

  it('knows its routes from fastify, and only the page, /openapi.json and /healthz are public', () => {
    const table = desk.app.routeTable;
    expect(table.length).toBeGreaterThan(40);
    const publicRoutes = [
      ...new Set(table.filter((r) => r.access === 'public').map((r) => `${r.method} ${r.url}`)),
    ].sort();
    expect(publicRoutes).toEqual([
      'GET /*',
      'GET /healthz',
      'GET /openapi.json',
      'HEAD /*',
      'HEAD /healthz',
      'HEAD /openapi.json',
    ]);
    // With the token, the plain spelling of a protected route reaches its handler (the values are real).
    expect(table.some((r) => r.url === '/api/batches/:batchId/records')).toBe(true);
    expect(table.some((r) => r.url.startsWith('/admin/queues/api/queues/:queueName/') && r.method === 'PUT')).toBe(
      true,
    );
  });

  it('answers 401 or "no route" to each, and never runs a handler', async () => {
    const reached: string[] = [];
    let tried = 0;
    const protectedRoutes = desk.app.routeTable.filter((r) => r.access !== 'public');
    for (const route of protectedRoutes) {
      const body = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) ? '{}' : undefined;
      for (const spelled of spellings(concrete(route.url))) {
        tried++;
        const res = await rawRequest(desk.url, route.method, spelled, {}, body);
        const refused = res.status === 401 && (route.method === 'HEAD' || /"UNAUTHORIZED"/.test(res.body));
        // A 404 counts only when no route matched: a handler's own 404 ("no batch ...") means it ran.
        const noRoute = res.status === 404 && (route.method === 'HEAD' || /"no route /.test(res.body));
        if (!refused && !noRoute) reached.push(`${route.method} ${spelled} -> ${res.status} ${res.body.slice(0, 120)}`);
      }
    }
    expect(tried).toBeGreaterThan(1000);
    expect(reached).toEqual([]);
    // The same requests with the token do reach the handlers: the values behind the parameters are real.
    const withToken: string[] = [];
    for (const route of protectedRoutes.filter((r) => r.method === 'GET')) {
      withToken.push(
        `${route.url} ${(await rawRequest(desk.url, 'GET', concrete(route.url), { Authorization: `Bearer ${desk.token}` })).status}`,
      );
    }
    expect(withToken).toEqual(protectedRoutes.filter((r) => r.method === 'GET').map((r) => `${r.url} 200`));
    // Nothing was done through the board either: the item queue runs and still holds its jobs.
    const q = new Queue(QUEUES.item, { connection: desk.p.rt.redis, prefix: queuePrefix(desk.p.config.prefix) });
    try {
      expect(await q.isPaused()).toBe(false);
      expect(await Job.fromId(q, values.jobId)).toBeTruthy();
    } finally {
      await q.close();
    }
  });

  it('rate-limits every spelling of the API as the API', async () => {
    const limited = await startDesk({ workers: false, server: { rateLimit: 5 } });
    try {
      const statuses: number[] = [];
      for (const p of ['/%61pi/batches', '/api/%62atches', '/%61%70%69/batches', '/api/batches']) {
        for (let i = 0; i < 3; i++)
          statuses.push((await rawRequest(limited.url, 'GET', p, { Authorization: `Bearer ${limited.token}` })).status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      // The board is behind the limit too; the page and health check are not.
      expect(
        (
          await rawRequest(limited.url, 'GET', '/%61dmin/queues/api/queues', {
            Authorization: `Bearer ${limited.token}`,
          })
        ).status,
      ).toBe(429);
      expect((await rawRequest(limited.url, 'GET', '/healthz')).status).toBe(200);
      expect((await rawRequest(limited.url, 'GET', '/')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the queue board', () => {
  const auth = (token: string | null) => ({ Authorization: `Bearer ${token}` });

  it('is read-only unless PHOTOWIRE_BOARD_WRITE=1, even with the token', async () => {
    const desk = await startDesk({ workers: false });
    try {
      const q = new Queue(QUEUES.item, { connection: desk.p.rt.redis, prefix: queuePrefix(desk.p.config.prefix) });
      try {
        await q.add('probe', {}, { jobId: 'probe-1' });
        for (const [method, p] of [
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/pause`],
          ['PUT', '/admin/queues/api/queues/pause'],
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/empty`],
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/clean/completed`],
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/retry/failed`],
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/probe-1/clean`],
          ['PUT', `/admin/queues/api/queues/${QUEUES.item}/obliterate`],
          ['POST', `/admin/queues/api/queues/${QUEUES.item}/add`],
        ] as const) {
          const res = await rawRequest(desk.url, method, p, auth(desk.token), '{}');
          expect([method, p, res.status, res.body.includes('BOARD_READ_ONLY')]).toEqual([method, p, 403, true]);
        }
        expect(await q.isPaused()).toBe(false);
        expect(await q.getJob('probe-1')).toBeTruthy();
        // Reading still works.
        expect(
          (
            await rawRequest(
              desk.url,
              'GET',
              '/admin/queues/api/queues?activeQueue=photowire-item&page=1&jobsPerPage=10',
              auth(desk.token),
            )
          ).status,
        ).toBe(200);
      } finally {
        await q.close();
      }
    } finally {
      await desk.close();
    }
  });

  it('with PHOTOWIRE_BOARD_WRITE=1 pauses and resumes with the token, and never without', async () => {
    const desk = await startDesk({ workers: false, overrides: { PHOTOWIRE_BOARD_WRITE: '1' } });
    try {
      const q = new Queue(QUEUES.item, { connection: desk.p.rt.redis, prefix: queuePrefix(desk.p.config.prefix) });
      try {
        const pause = `/admin/queues/api/queues/${QUEUES.item}/pause`;
        expect((await rawRequest(desk.url, 'PUT', pause, {}, '{}')).status).toBe(401);
        expect((await rawRequest(desk.url, 'PUT', pause.replace('/admin', '/%61dmin'), {}, '{}')).status).toBe(401);
        expect(await q.isPaused()).toBe(false);
        expect((await rawRequest(desk.url, 'PUT', pause, auth(desk.token), '{}')).status).toBe(200);
        expect(await q.isPaused()).toBe(true);
        expect(
          (await rawRequest(desk.url, 'PUT', `/admin/queues/api/queues/${QUEUES.item}/resume`, auth(desk.token), '{}'))
            .status,
        ).toBe(200);
        expect(await q.isPaused()).toBe(false);
      } finally {
        await q.close();
      }
    } finally {
      await desk.close();
    }
  });
});
