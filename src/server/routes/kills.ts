import type { FastifyInstance } from 'fastify';
import { listKills, manualKill, parseSince } from '../../app/kills';
import type { Runtime } from '../../app/runtime';
import { killBodySchema, killListSchema, killOutcomeSchema, killQuerySchema } from '../apiSchemas';
import { HttpError } from '../httpError';
import type { ApiDocs } from '../openapi';
import { jsonRoute } from '../route';

/** The desk's Kills view and its kill button (issue 16). Both need the token when the server has one. */
export function killRoutes(app: FastifyInstance, docs: ApiDocs, rt: Runtime): void {
  jsonRoute(
    app,
    docs,
    {
      method: 'GET',
      url: '/api/kills',
      tag: 'kills',
      summary: 'Kills, withdrawals and corrections of the last days, newest first, with every copy reached and where it is stored',
      description: 'the kills',
      query: killQuerySchema,
      response: killListSchema,
      errors: { 400: 'a --since that is neither a duration nor a date' },
    },
    async ({ query }) => {
      const since = parseSince(query.since);
      if (since === null) throw new HttpError(400, 'BAD_REQUEST', `since=${query.since}: give a duration such as 3d, 12h, 90m, or an ISO date`);
      const kills = await listKills(rt.ctx, since);
      return { since: new Date(since).toISOString(), kills };
    },
  );
  jsonRoute(
    app,
    docs,
    {
      method: 'POST',
      url: '/api/kills',
      tag: 'kills',
      summary: 'Kill (or withdraw) a photo by item id or agency id: every copy, version and resend, and any that arrives later',
      description: 'the kill as stored, with every record it reached',
      body: killBodySchema,
      response: killOutcomeSchema,
      status: 201,
      errors: { 400: 'no target or no reason' },
    },
    async ({ body }) => {
      const out = await manualKill(rt.ctx, body.target, body.reason, { kind: body.withdraw ? 'withdraw' : 'kill' });
      const [kill] = await listKills(rt.ctx, Date.parse(out.event.createdAt)).then((ks) => ks.filter((k) => k.id === out.event.id));
      return { kill: kill ?? { ...out.event, copies: [], reviewCopies: [] }, targetKind: out.targetKind, webhook: out.webhook };
    },
  );
}
