import fastifySwagger from '@fastify/swagger';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import {
  createJsonSchemaTransform,
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { type z } from 'zod';
import { apiErrorSchema } from '../schemas/api';

/** The server as the routes see it: requests and replies typed from their zod schemas. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Where a request part is named in a 400's message (`path: batchId: ...`, `query: days: ...`). */
const PART: Record<string, string> = { params: 'path', querystring: 'query', body: 'body', headers: 'headers' };

/**
 * A request that its schemas refuse: the 400's message names the part and each wrong field,
 * `query: days: Too small: expected number to be >=1; limit: ...`. Null for any other error.
 */
export function validationMessage(err: unknown): string | null {
  if (!hasZodFastifySchemaValidationErrors(err)) return null;
  const fields = err.validation.map(
    (v) => `${v.instancePath === '/' ? '(root)' : v.instancePath.slice(1).replace(/\//g, '.')}: ${v.message}`,
  );
  return `${PART[err.validationContext ?? ''] ?? err.validationContext}: ${fields.join('; ')}`;
}

/** A multipart body is read by the route itself (src/server/uploads.ts): its schema only documents it. */
const validateZod: FastifySchemaCompiler<z.ZodType> = (route) =>
  route.httpPart === 'body' && route.contentType?.startsWith('multipart/')
    ? () => ({ value: undefined })
    : validatorCompiler(route);

/** What the document says of a route: an API route needs the token; the rest (bull-board, the page's files) is not described. */
const transform = createJsonSchemaTransform({ skipList: [] });
const isDescribed = (url: string) => url.startsWith('/api/') || url === '/healthz';

/**
 * Validation and serialization from the routes' zod schemas, and /openapi.json built by
 * @fastify/swagger from the same schemas (named ones, `.meta({ id })`, become components).
 * Call before registering any route.
 */
export async function useZodApi(
  app: FastifyInstance,
  info: { title: string; version: string; description: string },
): Promise<ZodApp> {
  app.setValidatorCompiler(validateZod);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'PHOTOWIRE_API_TOKEN' } },
      },
    },
    transform: (doc) => {
      if (!isDescribed(doc.url)) return { schema: { hide: true }, url: doc.url };
      const { body, ...rest } = (doc.schema ?? {}) as { body?: { content?: Record<string, { schema: z.ZodType }> } };
      const out = transform(body?.content ? { ...doc, schema: rest } : doc);
      const schema = out.schema as Record<string, unknown>;
      if (body?.content) {
        // A body per content type (JSON or multipart): the transform takes one zod schema at a time.
        const one = (s: z.ZodType) => (transform({ ...doc, schema: { body: s } }).schema as { body: unknown }).body;
        schema.body = {
          content: Object.fromEntries(
            Object.entries(body.content).map(([type, c]) => [type, { schema: one(c.schema) }]),
          ),
        };
      }
      if (doc.url.startsWith('/api/')) schema.security = [{ bearer: [] }];
      return out;
    },
    transformObject: jsonSchemaTransformObject,
  });
  return app.withTypeProvider<ZodTypeProvider>();
}

type Responses = Record<number, { description: string; content: Record<string, { schema: z.ZodType }> }>;

/**
 * A route's responses for its schema: each success (status → [schema, description]) as JSON,
 * each error status as an ApiError, and 401 (the token) unless the route is public.
 */
export function responses<const R extends Record<number, readonly [z.ZodType, string]>>(
  ok: R,
  errors: Record<number, string> = {},
  opts: { public?: boolean } = {},
): {
  [K in keyof R]: {
    description: string;
    content: { 'application/json': { schema: R[K] extends readonly [infer S, string] ? S : never } };
  };
} & Responses {
  const out: Responses = {};
  for (const [status, [schema, description]] of Object.entries(ok))
    out[Number(status)] = { description, content: { 'application/json': { schema } } };
  for (const [status, description] of Object.entries(opts.public ? errors : { 401: 'no or wrong token', ...errors })) {
    out[Number(status)] = { description, content: { 'application/json': { schema: apiErrorSchema } } };
  }
  return out as never;
}
