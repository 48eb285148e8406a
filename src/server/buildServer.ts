import * as path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Runtime } from '../app/runtime';
import { healthSchema } from '../schemas/api';
import { collectRoutes } from './access';
import { BatchOverviews } from '../app/batches/batchOverview';
import { cutIdleBodies } from './clientLimits';
import type { BatchEventHub } from './eventHub';
import { guardServer } from './guards';
import { mountQueueBoard } from './queueBoard';
import { RenditionSource } from './renditionSource';
import { HostPolicy } from './sameOrigin';
import { batchRoutes } from './routes/batches';
import { clusterRoutes } from './routes/clusters';
import { eventRoutes } from './routes/events';
import { feedRoutes } from './routes/feeds';
import { killRoutes } from './routes/kills';
import { renditionRoutes } from './routes/renditions';
import { renditionAccess } from '../app/renditions/renditionAccess';
import { retryRoutes } from './routes/retry';
import { responses, useZodApi } from './zodApi';
import type { ServerOptions } from './serverOptions';

export type { ServerOptions } from './serverOptions';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one poller behind every /api/events stream (its stats for the tests). */
    eventHub: BatchEventHub;
  }
}

export const DEFAULT_WEB_ROOT = path.resolve(__dirname, '../../web');

/**
 * The desk's HTTP server, not yet listening (see startServer): the JSON API under /api, the page
 * from `web/`, bull-board under /admin/queues and /openapi.json. The caller owns `rt` and closes
 * it after the server.
 */
export async function buildServer(rt: Runtime, opts: ServerOptions = {}): Promise<FastifyInstance> {
  const token = opts.token === undefined ? (rt.config.apiToken ?? null) : opts.token;
  const requestTimeout = opts.requestTimeoutMs ?? rt.config.httpRequestTimeoutMs;
  const app: FastifyInstance = Fastify({
    loggerInstance: rt.logger.child({ component: 'http' }) as FastifyBaseLogger,
    // One line per response instead (onResponse in guards.ts), without the thumbnails' noise.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Streams of server-sent events stay open; stop must not wait for them (they are ended in preClose).
    forceCloseConnections: true,
    // A request must have arrived whole within this (a body trickled at a byte every few seconds
    // held a connection for good); Node checks every connectionsCheckingInterval, so a quarter of it.
    requestTimeout,
    http: {
      connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4))),
      headersTimeout: Math.min(60_000, requestTimeout),
    },
  });
  cutIdleBodies(app, opts.bodyIdleMs ?? rt.config.httpBodyIdleMs);
  // Before any route: every route is recorded with its access (src/server/access.ts).
  collectRoutes(app);
  // Validation, serialization and /openapi.json from the same zod schemas (src/schemas/api.ts).
  const api = await useZodApi(app, {
    title: 'photowire desk API',
    version: '1',
    description:
      'Batches, records, clusters, feed submission and retries of photowire. Every /api call needs `Authorization: Bearer <PHOTOWIRE_API_TOKEN>` when the server has a token. Records follow the catalog record schema (src/schemas/record.ts).',
  });
  // The runtime's storage and queues (one composition root, src/app/runtime.ts): the caller closes them with `rt`.
  const renditions = new RenditionSource(opts.storage ?? rt.ctx.storage, {
    proxy: opts.storageProxy ?? rt.config.storageProxy,
  });
  const queues = (['item', 'batch', 'schedule'] as const).map((name) => rt.ctx.queues.queue(name));

  // Errors, headers, the response log, the rate limit and the token, in this order (src/server/guards.ts).
  const hosts = new HostPolicy(opts.allowedHosts ?? rt.config.allowedHosts, () => app.server.address());
  await guardServer(app, { token, rateLimit: opts.rateLimit ?? rt.config.apiRateLimit, renditions, hosts });

  await app.register(fastifyMultipart, { limits: { fileSize: rt.config.uploadMaxBytes } });

  const overviews = new BatchOverviews(rt.ctx);
  api.get(
    '/healthz',
    {
      schema: {
        tags: ['server'],
        summary: 'Liveness: answers when Redis does',
        response: responses({ 200: [healthSchema, 'ok'] }, {}, { public: true }),
      },
    },
    async () => ({ ok: true as const, redis: await rt.redis.ping() }),
  );
  batchRoutes(api, { ctx: rt.ctx, overviews });
  clusterRoutes(api, rt.ctx, { maxMembers: 200 });
  feedRoutes(api, rt, {
    uploadsPerMinute: Math.max(5, Math.ceil((opts.rateLimit ?? rt.config.apiRateLimit) / 20)),
    uploadsPerClient: opts.uploadsPerClient ?? rt.config.uploadsPerClient,
  });
  retryRoutes(api, rt);
  killRoutes(api, rt);
  renditionRoutes(api, renditions, (sha256) => renditionAccess(rt.ctx, sha256));
  const events = eventRoutes(api, overviews, {
    intervalMs: opts.eventsIntervalMs ?? 1000,
    heartbeatMs: opts.eventsHeartbeatMs,
    streamsPerClient: opts.eventStreamsPerClient ?? rt.config.eventStreamsPerClient,
  });
  app.decorate('eventHub', events);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (scope) =>
    mountQueueBoard(scope, queues, { write: opts.boardWrite ?? rt.config.boardWrite }),
  );
  await app.register(fastifyStatic, {
    root: opts.webRoot ?? DEFAULT_WEB_ROOT,
    prefix: '/',
    decorateReply: false,
    index: ['index.html'],
  });
  return app;
}
