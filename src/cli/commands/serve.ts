import { Runtime } from '../../app/runtime';
import { UsageError } from '../usageError';
import { serveUntilSignal } from '../shutdown';
import { startServer } from '../../server/startServer';

export interface ServeOptions {
  host: string;
  port: number;
  /** Also run item and batch workers in this process (one machine, no separate `photowire worker`). */
  workers?: boolean;
  concurrency?: number;
}

/** The desk: HTTP API, page and queue board until SIGTERM. */
export async function serveCommand(opts: ServeOptions): Promise<number> {
  const rt = await Runtime.open({ allowPrivateRedis: false });
  let server;
  try {
    if (opts.workers) await rt.startWorkers(opts.concurrency);
    server = await startServer(rt, { host: opts.host, port: opts.port });
  } catch (err) {
    await rt.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE')
      throw new UsageError(
        `serve: port ${opts.port} on ${opts.host} is already in use`,
        'stop what listens there, or choose another port: photowire serve --port 8081 (0 picks a free one)',
      );
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      throw new UsageError(
        `serve: cannot listen on ${opts.host}: no such address on this machine`,
        'use --host 127.0.0.1 (this machine only) or an address this machine has',
      );
    if (code === 'EACCES')
      throw new UsageError(
        `serve: not allowed to listen on port ${opts.port}`,
        'ports below 1024 need privileges: use e.g. --port 8080',
      );
    throw err;
  }
  const { app, url } = server;
  rt.logger.info(
    {
      url,
      auth: rt.config.apiToken ? 'bearer token' : 'none (loopback only)',
      workers: !!opts.workers,
      dataDir: rt.config.dataDir,
    },
    'desk ready',
  );
  if (process.stderr.isTTY)
    process.stderr.write(`photowire desk: ${url}/  (queues: ${url}/admin/queues, API: ${url}/openapi.json)\n`);
  return await serveUntilSignal(rt, () => app.close(), 'stopping the desk');
}
