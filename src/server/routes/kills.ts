import { killCopiesPage, liftKillReport, listKills, parseSince, placeKillReport } from '../../app/kills';
import type { Runtime } from '../../app/runtime';
import {
  killBodySchema,
  killCopiesQuerySchema,
  killCopiesSchema,
  killIdParamsSchema,
  killLiftBodySchema,
  killLiftOutcomeSchema,
  killListSchema,
  killOutcomeSchema,
  killQuerySchema,
} from '../../schemas/api';
import { HttpError } from '../httpError';
import { responses, type ZodApp } from '../zodApi';

/** The desk's Kills view, its kill and lift buttons. All need the token when the server has one. */
export function killRoutes(app: ZodApp, rt: Runtime): void {
  app.get(
    '/api/kills',
    {
      schema: {
        tags: ['kills'],
        summary:
          'Kills, withdrawals and corrections of the last days, newest first, each with the first copies it reached and where they are stored',
        querystring: killQuerySchema,
        response: responses(
          { 200: [killListSchema, 'the kills'] },
          { 400: 'a --since that is neither a duration nor a date' },
        ),
      },
    },
    async ({ query }) => {
      const since = parseSince(query.since);
      if (since === null)
        throw new HttpError(
          400,
          'BAD_REQUEST',
          `since=${query.since}: give a duration such as 3d, 12h, 90m, or an ISO date`,
        );
      const kills = await listKills(rt.ctx, since, { all: query.all === '1' || query.all === 'true' });
      return { since: new Date(since).toISOString(), kills };
    },
  );
  app.get(
    '/api/kills/:id/copies',
    {
      schema: {
        tags: ['kills'],
        summary: 'A page of the records a kill reached (or, with review=1, listed for review), after an item id',
        params: killIdParamsSchema,
        querystring: killCopiesQuerySchema,
        response: responses({ 200: [killCopiesSchema, 'the page; `next` is the `after` of the next one'] }),
      },
    },
    async ({ params, query }) =>
      killCopiesPage(rt.ctx, params.id, { after: query.after, limit: query.limit, review: query.review === '1' }),
  );
  app.post(
    '/api/kills',
    {
      schema: {
        tags: ['kills'],
        summary:
          'Kill (or withdraw) a photo by item id, photo id, stored original or agency id: every copy, version and resend, and any that arrives later',
        body: killBodySchema,
        response: responses(
          {
            201: [
              killOutcomeSchema,
              'the kill as stored, with the first records it reached (`matched` false: none yet, it stands for later arrivals)',
            ],
          },
          { 400: 'no target or no reason', 409: 'a bare agency id seen from more than one agency: name the agency' },
        ),
      },
    },
    async ({ body }, reply) => {
      const report = await placeKillReport(rt.ctx, body.target, body.reason, {
        kind: body.withdraw ? 'withdraw' : 'kill',
        agency: body.agency,
        by: 'desk',
      });
      return reply.code(201).send(report);
    },
  );
  app.post(
    '/api/kills/:id/lift',
    {
      schema: {
        tags: ['kills'],
        summary:
          'Lift a kill (sent in error, a mistyped id): kept with who, when and why; its records get the status the other kills give them',
        params: killIdParamsSchema,
        body: killLiftBodySchema,
        response: responses(
          { 200: [killLiftOutcomeSchema, 'the kill, now lifted, and how many records it no longer decides'] },
          { 404: 'no such kill' },
        ),
      },
    },
    async ({ params, body }) => {
      return liftKillReport(rt.ctx, params.id, body.reason, { by: 'desk' });
    },
  );
}
