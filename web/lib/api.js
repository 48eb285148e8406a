// The desk's API client: the token, JSON calls, authenticated images and the event stream.
// No DOM: fetch and storage are passed in, so it runs (and is tested) outside a browser too.

import { createSseParser } from './sse.js';

const TOKEN_KEY = 'photowire.token';
/** Sent by the Details view for a photo's renditions (src/server/routes/renditions.ts). */
export const DETAILS_HEADER = 'X-Photowire-View';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export class ApiClient {
  /**
   * @param {{ fetch?: typeof fetch, storage?: Storage | null, onUnauthorized?: (err: ApiError) => void,
   *           createObjectURL?: (b: Blob) => string }} opts
   */
  constructor(opts = {}) {
    this.fetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
    this.storage = opts.storage ?? null;
    this.onUnauthorized = opts.onUnauthorized ?? (() => {});
    this.createObjectURL = opts.createObjectURL ?? ((b) => URL.createObjectURL(b));
    this.images = new Map();
  }

  get token() {
    return this.storage?.getItem(TOKEN_KEY) ?? null;
  }

  /** Kept for this browser tab only (sessionStorage): closing the tab signs out. */
  setToken(token) {
    if (token) this.storage?.setItem(TOKEN_KEY, token);
    else this.storage?.removeItem(TOKEN_KEY);
  }

  headers(extra = {}) {
    const h = { ...extra };
    if (this.token) h.Authorization = `Bearer ${this.token}`;
    return h;
  }

  async request(path, init = {}) {
    const res = await this.fetch(path, { ...init, headers: this.headers(init.headers) });
    if (!res.ok) {
      let body = null;
      try {
        body = await res.json();
      } catch {
        // Not JSON (a proxy's page): the status says enough.
      }
      const err = new ApiError(
        res.status,
        body?.error ?? `HTTP_${res.status}`,
        body?.message ?? `${res.status} ${res.statusText}`,
      );
      if (res.status === 401) this.onUnauthorized(err);
      throw err;
    }
    return res;
  }

  async get(path) {
    return (await this.request(path, { headers: { Accept: 'application/json' } })).json();
  }

  /** JSON body, or a FormData (multipart upload) as it is. Answers of 202 and 422 both carry JSON. */
  async post(path, body) {
    const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
    const init = isForm
      ? { method: 'POST', body }
      : { method: 'POST', body: JSON.stringify(body ?? {}), headers: { 'Content-Type': 'application/json' } };
    const res = await this.fetch(path, { ...init, headers: this.headers(init.headers) });
    const json = await res.json().catch(() => null);
    if (res.ok || res.status === 422) return { status: res.status, body: json };
    const err = new ApiError(
      res.status,
      json?.error ?? `HTTP_${res.status}`,
      json?.message ?? `${res.status} ${res.statusText}`,
    );
    if (res.status === 401) this.onUnauthorized(err);
    throw err;
  }

  /**
   * An image the page can show, made once per path. Renditions are behind the token, and <img>
   * cannot send one, so the route is asked with `?as=url`: with S3 storage (redirect mode) it
   * answers `{"url": <presigned URL>}`, which <img> loads straight from the storage (no CORS, no
   * token in the URL; the page's img-src names that origin); otherwise the answer is the bytes
   * (the browser's cache still applies: they are immutable), shown from an object URL.
   */
  imageUrl(path, { details = false } = {}) {
    const key = details ? `${path}#details` : path;
    let p = this.images.get(key);
    if (!p) {
      // The Details view of the desk asks with the header below: a killed or withdrawn photo's
      // renditions answer 410 to anything else (a CMS, a copied URL), but the desk still shows them
      // here. A custom header is never sent by an <img> or by another site's page (CORS).
      const init = details ? { headers: { [DETAILS_HEADER]: 'details' } } : {};
      p = this.request(`${path}${path.includes('?') ? '&' : '?'}as=url`, init).then(async (res) => {
        if ((res.headers.get('content-type') ?? '').startsWith('application/json')) {
          const { url } = await res.json();
          if (typeof url !== 'string' || !/^https?:\/\//.test(url))
            throw new ApiError(res.status, 'BAD_IMAGE_URL', `no image URL for ${path}`);
          return url;
        }
        return this.createObjectURL(await res.blob());
      });
      p.catch(() => this.images.delete(key));
      this.images.set(key, p);
    }
    return p;
  }

  /**
   * One page of a batch's records (GET /api/batches/:id/records): `params` are the API's query
   * (offset, limit, q, cursor, failed, lowConfidence, cluster, agency, creator); empty ones are left out.
   */
  recordsPage(batchId, params = {}) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    return this.get(`/api/batches/${encodeURIComponent(batchId)}/records?${qs}`);
  }

  /** Every record of a batch, page by page (feed order). */
  async allRecords(batchId, pageSize = 500) {
    const out = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.get(
        `/api/batches/${encodeURIComponent(batchId)}/records?offset=${offset}&limit=${pageSize}`,
      );
      out.push(...page.records);
      if (out.length >= page.total || page.records.length === 0) return out;
    }
  }

  /** Read a server-sent event stream until `signal` aborts or the stream ends; resolves when it ends. */
  async stream(path, onEvent, signal) {
    const res = await this.request(path, { headers: { Accept: 'text/event-stream' }, signal });
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const push = createSseParser(onEvent);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      push(decoder.decode(value, { stream: true }));
    }
  }
}
