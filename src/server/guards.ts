import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { matchedRoute, requestAccess } from './access';
import { ERRORS, codeOf, httpStatusOf } from '../core/errors';
import { presentedToken, tokenMatches } from './auth';
import { HttpError } from './httpError';
import { QUEUE_BOARD_PATH } from './queueBoard';
import type { RenditionSource } from './renditionSource';
import { crossSiteRefusal, type HostPolicy } from './sameOrigin';
import { RENDITION_ROUTE } from './routes/renditions';
import { validationMessage } from './zodApi';

// The page's own files only: bull-board's UI brings inline scripts of its own.
// With S3 renditions by redirect, <img> loads presigned URLs from the storage's origin (img-src only: fetch stays on 'self').
const pageCsp = (storageOrigin: string | null) =>
  `default-src 'self'; img-src 'self' blob: data:${storageOrigin ? ` ${storageOrigin}` : ''}; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
// The queue board's: its scripts are its own files (its one inline script is JSON, never run), but
// its loading screen and React set inline styles, and its page sets <base href>. Framing is refused
// as for the desk (a framed board's buttons could be clicked through a decoy page).
export const BOARD_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; font-src 'self' data:; script-src 'self'; connect-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/**
 * What every request of the desk's server goes through, registered before its routes: the error
 * and not-found answers, the security headers, one log line per response, the rate limit and,
 * with a token, the token check (buildServer calls it once, after the zod API and before multipart).
 */
export async function guardServer(
  app: FastifyInstance,
  opts: { token: string | null; rateLimit: number; renditions: RenditionSource; hosts: HostPolicy },
): Promise<void> {
  const { token, renditions, hosts } = opts;
  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    reply.code(404).send({ error: 'NOT_FOUND', message: `no route ${req.method} ${req.url.split('?')[0]}` });
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    closeIfBodyUnread(req, reply);
    if (err instanceof HttpError) return reply.code(err.status).send({ error: err.code, message: err.message });
    // Every other coded error (a PhotowireError, or any error whose `code` is in the table) answers
    // with its code and the table's status: a full disk is 503 STORAGE_FAILED, not 500. A 5xx says
    // the table's meaning only; its own message (paths, hosts) goes to the log.
    const code = codeOf(err);
    if (code !== undefined) {
      const status = httpStatusOf(err);
      if (status < 500) return reply.code(status).send({ error: code, message: err.message });
      req.log.error({ err, url: req.url }, 'request failed');
      return reply.code(status).send({ error: code, message: ERRORS[code].message });
    }
    const invalid = validationMessage(err);
    if (invalid !== null) return reply.code(400).send({ error: 'BAD_REQUEST', message: invalid });
    // A path the page's file server refuses (`//x`, `/x/../y`, a backslash) names no file: not found, like any other.
    if (err.code === 'FST_STATIC_FORBIDDEN_PATH') return notFound(req, reply);
    const status = err.statusCode ?? 500;
    if (status >= 500) {
      req.log.error({ err, url: req.url }, 'request failed');
      return reply.code(500).send({ error: 'INTERNAL', message: 'internal error: see the server log' });
    }
    return reply
      .code(status)
      .send({ error: status === 429 ? 'RATE_LIMITED' : (err.code ?? 'BAD_REQUEST'), message: err.message });
  });
  app.setNotFoundHandler(notFound);

  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    if (isBoardRoute(req)) {
      // Every answer of the board, its page, its API and its files: a JSON answer opened as a page gets the same.
      reply.header('Content-Security-Policy', BOARD_CSP);
      reply.header('X-Frame-Options', 'DENY');
    } else if (String(reply.getHeader('content-type') ?? '').startsWith('text/html')) {
      reply.header('Content-Security-Policy', pageCsp(await renditions.storageOrigin().catch(() => null)));
      reply.header('X-Frame-Options', 'DENY');
    }
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    if (matchedRoute(req) === RENDITION_ROUTE) return;
    const level = reply.statusCode >= 500 ? 'error' : reply.statusCode >= 400 ? 'warn' : 'info';
    req.log[level](
      { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  // Before anything else reads the request (src/server/sameOrigin.ts): a Host that is not this
  // server's (DNS rebinding), then a change asked by a page of another origin (cross-site request).
  // Answered here, not thrown, for the board's scope as below; the body is never read.
  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!hosts.allows(req.headers.host)) {
      closeIfBodyUnread(req, reply);
      await reply.code(ERRORS.HOST_NOT_ALLOWED.httpStatus).send({
        error: 'HOST_NOT_ALLOWED',
        message: `this server does not answer to Host ${JSON.stringify(String(req.headers.host ?? '').slice(0, 100))}: use the address it listens on, or list the name in PHOTOWIRE_ALLOWED_HOSTS (a proxy's)`,
      });
      return reply;
    }
    const refusal = crossSiteRefusal(req, hosts);
    if (refusal !== null) {
      closeIfBodyUnread(req, reply);
      await reply.code(ERRORS.CROSS_SITE_REFUSED.httpStatus).send({ error: 'CROSS_SITE_REFUSED', message: refusal });
      return reply;
    }
  });

  await app.register(fastifyRateLimit, {
    max: opts.rateLimit,
    timeWindow: '1 minute',
    // Every route but the public ones (the page's files, /openapi.json, /healthz), decided on the
    // route matched as the token is; renditions opt out per route (a grid loads hundreds).
    allowList: (req: FastifyRequest) => requestAccess(req) === 'public',
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `too many requests: retry in ${ctx.after}`,
    }),
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
      reply.header(
        'WWW-Authenticate',
        isBoard ? 'Basic realm="photowire queues", charset="UTF-8"' : 'Bearer realm="photowire"',
      );
      // Answered here, not thrown: bull-board's scope has an error handler of its own that would make it a 500.
      await reply.code(401).send({
        error: 'UNAUTHORIZED',
        message:
          given === null ? 'this server needs a token: Authorization: Bearer <PHOTOWIRE_API_TOKEN>' : 'wrong token',
      });
      return reply;
    });
  }
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
