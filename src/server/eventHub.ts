import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';

interface Stream {
  res: ServerResponse;
  lastWrite: number;
}

interface Group {
  key: string;
  query: { days: number; limit: number };
  streams: Set<Stream>;
  /** The last message sent to the group's streams ('' before the first). */
  last: string;
}

/**
 * One poller for every open /api/events stream. Each stream had a timer of its own reading the
 * ledgers: 300 idle streams cost 66% of a core and /healthz 1.1 s. Now one timer reads the batch
 * list once per tick for each distinct query (a page asks for the same `days`/`limit`, so usually
 * once) and writes the same message to every stream that asked for it.
 */
export class BatchEventHub {
  private readonly groups = new Map<string, Group>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  /** Reads of the batch list since start (the tests compare it with the streams open). */
  reads = 0;
  /** Ticks of the poller since start. */
  ticks = 0;

  constructor(
    private readonly read: (query: { days: number; limit: number }) => Promise<string>,
    private readonly opts: { intervalMs: number; heartbeatMs: number; log: FastifyBaseLogger },
  ) {}

  /** Streams open now, and pollers running (0 or 1). */
  get stats(): { streams: number; queries: number; pollers: number } {
    let streams = 0;
    for (const g of this.groups.values()) streams += g.streams.size;
    return { streams, queries: this.groups.size, pollers: this.timer ? 1 : 0 };
  }

  /** Add a stream (its headers already written): it gets the current list at once, then every change. */
  async add(res: ServerResponse, query: { days: number; limit: number }): Promise<void> {
    if (res.destroyed || res.writableEnded) return; // gone before it was added: 'close' will not come again
    const key = `${query.days}:${query.limit}`;
    let group = this.groups.get(key);
    const fresh = !group;
    if (!group) {
      group = { key, query, streams: new Set(), last: '' };
      this.groups.set(key, group);
    }
    const stream: Stream = { res, lastWrite: Date.now() };
    group.streams.add(stream);
    res.on('close', () => this.remove(key, stream));
    this.timer ??= setInterval(() => void this.tick(), this.opts.intervalMs);
    if (fresh) await this.refresh(group);
    else if (group.last !== '') this.write(stream, group.last);
  }

  /** End every stream (the server is closing). */
  close(): void {
    for (const g of this.groups.values()) for (const s of g.streams) s.res.end();
    this.groups.clear();
    this.stop();
  }

  private remove(key: string, stream: Stream): void {
    const group = this.groups.get(key);
    if (!group) return;
    group.streams.delete(stream);
    if (group.streams.size === 0) this.groups.delete(key);
    if (this.groups.size === 0) this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.ticks++;
    try {
      for (const group of [...this.groups.values()]) await this.refresh(group);
    } finally {
      this.busy = false;
    }
  }

  private async refresh(group: Group): Promise<void> {
    let data: string;
    try {
      this.reads++;
      data = await this.read(group.query);
    } catch (err) {
      this.opts.log.warn({ err }, 'events: could not read the batches');
      return;
    }
    const now = Date.now();
    const changed = data !== group.last;
    group.last = data;
    for (const s of group.streams) {
      if (changed) this.write(s, data);
      else if (now - s.lastWrite > this.opts.heartbeatMs) {
        // Proxies drop a silent connection; a comment line keeps it open.
        if (!s.res.writableEnded) s.res.write(': keep-alive\n\n');
        s.lastWrite = now;
      }
    }
  }

  private write(stream: Stream, data: string): void {
    if (stream.res.writableEnded) return;
    stream.res.write(`event: batches\ndata: ${data}\n\n`);
    stream.lastWrite = Date.now();
  }
}
