import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import { apiErrorSchema } from './apiSchemas';
import { badRequest } from './httpError';
import type { ApiDocs, RouteDoc } from './openapi';

export interface RouteSpec<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, R extends z.ZodType>
  extends Omit<RouteDoc, 'params' | 'query' | 'body' | 'responses' | 'auth'> {
  params?: P;
  query?: Q;
  /** A JSON body schema; multipart routes read the request themselves. */
  body?: B;
  multipart?: string;
  response: R;
  /** Status of a success (200 unless said). */
  status?: number;
  /** Picks another status (one of alsoStatus) from the result. */
  statusOf?: (result: z.output<R>) => number;
  /** Other statuses with this response body, for the document. */
  alsoStatus?: Record<number, string>;
  description: string;
  errors?: Record<number, string>;
  routeOptions?: RouteShorthandOptions;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Parse a request part; a bad one is a 400 naming each wrong field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value ?? {});
  if (!r.success) {
    throw badRequest(`${where}: ${r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ')}`);
  }
  return r.data;
}

/**
 * A JSON route whose input and output go through zod, described in the OpenAPI document from
 * the same schemas. A response that does not match its schema is a bug: it fails as a 500 rather
 * than sending the client something the contract does not promise.
 */
export function jsonRoute<P extends z.ZodObject | undefined, Q extends z.ZodObject | undefined, B extends z.ZodType | undefined, R extends z.ZodType>(
  app: FastifyInstance,
  docs: ApiDocs,
  spec: RouteSpec<P, Q, B, R>,
  handler: (input: { params: Out<P>; query: Out<Q>; body: Out<B>; req: FastifyRequest; reply: FastifyReply }) => Promise<z.input<R>>,
): void {
  const status = spec.status ?? 200;
  docs.add({
    method: spec.method,
    url: spec.url,
    summary: spec.summary,
    tag: spec.tag,
    auth: spec.url.startsWith('/api/'),
    params: spec.params,
    query: spec.query,
    body: spec.body || spec.multipart ? { json: spec.body, multipart: spec.multipart } : undefined,
    responses: {
      [status]: { description: spec.description, schema: spec.response },
      ...Object.fromEntries(Object.entries(spec.alsoStatus ?? {}).map(([s, d]) => [s, { description: d, schema: spec.response }])),
      ...Object.fromEntries(Object.entries(spec.errors ?? {}).map(([s, d]) => [s, { description: d, schema: apiErrorSchema }])),
    },
  });
  app.route({
    ...(spec.routeOptions ?? {}),
    method: spec.method,
    url: spec.url,
    handler: async (req, reply) => {
      const params = (spec.params ? parseInput(spec.params, req.params, 'path') : undefined) as Out<P>;
      const query = (spec.query ? parseInput(spec.query, req.query, 'query') : undefined) as Out<Q>;
      const body = (spec.body && !req.isMultipart() ? parseInput(spec.body, req.body, 'body') : undefined) as Out<B>;
      const result = await handler({ params, query, body, req, reply });
      const checked = spec.response.safeParse(result);
      if (!checked.success) {
        req.log.error({ url: spec.url, issues: checked.error.issues.slice(0, 5) }, 'response does not match its schema');
        throw new Error(`response of ${spec.method} ${spec.url} does not match its schema`);
      }
      return reply.code(spec.statusOf?.(checked.data) ?? status).send(checked.data);
    },
  });
}
