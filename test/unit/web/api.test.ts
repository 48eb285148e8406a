import { loadWebModule } from './loadWebModule';

interface ApiErrorLike extends Error {
  status: number;
  code: string;
}
interface Client {
  token: string | null;
  setToken(t: string | null): void;
  get(p: string): Promise<unknown>;
  post(p: string, body: unknown): Promise<{ status: number; body: unknown }>;
  allRecords(batchId: string, pageSize?: number): Promise<Array<{ id: string }>>;
  imageUrl(p: string, opts?: { details?: boolean }): Promise<string>;
  stream(p: string, on: (m: { event: string; data: string }) => void, signal?: AbortSignal): Promise<void>;
}
const { ApiClient } = loadWebModule<{ ApiClient: new (o: object) => Client }>('lib/api.js');

class MemoryStorage {
  private m = new Map<string, string>();
  getItem(k: string) {
    return this.m.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.m.set(k, v);
  }
  removeItem(k: string) {
    this.m.delete(k);
  }
}

type Call = { url: string; init: RequestInit & { headers: Record<string, string> } };
function fakeFetch(answer: (url: string, call: Call) => Response) {
  const calls: Call[] = [];
  const fetch = async (url: string, init: Call['init']) => {
    const call = { url, init };
    calls.push(call);
    return answer(url, call);
  };
  return { fetch, calls };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the desk API client', () => {
  it('sends the token it was given, kept in the tab storage, and none once signed out', async () => {
    const { fetch, calls } = fakeFetch(() => json({ batches: [] }));
    const storage = new MemoryStorage();
    const api = new ApiClient({ fetch, storage });
    await api.get('/api/batches');
    expect(calls[0].init.headers.Authorization).toBeUndefined();
    api.setToken('s3cret-token-of-the-desk');
    expect(new ApiClient({ fetch, storage }).token).toBe('s3cret-token-of-the-desk');
    await api.get('/api/batches');
    expect(calls[1].init.headers.Authorization).toBe('Bearer s3cret-token-of-the-desk');
    api.setToken(null);
    await api.get('/api/batches');
    expect(calls[2].init.headers.Authorization).toBeUndefined();
  });

  it("turns an error answer into an error with the server's code and message, and reports a 401", async () => {
    const unauthorized: ApiErrorLike[] = [];
    const { fetch } = fakeFetch((url) =>
      url.includes('nope')
        ? json({ error: 'NOT_FOUND', message: 'no batch nope' }, 404)
        : json({ error: 'UNAUTHORIZED', message: 'wrong token' }, 401),
    );
    const api = new ApiClient({
      fetch,
      storage: new MemoryStorage(),
      onUnauthorized: (e: ApiErrorLike) => unauthorized.push(e),
    });
    await expect(api.get('/api/batches/nope')).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'no batch nope',
    });
    expect(unauthorized).toHaveLength(0);
    await expect(api.get('/api/batches')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(unauthorized.map((e) => e.code)).toEqual(['UNAUTHORIZED']);
  });

  it('posts JSON and hands back a 422 (no feed readable) as an answer, not an error', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({ feeds: [{ path: '/x', error: { code: 'FEED_UNKNOWN_FORMAT' } }] }, 422),
    );
    const api = new ApiClient({ fetch, storage: new MemoryStorage() });
    const res = await api.post('/api/feeds', { path: '/x' });
    expect(res.status).toBe(422);
    expect(calls[0].init).toMatchObject({ method: 'POST', body: '{"path":"/x"}' });
    expect(calls[0].init.headers['Content-Type']).toBe('application/json');
  });

  it('reads every page of a batch', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}` }));
    const { fetch, calls } = fakeFetch((url) => {
      const u = new URL(url, 'http://desk');
      const offset = Number(u.searchParams.get('offset'));
      const limit = Number(u.searchParams.get('limit'));
      return json({ total: all.length, offset, limit, records: all.slice(offset, offset + limit) });
    });
    const api = new ApiClient({ fetch, storage: new MemoryStorage() });
    expect((await api.allRecords('b-1', 2)).map((r) => r.id)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/batches/b-1/records?offset=0&limit=2',
      '/api/batches/b-1/records?offset=2&limit=2',
      '/api/batches/b-1/records?offset=4&limit=2',
    ]);
  });

  it('fetches an image once with the token and shows it from an object URL', async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'image/webp' } }),
    );
    const made: Blob[] = [];
    const api = new ApiClient({
      fetch,
      storage: new MemoryStorage(),
      createObjectURL: (b: Blob) => `blob:${made.push(b)}`,
    });
    api.setToken('s3cret-token-of-the-desk');
    const [a, b] = await Promise.all([
      api.imageUrl('/api/renditions/x/thumb.webp'),
      api.imageUrl('/api/renditions/x/thumb.webp'),
    ]);
    expect([a, b]).toEqual(['blob:1', 'blob:1']);
    expect(calls).toHaveLength(1);
    expect(calls[0].init.headers.Authorization).toBe('Bearer s3cret-token-of-the-desk');
    expect(made[0].size).toBe(3);
  });

  it("asks for the Details view's image with its header, apart from the grid's: a killed photo's renditions answer only that", async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(new Uint8Array([1, 2, 3]), { headers: { 'Content-Type': 'image/jpeg' } }),
    );
    let n = 0;
    const api = new ApiClient({ fetch, storage: new MemoryStorage(), createObjectURL: () => `blob:${++n}` });
    expect(await api.imageUrl('/api/renditions/x/preview.jpg')).toBe('blob:1');
    expect(calls[0].init.headers['X-Photowire-View']).toBeUndefined();
    // Not the grid's answer again (that one may be a 410): asked with the header, once.
    expect(await api.imageUrl('/api/renditions/x/preview.jpg', { details: true })).toBe('blob:2');
    expect(await api.imageUrl('/api/renditions/x/preview.jpg', { details: true })).toBe('blob:2');
    expect(calls).toHaveLength(2);
    expect(calls[1].init.headers['X-Photowire-View']).toBe('details');
  });

  it('asks for the location with ?as=url and shows a presigned URL as it is (S3 redirect mode), no token in it', async () => {
    const presigned = 'https://rgw.example:7480/bucket/renditions/ab/cd/x/thumb.webp?X-Amz-Signature=abc';
    const { fetch, calls } = fakeFetch(
      () =>
        new Response(JSON.stringify({ url: presigned }), {
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
        }),
    );
    const api = new ApiClient({ fetch, storage: new MemoryStorage(), createObjectURL: () => 'blob:never' });
    api.setToken('s3cret-token-of-the-desk');
    expect(await api.imageUrl('/api/renditions/x/thumb.webp')).toBe(presigned);
    expect(calls.map((c) => c.url)).toEqual(['/api/renditions/x/thumb.webp?as=url']);
    expect(calls[0].init.headers.Authorization).toBe('Bearer s3cret-token-of-the-desk');
    // Not a URL the page could load: an error (the card shows its placeholder), and asked again next time.
    const bad = new ApiClient({
      fetch: async () =>
        new Response(JSON.stringify({ url: 'javascript:alert(1)' }), {
          headers: { 'Content-Type': 'application/json' },
        }),
      storage: new MemoryStorage(),
    });
    await expect(bad.imageUrl('/api/renditions/y/thumb.webp')).rejects.toMatchObject({ code: 'BAD_IMAGE_URL' });
  });

  it('reads the event stream as it arrives, with the token', async () => {
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('event: batches\ndata: {"n"'));
        c.enqueue(enc.encode(':1}\n\nevent: batches\ndata: {"n":2}\n\n'));
        c.close();
      },
    });
    const { fetch, calls } = fakeFetch(() => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    const api = new ApiClient({ fetch, storage: new MemoryStorage() });
    api.setToken('s3cret-token-of-the-desk');
    const got: unknown[] = [];
    await api.stream('/api/events', (m) => got.push(JSON.parse(m.data)));
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
    expect(calls[0].init.headers).toMatchObject({
      Authorization: 'Bearer s3cret-token-of-the-desk',
      Accept: 'text/event-stream',
    });
  });
});
