import { z } from 'zod';
import { apiErrorSchema } from '../../schemas/api';
import type { FastifyRequest } from 'fastify';
import type { RenditionAccess } from '../../app/renditions/renditionAccess';
import { errorReply, HttpError, notFound } from '../httpError';
import {
  IMMUTABLE,
  isRenditionShape,
  NO_STORE,
  REDIRECT_MAX_AGE_SECONDS,
  type RenditionSource,
} from '../renditionSource';
import type { ZodApp } from '../zodApi';

export const RENDITION_ROUTE = '/api/renditions/:a/:b/:sha256/:file';
/** The header the desk's Details view sends (web/lib/api.js DETAILS_HEADER), value `details`. */
export const DETAILS_HEADER = 'x-photowire-view';

/**
 * The desk's Details view asking: its header, from the desk's own page (the browser's
 * Sec-Fetch-Site). An <img> or a link never sends the header, another site's page cannot without
 * CORS (which this server never allows), and a CMS or a cache replaying the URL does not: they get 410.
 * With a token, the request has passed the token check before it gets here, like every /api call.
 */
function fromDetailsView(req: FastifyRequest): boolean {
  return req.headers[DETAILS_HEADER] === 'details' && req.headers['sec-fetch-site'] === 'same-origin';
}

// Loose on purpose: any other shape is a 404 (no such rendition), not a 400.
const params = z.object({
  a: z.string().describe('the first two hex digits of the sha256'),
  b: z.string().describe('the next two'),
  sha256: z.string().describe("the photo's sha256 (64 hex digits)"),
  file: z.string().describe('thumb.webp or preview.jpg'),
});
const query = z.object({
  as: z
    .enum(['url'])
    .optional()
    .describe(
      '`url`: with S3 storage (redirect mode), answer 200 `{"url": <presigned URL>}` instead of the 302, for a page that sets it as an <img> src (no CORS needed); streamed storage answers with the bytes as without it',
    ),
});
const image = z.string().meta({ format: 'binary' });
const located = z.object({
  url: z
    .string()
    .describe(
      "a presigned GET of the image on the storage's origin, valid 900 s, answering with Cache-Control immutable",
    ),
});
const error = (description: string) => ({ description, content: { 'application/json': { schema: apiErrorSchema } } });

/**
 * A photo's renditions, from the storage (src/server/renditionSource.ts): streamed with a year's
 * immutable caching, or a short-cached redirect to a presigned URL that answers with the same.
 * A photo that is embargoed, expired, killed or withdrawn (`accessOf`) is streamed with
 * `private, no-store` and never redirected; killed or withdrawn, it is 410 outside the Details view.
 */
export function renditionRoutes(
  app: ZodApp,
  source: RenditionSource,
  accessOf: (sha256: string) => Promise<RenditionAccess>,
): void {
  const schema = {
    tags: ['renditions'],
    summary:
      "A photo's thumbnail (WebP, 400 px) or preview (JPEG, 1600 px): the `renditions[].path` of a record, after /api/",
    params,
    querystring: query,
    response: {
      200: {
        description: `the image, Cache-Control immutable (\`${NO_STORE}\` for an embargoed, expired, killed or withdrawn photo, never redirected); or, with \`?as=url\` and S3 storage in redirect mode, where it is (JSON, cached ${REDIRECT_MAX_AGE_SECONDS} s)`,
        content: {
          'image/webp': { schema: image },
          'image/jpeg': { schema: image },
          'application/json': { schema: located },
        },
      },
      // No body (type null: the document gives a description only); Location is the presigned URL.
      302: z
        .null()
        .describe(
          `S3 storage: a redirect to a presigned URL of the image (the redirect cached ${REDIRECT_MAX_AGE_SECONDS} s, the image immutable)`,
        ),
      401: error('no or wrong token'),
      404: error('no such rendition'),
      410: error(
        `RENDITION_GONE: the photo is killed or withdrawn; served (\`Cache-Control: ${NO_STORE}\`) only to the desk's Details view, which sends \`X-Photowire-View: details\` from its own page`,
      ),
    },
  };
  app.get(RENDITION_ROUTE, { config: { rateLimit: false }, schema }, async (req, reply) => {
    if (!isRenditionShape(req.params)) throw notFound('no such rendition');
    // The photo's current state (the records showing these bytes, with the kill store merged in)
    // decides the answer before any byte is read: nothing guarded is cached, redirected or, when
    // killed, served outside the Details view.
    const access = await accessOf(req.params.sha256);
    if (access.access === 'gone' && !fromDetailsView(req)) {
      const { body } = errorReply(
        new HttpError(
          'RENDITION_GONE',
          `rendition ${req.params.sha256.slice(0, 12)}…/${req.params.file}: item ${access.itemId} is ${access.state}${access.why ? ` (${access.why})` : ''}`,
        ),
      );
      return reply.code(410).header('Cache-Control', NO_STORE).send(body);
    }
    const guarded = access.access !== 'open';
    const found = await source.open(req.params, { proxy: guarded });
    if (!found) throw notFound('no such rendition');
    if (found.kind === 'redirect' && req.query.as === 'url') {
      // The desk's way (web/lib/api.js): a same-origin JSON answer, so the page's fetch never follows to the bucket's origin.
      return reply
        .header('Cache-Control', `private, max-age=${REDIRECT_MAX_AGE_SECONDS}`)
        .type('application/json')
        .send(JSON.stringify({ url: found.location }));
    }
    if (found.kind === 'redirect') {
      return reply
        .header('Cache-Control', `private, max-age=${REDIRECT_MAX_AGE_SECONDS}`)
        .redirect(found.location, 302);
    }
    return (
      reply
        .header('Content-Type', found.contentType)
        .header('Content-Length', found.size)
        .header('Cache-Control', guarded ? NO_STORE : IMMUTABLE)
        .header('ETag', found.etag)
        // A stream is sent as it is (never serialized); the schema only documents the bytes.
        .send(found.body as never)
    );
  });
}
