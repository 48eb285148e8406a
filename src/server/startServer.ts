import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../app/runtime';
import { assertServable } from './auth';
import { buildServer, type ServerOptions } from './buildServer';

export interface RunningServer {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
}

/** Build and listen. Refuses (AuthConfigError) a non-loopback address without a token. */
export async function startServer(
  rt: Runtime,
  listen: { host: string; port: number },
  opts: ServerOptions = {},
): Promise<RunningServer> {
  const token = opts.token === undefined ? rt.config.apiToken : (opts.token ?? undefined);
  assertServable(listen.host, token);
  const app = await buildServer(rt, opts);
  try {
    await app.listen({ host: listen.host, port: listen.port });
  } catch (err) {
    await app.close();
    throw err;
  }
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : listen.port;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return { app, url: `http://${host}:${port}`, port };
}
