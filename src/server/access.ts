import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';

/**
 * Who may reach a route: decided on the route the router matched (its pattern, after the router
 * has decoded and normalised the path), never on the raw URL. A guard on the raw URL is bypassed
 * by any spelling the router folds onto a route (`/%61pi/batches` is `/api/batches` to it).
 *
 * Deny by default: every route needs the token unless it is on this short list. The page's files
 * are the static plugin's one wildcard route; they, the OpenAPI description and the health check
 * hold no data.
 */
export type Access = 'public' | 'token';

const PUBLIC_METHODS = new Set(['GET', 'HEAD']);
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/*', '/openapi.json', '/healthz']);

/** The access of a route as registered (`url` is its pattern, e.g. `/api/batches/:batchId`). */
export function routeAccess(method: string, url: string): Access {
  return PUBLIC_METHODS.has(method) && PUBLIC_ROUTES.has(url) ? 'public' : 'token';
}

/** The pattern of the route a request matched; undefined when none did (the not-found handler). */
export function matchedRoute(req: FastifyRequest): string | undefined {
  return req.is404 ? undefined : req.routeOptions.url;
}

/** The access of a request, from the route it matched; a request that matched nothing needs the token too. */
export function requestAccess(req: FastifyRequest): Access {
  const url = matchedRoute(req);
  return url === undefined ? 'token' : routeAccess(req.method, url);
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
  /** The route's schema as registered (zod: params, querystring, body, response), for the OpenAPI test. */
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the server with its access, as fastify registered them (for the start log and the tests). */
    routeTable: RouteEntry[];
  }
}

/** Record every route registered from now on (call before registering any). */
export function collectRoutes(app: FastifyInstance): RouteEntry[] {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat())
      table.push({ method, url: r.url ?? r.path, access: routeAccess(method, r.url ?? r.path), schema: r.schema });
  });
  return table;
}
