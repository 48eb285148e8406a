// First: it stands in for content-disposition before the server's modules load (see deskServer.ts).
import { startDesk, type Desk } from '../helpers/deskServer';
import { randomBytes } from 'node:crypto';
import type { S3Storage } from '../../src/adapters/storage/s3Storage';
import { renditionKey } from '../../src/core/storageKeys';
import type { CatalogRecord } from '../../src/schemas/record';
import { startServer } from '../../src/server/startServer';
import { cephRgw, type S3Env } from '../helpers/services';
import { createBucket, dropBucket, s3Storage, uniqueBucket } from '../helpers/s3Bucket';

/**
 * The desk's renditions from S3 storage, against a real Ceph RGW: by default a 302 to
 * a short-lived presigned GET that answers with the rendition's bytes, type and immutable caching
 * (the redirect itself cached briefly); with PHOTOWIRE_STORAGE_PROXY=1 the bytes come through the
 * server. An unknown rendition is a 404 either way, and no credential leaves in a header.
 */
const rgw = cephRgw();

rgw.describe('renditions served from S3 storage (Ceph RGW)', () => {
  const bucket = uniqueBucket('desk');
  let env: S3Env;
  let storage: S3Storage;
  let desk: Desk;
  let proxied: { url: string; close: () => Promise<void> };
  const sha = randomBytes(32).toString('hex');
  const thumb = randomBytes(5000);
  const preview = randomBytes(20000);
  const path = (file: string, s = sha) => `/api/renditions/${s.slice(0, 2)}/${s.slice(2, 4)}/${s}/${file}`;
  const auth = () => ({ Authorization: `Bearer ${desk.token}` });

  beforeAll(async () => {
    await rgw.start();
    env = rgw.env();
    await createBucket(env, bucket);
    storage = s3Storage(env, `s3://${bucket}/desk`);
    await storage.open();
    // Stored as the workers store them, but without the headers: the presigned GET must set them itself.
    await storage.put(renditionKey(sha, 'thumb.webp'), thumb);
    await storage.put(renditionKey(sha, 'preview.jpg'), preview);
    desk = await startDesk({ workers: false, server: { storage } });
    const s = await startServer(
      desk.p.rt,
      { host: '127.0.0.1', port: 0 },
      { token: desk.token, storage, storageProxy: true },
    );
    proxied = { url: s.url, close: () => s.app.close() };
  }, 600_000);

  afterAll(async () => {
    await proxied?.close();
    await desk?.close();
    await storage?.close();
    if (env) await dropBucket(env, bucket);
    await rgw.stop();
  }, 120_000);

  it('redirects to a presigned URL whose answer is the object, immutable, with its type', async () => {
    const res = await fetch(desk.url + path('thumb.webp'), { headers: auth(), redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    const location = res.headers.get('location')!;
    const url = new URL(location);
    expect(url.origin).toBe(new URL(env.S3_ENDPOINT).origin);
    expect(url.pathname).toBe(`/${bucket}/desk/${renditionKey(sha, 'thumb.webp')}`);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(900);
    // The presigned query names the access key (as every SigV4 URL does) and signs; the secret is nowhere.
    const headers = [...res.headers.entries()];
    expect(
      headers.filter(([k, v]) => k !== 'location' && (v.includes(env.AWS_ACCESS_KEY_ID) || /X-Amz-/i.test(v))),
    ).toEqual([]);
    expect(JSON.stringify(headers)).not.toContain(env.AWS_SECRET_ACCESS_KEY);
    expect(JSON.stringify(headers)).not.toContain(encodeURIComponent(env.AWS_SECRET_ACCESS_KEY));

    const img = await fetch(location); // no token: the URL is the permission
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await img.arrayBuffer()).equals(thumb)).toBe(true);

    // Followed as a client would: the preview's bytes.
    const followed = await fetch(desk.url + path('preview.jpg'), { headers: auth() });
    expect([followed.status, followed.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(Buffer.from(await followed.arrayBuffer()).equals(preview)).toBe(true);
  });

  it('tells the page where the image is with ?as=url (JSON, same origin), and streams it in proxy mode', async () => {
    const res = await fetch(desk.url + path('thumb.webp') + '?as=url', { headers: auth(), redirect: 'manual' });
    expect([res.status, res.headers.get('content-type'), res.headers.get('cache-control')]).toEqual([
      200,
      'application/json; charset=utf-8',
      'private, max-age=300',
    ]);
    const { url } = (await res.json()) as { url: string };
    expect(new URL(url).origin).toBe(new URL(env.S3_ENDPOINT).origin);
    const img = await fetch(url);
    expect([img.status, img.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    expect(Buffer.from(await img.arrayBuffer()).equals(thumb)).toBe(true);
    // The page's CSP lets images (only) come from there.
    const page = await fetch(desk.url + '/');
    expect(page.headers.get('content-security-policy')).toContain(
      `img-src 'self' blob: data: ${new URL(env.S3_ENDPOINT).origin};`,
    );
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self';");

    const proxiedRes = await fetch(proxied.url + path('thumb.webp') + '?as=url', {
      headers: auth(),
      redirect: 'manual',
    });
    expect([proxiedRes.status, proxiedRes.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(Buffer.from(await proxiedRes.arrayBuffer()).equals(thumb)).toBe(true);
    expect((await fetch(proxied.url + '/')).headers.get('content-security-policy')).toContain(
      "img-src 'self' blob: data:;",
    );
  });

  it('streams the object through the server with PHOTOWIRE_STORAGE_PROXY=1', async () => {
    const res = await fetch(proxied.url + path('thumb.webp'), { headers: auth(), redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-length')).toBe(String(thumb.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(thumb)).toBe(true);
  });

  it('never redirects to a guarded photo: embargoed streamed private, no-store; killed 410 but for the Details view', async () => {
    // Two more rendition sets, listed as the catalog lists them when their records are stored
    // (src/adapters/redis/renditionOwners.ts): one of an embargoed photo, one of a photo killed on arrival.
    const held = randomBytes(32).toString('hex');
    const gone = randomBytes(32).toString('hex');
    for (const s of [held, gone]) await storage.put(renditionKey(s, 'thumb.webp'), thumb);
    const embargo = {
      type: 'embargo',
      at: '2099-01-01T00:01:00.000Z',
      text: 'EMBARGOED UNTIL 0001 GMT JANUARY 1, 2099',
      source: 'iptc:specialInstructions',
      rule: 'x',
      zone: null,
      assumed: [],
    };
    const owner = (id: string, s: string, extra: object) =>
      ({
        id,
        image: { sha256: s },
        renditions: [{ name: 'thumb' }],
        status: 'active',
        killedAt: null,
        reason: null,
        notice: null,
        supersededBy: null,
        ...extra,
      }) as unknown as CatalogRecord;
    await desk.p.rt.ctx.catalog.renditionOwners.remember([
      owner('s3-held-0001', held, {
        release: { embargoUntil: embargo, expires: null, found: [], raw: [], confidence: 'high', rulesVersion: 'x' },
      }),
      owner('s3-gone-0001', gone, { status: 'killed', killedAt: '2024-03-10T00:00:00.000Z', reason: 'MANDATORY KILL' }),
    ]);
    for (const q of ['', '?as=url']) {
      const res = await fetch(desk.url + path('thumb.webp', held) + q, { headers: auth(), redirect: 'manual' });
      expect([
        q,
        res.status,
        res.headers.get('location'),
        res.headers.get('content-type'),
        res.headers.get('cache-control'),
      ]).toEqual([q, 200, null, 'image/webp', 'private, no-store']);
      expect(Buffer.from(await res.arrayBuffer()).equals(thumb)).toBe(true);
      const killed = await fetch(desk.url + path('thumb.webp', gone) + q, { headers: auth(), redirect: 'manual' });
      expect([q, killed.status, killed.headers.get('location'), killed.headers.get('cache-control')]).toEqual([
        q,
        410,
        null,
        'private, no-store',
      ]);
      expect(((await killed.json()) as { error: string }).error).toBe('RENDITION_GONE');
      const details = await fetch(desk.url + path('thumb.webp', gone) + q, {
        headers: { ...auth(), 'x-photowire-view': 'details', 'sec-fetch-site': 'same-origin' },
        redirect: 'manual',
      });
      expect([q, details.status, details.headers.get('location'), details.headers.get('cache-control')]).toEqual([
        q,
        200,
        null,
        'private, no-store',
      ]);
      expect(Buffer.from(await details.arrayBuffer()).equals(thumb)).toBe(true);
    }
  });

  it('answers 404 for a rendition that is not there, or a path that is not one, in both modes', async () => {
    const other = randomBytes(32).toString('hex');
    for (const base of [desk.url, proxied.url]) {
      for (const p of [
        path('thumb.webp', other),
        path('renditions.json'),
        path('thumb.webp').replace(`/${sha.slice(0, 2)}/`, sha.startsWith('00') ? '/ff/' : '/00/'),
        path('x.webp'),
      ]) {
        const res = await fetch(base + p, { headers: auth(), redirect: 'manual' });
        expect([base, p, res.status]).toEqual([base, p, 404]);
        expect(((await res.json()) as { error: string }).error).toBe('NOT_FOUND');
      }
    }
    // And the token is needed first, as for every other API route.
    expect((await fetch(desk.url + path('thumb.webp'), { redirect: 'manual' })).status).toBe(401);
  });
});
