import * as path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { Queue } from 'bullmq';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Runtime } from '../app/runtime';
import { openStorage } from '../adapters/storage/openStorage';
import { parseStorageConfig } from '../adapters/storage/storageConfig';
import type { StoragePort } from '../adapters/storage/storagePort';
import { QUEUES, queuePrefix } from '../queues/definitions';
import { healthSchema } from './apiSchemas';
import { collectRoutes, matchedRoute, requestAccess } from './access';
import { presentedToken, tokenMatches } from './auth';
import { BatchOverviews } from './batchOverview';
import { HttpError } from './httpError';
import { QUEUE_BOARD_PATH, mountQueueBoard } from './queueBoard';
import { RenditionSource } from './renditionSource';
import { batchRoutes } from './routes/batches';
import { clusterRoutes } from './routes/clusters';
import { eventRoutes } from './routes/events';
import { feedRoutes } from './routes/feeds';
import { killRoutes } from './routes/kills';
import { RENDITION_ROUTE, renditionRoutes } from './routes/renditions';
import { retryRoutes } from './routes/retry';
import { responses, useZodApi, validationMessage } from './zodApi';

export interface ServerOptions {
  /** The API token; defaults to PHOTOWIRE_API_TOKEN. Unset (or null): no auth, for loopback only. */
  token?: string | null;
  /** The page's folder (default: the repository's `web/`). */
  webRoot?: string;
  /** How often the event stream looks at the ledgers. */
  eventsIntervalMs?: number;
  /** API requests per minute per client (default PHOTOWIRE_API_RATE_LIMIT). */
  rateLimit?: number;
  /** The queue board's pause, empty, clean, retry and remove (default PHOTOWIRE_BOARD_WRITE); off, the board only shows. */
  boardWrite?: boolean;
  /**
   * Where renditions are read (the caller keeps it open and closes it). Default: the storage
   * PHOTOWIRE_STORAGE names (unset: the data directory), opened here and closed with the server.
   */
  storage?: StoragePort;
  /** With S3 storage, stream renditions through the server instead of redirecting (default PHOTOWIRE_STORAGE_PROXY). */
  storageProxy?: boolean;
}

