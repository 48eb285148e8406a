import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * How many of one kind of long request (an upload, an event stream) each client address holds at
 * once. Behind a proxy every client is the proxy's address: the cap is then the proxy's together.
 */
export class PerClientSlots {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A slot for `client`, or null when it holds `max` already; call the release once the request has ended. */
  take(client: string): (() => void) | null {
    const n = this.held.get(client) ?? 0;
    if (n >= this.max) return null;
    this.held.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(client) ?? 1) - 1;
      if (left <= 0) this.held.delete(client);
      else this.held.set(client, left);
    };
  }

  /** Slots held now, all clients together (for the tests and the log). */
  get total(): number {
    let n = 0;
    for (const v of this.held.values()) n += v;
    return n;
  }
}

function expectsBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A request whose body sends nothing for `idleMs` is cut: its socket is destroyed and the handler
 * reading it sees the stream fail (an upload keeps nothing of it). The whole request's deadline is
 * fastify's `requestTimeout` (buildServer); this one ends a stalled body long before it. Once the
 * body is in, a slow answer is the server's doing and is never cut here.
 */
export function cutIdleBodies(app: FastifyInstance, idleMs: number): void {
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    if (!expectsBody(raw) || raw.complete) return done();
    const socket = raw.socket;
    socket.setTimeout(idleMs);
    // Node's server emits `timeout` on the request only while its body is incomplete.
    raw.on('timeout', () => {
      req.log.warn(
        { method: req.method, url: req.url, idleMs },
        `request body idle for ${idleMs} ms (PHOTOWIRE_HTTP_BODY_IDLE_MS): connection closed`,
      );
      socket.destroy();
    });
    // With the body in, a listener here keeps Node from closing the socket while the answer is made.
    reply.raw.on('timeout', () => {});
    // Read to its end: back to the server's own setting (Node sets the keep-alive timeout after the answer).
    raw.once('end', () => socket.setTimeout(app.server.timeout));
    done();
  });
}
