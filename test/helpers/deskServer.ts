// content-disposition 3 (required by @fastify/static, which bull-board registers) is ESM-only;
// jest's CommonJS runtime cannot load it, while Node >= 20.19 does. Only reply.download() uses it,
// and photowire never calls that, so tests stand in a minimal version.
jest.mock('content-disposition', () => ({ create: () => (name: string) => `attachment; filename="${name}"` }));

import type { FastifyInstance } from 'fastify';
import { startServer } from '../../src/server/startServer';
import type { ServerOptions } from '../../src/server/buildServer';
import { TestPipeline } from './pipeline';

export interface Desk {
  p: TestPipeline;
  app: FastifyInstance;
  url: string;
  token: string | null;
  /** fetch against the desk, with the token unless `auth: false`. */
  fetch(path: string, init?: RequestInit & { auth?: boolean }): Promise<Response>;
  close(): Promise<void>;
}

/** A real desk: a fresh pipeline (real Redis, fresh prefix and data dir, workers) and the server listening on 127.0.0.1, port 0. */
export async function startDesk(
  opts: { token?: string | null; overrides?: Record<string, string>; workers?: boolean; server?: ServerOptions } = {},
): Promise<Desk> {
  const token = opts.token === undefined ? 'desk-test-token-0123456789' : opts.token;
  const p = await TestPipeline.start({ overrides: opts.overrides, workers: opts.workers });
  let s;
  try {
    s = await startServer(p.rt, { host: '127.0.0.1', port: 0 }, { eventsIntervalMs: 200, ...opts.server, token });
  } catch (err) {
    await p.close();
    throw err;
  }
  const { app, url } = s;
  return {
    p,
    app,
    url,
    token,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      if (token && init.auth !== false) headers.set('Authorization', `Bearer ${token}`);
      return fetch(url + path, { ...init, headers });
    },
    close: async () => {
      await app.close();
      await p.close();
    },
  };
}
