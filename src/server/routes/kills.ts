import { listKills, manualKill, parseSince } from '../../app/kills';
import type { Runtime } from '../../app/runtime';
import { killBodySchema, killListSchema, killOutcomeSchema, killQuerySchema } from '../apiSchemas';
import { HttpError } from '../httpError';
import { responses, type ZodApp } from '../zodApi';

/** The desk's Kills view and its kill button (issue 16). Both need the token when the server has one. */
export function killRoutes(app: ZodApp, rt: Runtime): void {
  app.get(
    '/api/kills',
    {
      schema: {
        tags: ['kills'],
        summary: 'Kills, withdrawals and corrections of the last days, newest first, with every copy reached and where it is stored',
        querystring: killQuerySchema,
        response: responses({ 200: [killListSchema, 'the kills'] }, { 400: 'a --since that is neither a duration nor a date' }),
      },
    },
    async ({ query }) => {
      const since = parseSince(query.since);
      if (since === null) throw new HttpError(400, 'BAD_REQUEST', `since=${query.since}: give a duration such as 3d, 12h, 90m, or an ISO date`);
      const kills = await listKills(rt.ctx, since);
      return { since: new Date(since).toISOString(), kills };
    },
  );
  app.post(
    '/api/kills',
    {
      schema: {
        tags: ['kills'],
        summary: 'Kill (or withdraw) a photo by item id or agency id: every copy, version and resend, and any that arrives later',
        body: killBodySchema,
        response: responses({ 201: [killOutcomeSchema, 'the kill as stored, with every record it reached'] }, { 400: 'no target or no reason' }),
      },
    },
    async ({ body }, reply) => {
      const out = await manualKill(rt.ctx, body.target, body.reason, { kind: body.withdraw ? 'withdraw' : 'kill' });
      const [kill] = await listKills(rt.ctx, Date.parse(out.event.createdAt)).then((ks) => ks.filter((k) => k.id === out.event.id));
      return reply.code(201).send({ kill: kill ?? { ...out.event, copies: [], reviewCopies: [] }, targetKind: out.targetKind, webhook: out.webhook });
    },
  );
}
