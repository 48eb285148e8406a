import { z } from 'zod';
import { startDesk, type Desk } from '../helpers/deskServer';

/**
 * /openapi.json is built by @fastify/swagger from the routes' own zod schemas
 * (src/server/zodApi.ts): every API route fastify has is in it, with its path parameters, its
 * query, its body and each response status its schema declares, so the document cannot drift
 * from what the server validates.
 */
describe('the OpenAPI description (generated from the route schemas)', () => {
  let desk: Desk;
  let doc: any;
  beforeAll(async () => {
    desk = await startDesk({ workers: false });
    const res = await desk.fetch('/openapi.json', { auth: false });
    expect(res.status).toBe(200);
    doc = await res.json();
  });
  afterAll(async () => {
    await desk?.close();
  });

  const shapeKeys = (s: unknown) => (s instanceof z.ZodObject ? Object.keys(s.shape) : []);

  it('lists every API route fastify has, with its parameters, query, body and responses', () => {
    const api = desk.app.routeTable.filter(
      (r) => (r.url.startsWith('/api/') || r.url === '/healthz') && r.method !== 'HEAD',
    );
    expect(api.length).toBeGreaterThanOrEqual(11);
    const missing: string[] = [];
    for (const r of api) {
      const where = `${r.method} ${r.url}`;
      const schema = (r.schema ?? {}) as {
        params?: unknown;
        querystring?: unknown;
        body?: unknown;
        response?: Record<string, unknown>;
      };
      // Every API route declares its responses in zod (a route without schemas would be undocumented and unvalidated).
      if (!schema.response) missing.push(`${where}: no response schema`);
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      if (!op) {
        missing.push(`${where}: not in the document`);
        continue;
      }
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; schema?: unknown }>;
      for (const name of [...r.url.matchAll(/:(\w+)/g)].map((m) => m[1]!)) {
        if (!params.some((p) => p.in === 'path' && p.name === name && p.schema))
          missing.push(`${where}: path parameter ${name}`);
      }
      for (const name of shapeKeys(schema.params))
        if (!params.some((p) => p.in === 'path' && p.name === name)) missing.push(`${where}: params.${name}`);
      for (const name of shapeKeys(schema.querystring))
        if (!params.some((p) => p.in === 'query' && p.name === name && p.schema))
          missing.push(`${where}: query ${name}`);
      if (schema.body && !Object.keys(op.requestBody?.content ?? {}).length) missing.push(`${where}: body`);
      for (const status of Object.keys(schema.response ?? {})) {
        const res = op.responses?.[status];
        if (!res?.description) missing.push(`${where}: response ${status}`);
        else if (status !== '302' && !Object.values(res.content ?? {}).every((c: any) => c.schema))
          missing.push(`${where}: response ${status} without a schema`);
      }
      if (r.url.startsWith('/api/') && JSON.stringify(op.security) !== JSON.stringify([{ bearer: [] }]))
        missing.push(`${where}: no bearer security`);
    }
    expect(missing).toEqual([]);
    // Nothing else: the page's files, bull-board and the document itself are not API routes.
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/') || p === '/healthz')).toBe(true);
  });

  it('refers to named schemas as components, and every $ref resolves', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const days = doc.paths['/api/batches'].get.parameters.find((p: any) => p.name === 'days');
    expect(days).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: 3650, default: 7 },
    });
    expect(doc.paths['/api/kills'].post.requestBody.content['application/json'].schema.$ref).toMatch(
      /^#\/components\/schemas\/KillRequest/,
    );
    expect(
      doc.paths['/api/feeds'].post.requestBody.content['multipart/form-data'].schema.properties.file.items,
    ).toEqual({ type: 'string', format: 'binary' });
    expect(doc.paths['/healthz'].get.security).toBeUndefined();
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect(Object.keys(doc.components.schemas)).toContain(ref.slice(22, -1));
  });
});