export const DEFAULT_WEB_ROOT = path.resolve(__dirname, '../../web');
// The page's own files only: bull-board's UI brings inline scripts of its own.
// With S3 renditions by redirect, <img> loads presigned URLs from the storage's origin (img-src only: fetch stays on 'self').
const pageCsp = (storageOrigin: string | null) =>
  `default-src 'self'; img-src 'self' blob: data:${storageOrigin ? ` ${storageOrigin}` : ''}; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;

/**
 * The desk's HTTP server, not yet listening (see startServer): the JSON API under /api, the page
 * from `web/`, bull-board under /admin/queues and /openapi.json. The caller owns `rt` and closes
 * it after the server.
 */
export async function buildServer(rt: Runtime, opts: ServerOptions = {}): Promise<FastifyInstance> {
  const token = opts.token === undefined ? (rt.config.apiToken ?? null) : opts.token;
  const app: FastifyInstance = Fastify({
    loggerInstance: rt.logger.child({ component: 'http' }) as FastifyBaseLogger,
    // One line per response instead (onResponse below), without the thumbnails' noise.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Streams of server-sent events stay open; stop must not wait for them (they are ended in preClose).
    forceCloseConnections: true,
  });
  // Before any route: every route is recorded with its access (src/server/access.ts).
  collectRoutes(app);
  // Validation, serialization and /openapi.json from the same zod schemas (src/server/apiSchemas.ts).
  const api = await useZodApi(app, {
    title: 'photowire desk API',
    version: '1',
    description:
      'Batches, records, clusters, feed submission and retries of photowire. Every /api call needs `Authorization: Bearer <PHOTOWIRE_API_TOKEN>` when the server has a token. Records follow the catalog record schema (src/schemas/record.ts).',
  });
  const storage = opts.storage ?? (await openStorage(parseStorageConfig({ ...process.env, PHOTOWIRE_DATA_DIR: rt.config.dataDir })));
  if (!opts.storage) app.addHook('onClose', async () => storage.close());
  const renditions = new RenditionSource(storage, { proxy: opts.storageProxy ?? rt.config.storageProxy });
  const queues = [
    new Queue(QUEUES.item, { connection: rt.redis, prefix: queuePrefix(rt.config.prefix) }),
    new Queue(QUEUES.batch, { connection: rt.redis, prefix: queuePrefix(rt.config.prefix) }),
    new Queue(QUEUES.schedule, { connection: rt.redis, prefix: queuePrefix(rt.config.prefix) }),
  ];
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
  });

  const notFound = (req: FastifyRequest, reply: FastifyReply) => reply.code(404).send({ error: 'NOT_FOUND', message: `no route ${req.method} ${req.url.split('?')[0]}` });
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    closeIfBodyUnread(req, reply);
    if (err instanceof HttpError) return reply.code(err.status).send({ error: err.code, message: err.message });
    const invalid = validationMessage(err);
    if (invalid !== null) return reply.code(400).send({ error: 'BAD_REQUEST', message: invalid });
    // A path the page's file server refuses (`//x`, `/x/../y`, a backslash) names no file: not found, like any other.
    if (err.code === 'FST_STATIC_FORBIDDEN_PATH') return notFound(req, reply);
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err, url: req.url }, 'request failed');
      return reply.code(500).send({ error: 'INTERNAL', message: 'internal error: see the server log' });
    }
    return reply.code(status).send({ error: status === 429 ? 'RATE_LIMITED' : (err.code ?? 'BAD_REQUEST'), message: err.message });
  });
  app.setNotFoundHandler(notFound);

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (!isBoardRoute(req) && String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', pageCsp(await renditions.storageOrigin().catch(() => null)));
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    if (matchedRoute(req) === RENDITION_ROUTE) return;
    const level = reply.statusCode >= 500 ? 'error' : reply.statusCode >= 400 ? 'warn' : 'info';
    req.log[level]({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  await app.register(fastifyRateLimit, {
    max: opts.rateLimit ?? rt.config.apiRateLimit,
    timeWindow: '1 minute',
    // Every route but the public ones (the page's files, /openapi.json, /healthz), decided on the
    // route matched as the token is; renditions opt out per route (a grid loads hundreds).
    allowList: (req: FastifyRequest) => requestAccess(req) === 'public',
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, code: 'RATE_LIMITED', message: `too many requests: retry in ${ctx.after}` }),
  });

  // After the rate limit (its hooks run at onRequest), so guessing tokens is rate-limited too,
  // and before any body is read (preParsing), so an unauthenticated upload is refused unread.
  if (token) {
    app.addHook('preParsing', async (req: FastifyRequest, reply: FastifyReply, payload) => {
      if (requestAccess(req) === 'public') return payload;
      const isBoard = isBoardRoute(req);
      const given = presentedToken(req.headers.authorization, isBoard);
      if (given !== null && tokenMatches(given, token)) return payload;
      closeIfBodyUnread(req, reply);
      reply.header('WWW-Authenticate', isBoard ? 'Basic realm="photowire queues", charset="UTF-8"' : 'Bearer realm="photowire"');
      // Answered here, not thrown: bull-board's scope has an error handler of its own that would make it a 500.
      await reply.code(401).send({
        error: 'UNAUTHORIZED',
        message: given === null ? 'this server needs a token: Authorization: Bearer <PHOTOWIRE_API_TOKEN>' : 'wrong token',
      });
      return reply;
    });
  }

  await app.register(fastifyMultipart, { limits: { fileSize: rt.config.uploadMaxBytes } });

  const overviews = new BatchOverviews(rt.ctx);
  api.get(
    '/healthz',
    { schema: { tags: ['server'], summary: 'Liveness: answers when Redis does', response: responses({ 200: [healthSchema, 'ok'] }, {}, { public: true }) } },
    async () => ({ ok: true as const, redis: await rt.redis.ping() }),
  );
  batchRoutes(api, { ctx: rt.ctx, overviews, itemQueue: queues[0] });
  clusterRoutes(api, rt.ctx, { maxMembers: 200 });
  feedRoutes(api, rt, { uploadsPerMinute: Math.max(5, Math.ceil((opts.rateLimit ?? rt.config.apiRateLimit) / 20)) });
  retryRoutes(api, rt);
  killRoutes(api, rt);
  renditionRoutes(api, renditions);
  eventRoutes(api, overviews, { intervalMs: opts.eventsIntervalMs ?? 1000 });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(async (scope) => mountQueueBoard(scope, queues, { write: opts.boardWrite ?? rt.config.boardWrite }));
  await app.register(fastifyStatic, { root: opts.webRoot ?? DEFAULT_WEB_ROOT, prefix: '/', decorateReply: false, index: ['index.html'] });
  return app;
}

/** Is this request for the queue board (by the route it matched, not by how its URL was spelled)? */
function isBoardRoute(req: FastifyRequest): boolean {
  const url = matchedRoute(req);
  return url !== undefined && (url === QUEUE_BOARD_PATH || url.startsWith(QUEUE_BOARD_PATH + '/'));
}

/**
 * A request refused before its body was read (an upload over the cap, or without a token) leaves
 * bytes on the connection: close it after the answer, or the client's next request on the same
 * keep-alive connection would wait behind them.
 */
function closeIfBodyUnread(req: FastifyRequest, reply: FastifyReply): void {
  if (!req.raw.complete) reply.header('Connection', 'close');
}
