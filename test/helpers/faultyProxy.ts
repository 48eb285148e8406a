import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny HTTP proxy in front of a real S3 server that misbehaves on purpose: the next N requests
 * that match answer 503 (or are held without an answer: a timeout), then it forwards again.
 * Every request is counted, so a test can see how many times a client tried.
 */
export interface FaultyProxy {
  url: string;
  /** `METHOD path?query` of every request that reached the proxy, in order. */
  seen: string[];
  /** The next `count` requests that `match` answer `status` (503 unless given). */
  failNext(count: number, match?: (req: http.IncomingMessage) => boolean, status?: number): void;
  /** Requests that `match` get no answer at all (until `forwardAll`). */
  hang(match: (req: http.IncomingMessage) => boolean): void;
  forwardAll(): void;
  close(): Promise<void>;
}

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const up = new URL(target);
  let failing = 0;
  let failMatch: (req: http.IncomingMessage) => boolean = () => true;
  let failStatus = 503;
  let hangMatch: ((req: http.IncomingMessage) => boolean) | null = null;
  const seen: string[] = [];
  const held = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (hangMatch?.(req)) {
      held.add(res);
      req.resume();
      return;
    }
    if (failing > 0 && failMatch(req)) {
      failing--;
      req.resume();
      req.on('end', () => {
        const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>test proxy: planned ${failStatus}</Message></Error>`;
        res.writeHead(failStatus, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
      return;
    }
    const fwd = http.request(
      { host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    fwd.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(fwd);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    failNext(count, match = () => true, status = 503) {
      failing = count;
      failMatch = match;
      failStatus = status;
    },
    hang(match) {
      hangMatch = match;
    },
    forwardAll() {
      failing = 0;
      hangMatch = null;
      for (const r of held) r.destroy();
      held.clear();
    },
    async close() {
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
