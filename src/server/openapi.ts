import { z } from 'zod';
import { catalogRecordSchema } from '../schemas/record';
import { apiErrorSchema } from './apiSchemas';

// Records appear in several responses: one named component instead of a copy in each.
if (!z.globalRegistry.has(catalogRecordSchema)) z.globalRegistry.add(catalogRecordSchema, { id: 'CatalogRecord' });

export interface RouteDoc {
  method: 'GET' | 'POST';
  /** Fastify style, `/api/batches/:batchId`. */
  url: string;
  summary: string;
  tag: string;
  auth: boolean;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** JSON and/or multipart request bodies. */
  body?: { json?: z.ZodType; multipart?: string };
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
}

type Json = Record<string, unknown>;

/** The OpenAPI 3.1 description, built from the same zod schemas that validate requests and responses. */
export class ApiDocs {
  private readonly routes: RouteDoc[] = [];
  private readonly components: Record<string, unknown> = {};

  add(doc: RouteDoc): void {
    this.routes.push(doc);
  }

  /** A JSON Schema for the document: nested named schemas become shared components. */
  private schema(s: z.ZodType, io: 'input' | 'output'): Json {
    const js = z.toJSONSchema(s, { io, unrepresentable: 'any' }) as Json;
    const defs = (js.$defs ?? {}) as Record<string, Json>;
    delete js.$defs;
    delete js.$schema;
    for (const [id, def] of Object.entries(defs)) this.components[id] ??= rewriteRefs(def);
    return rewriteRefs(js) as Json;
  }

  document(info: { title: string; version: string; description?: string }): Json {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const url = r.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
      const parameters: unknown[] = [];
      if (r.params) {
        const js = this.schema(r.params, 'input') as { properties?: Record<string, Json> };
        for (const [name, schema] of Object.entries(js.properties ?? {})) parameters.push({ name, in: 'path', required: true, schema });
      }
      if (r.query) {
        const js = this.schema(r.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
        for (const [name, schema] of Object.entries(js.properties ?? {})) {
          parameters.push({ name, in: 'query', required: js.required?.includes(name) ?? false, schema, description: schema.description });
        }
      }
      const op: Json = {
        summary: r.summary,
        tags: [r.tag],
        operationId: `${r.method.toLowerCase()}${url.replace(/[{}]/g, '').replace(/(^|[/_-])(\w)/g, (_m, _s, c: string) => c.toUpperCase())}`,
        parameters,
        responses: Object.fromEntries(
          Object.entries(r.responses).map(([status, res]) => [
            status,
            {
              description: res.description,
              ...(res.schema ? { content: { [res.contentType ?? 'application/json']: { schema: this.schema(res.schema, 'output') } } } : res.contentType ? { content: { [res.contentType]: {} } } : {}),
            },
          ]),
        ),
      };
      if (r.auth) {
        op.security = [{ bearer: [] }];
        (op.responses as Json)[401] = { description: 'no or wrong token', content: { 'application/json': { schema: this.schema(apiErrorSchema, 'output') } } };
      }
      if (r.body) {
        const content: Json = {};
        if (r.body.json) content['application/json'] = { schema: this.schema(r.body.json, 'input') };
        if (r.body.multipart) {
          content['multipart/form-data'] = {
            schema: { type: 'object', description: r.body.multipart, properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } } },
          };
        }
        op.requestBody = { required: true, content };
      }
      (paths[url] ??= {})[r.method.toLowerCase()] = op;
    }
    return {
      openapi: '3.1.0',
      info,
      paths,
      components: {
        schemas: this.components,
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'PHOTOWIRE_API_TOKEN' } },
      },
    };
  }
}

function rewriteRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [k, k === '$ref' && typeof x === 'string' ? x.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(x)]),
    );
  }
  return v;
}
