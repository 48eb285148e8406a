import type { LoadedFeed } from '../../../../src/adapters/feeds/loadFeed';
import type { BatchLedger } from '../../../../src/adapters/redis/catalogStore';
import { IngestService } from '../../../../src/app/ingest/ingestService';
import { systemClock, type Clock } from '../../../../src/app/ingest/ports';
import { LedgerLostError } from '../../../../src/app/ingest/waitForBatches';
import { InputError } from '../../../../src/core/errors';
import type { EnqueueResult } from '../../../../src/queues/enqueueFeed';
import { scaledMs } from '../../../helpers/deadline';

/** IngestService built with fakes of its ports: a loader, a queue, ledgers, summaries, a logger and a clock. */

function feedOf(feedPath: string, batchId = `b-${feedPath}`, items = 2): LoadedFeed {
  return {
    batchId,
    feedPath,
    root: '/feeds',
    format: 'ndjson',
    items: Array.from({ length: items }, (_, i) => ({
      source: { file: feedPath, position: i, format: 'ndjson' },
      captionRaw: `c${i}`,
      iptc: {},
      image: null,
    })),
    article: null,
    warnings: [],
  };
}

function ledgerOf(id: string, over: Partial<BatchLedger> = {}): BatchLedger {
  return {
    id,
    feed: id,
    format: 'ndjson',
    createdAt: '',
    finishedAt: null,
    state: 'open',
    expected: 2,
    ok: 0,
    failed: 0,
    warnings: [],
    skipped: {},
    article: null,
    processingMs: null,
    exportError: null,
    ...over,
  } as BatchLedger;
}

class FakeClock implements Clock {
  t = 1_000_000;
  sleeps: number[] = [];
  now(): number {
    return this.t;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.t += ms;
  }
}

function build(
  opts: {
    feeds?: Record<string, LoadedFeed | Error>;
    ledger?: (id: string, poll: number, clock: FakeClock) => BatchLedger | null;
    clock?: Clock;
    lostMs?: number;
  } = {},
) {
  const calls: string[] = [];
  const warnings: string[] = [];
  const clock = new FakeClock();
  let polls = 0;
  const svc = new IngestService<{ batchId: string }>({
    loader: {
      async load(p) {
        calls.push(`load ${p}`);
        const f = opts.feeds?.[p];
        if (!f) throw new InputError('FEED_UNREADABLE', `${p}: no such file`);
        if (f instanceof Error) throw f;
        return f;
      },
    },
    queue: {
      async enqueue(feed): Promise<EnqueueResult> {
        calls.push(`enqueue ${feed.batchId}`);
        return {
          batchId: feed.batchId,
          created: true,
          ledger: 'created' as EnqueueResult['ledger'],
          expected: feed.items.length,
        };
      },
    },
    ledgers: {
      async getBatch(id) {
        calls.push(`ledger ${id}`);
        return (opts.ledger ?? ((i) => ledgerOf(i, { state: 'done', ok: 2 })))(id, polls++, clock);
      },
    },
    summaries: {
      async summarize(id) {
        calls.push(`summarize ${id}`);
        return { batchId: id };
      },
    },
    logger: { info: () => undefined, warn: (_o, msg) => warnings.push(msg) },
    lostMs: opts.lostMs ?? 60_000,
    clock: opts.clock ?? clock,
  });
  return { svc, calls, warnings, clock };
}

describe('IngestService.ingest', () => {
  it('loads and enqueues each feed; an unreadable feed is an outcome with its code and the others go on', async () => {
    const { svc, calls } = build({
      feeds: { '/a.ndjson': feedOf('/a.ndjson'), '/c.ndjson': feedOf('/c.ndjson', 'b-c', 3) },
    });
    const out = await svc.ingest(['/a.ndjson', '/missing.ndjson', '/c.ndjson']);
    expect(out).toEqual([
      { path: '/a.ndjson', batchId: 'b-/a.ndjson', created: true, expected: 2, error: null },
      {
        path: '/missing.ndjson',
        batchId: null,
        created: false,
        expected: 0,
        error: { code: 'FEED_UNREADABLE', message: '/missing.ndjson: no such file' },
      },
      { path: '/c.ndjson', batchId: 'b-c', created: true, expected: 3, error: null },
    ]);
    expect(calls).toEqual([
      'load /a.ndjson',
      'enqueue b-/a.ndjson',
      'load /missing.ndjson',
      'load /c.ndjson',
      'enqueue b-c',
    ]);
  });

  it('throws what is not an input error (Redis gone is not a bad feed)', async () => {
    const { svc } = build({ feeds: { '/a.ndjson': new Error('connect ECONNREFUSED') } });
    await expect(svc.ingest(['/a.ndjson'])).rejects.toThrow('ECONNREFUSED');
  });
});

describe('IngestService.wait: the one wait loop', () => {
  it('polls until every batch is done, reporting progress over all of them', async () => {
    const seen: string[] = [];
    const { svc, clock } = build({
      ledger: (id, poll) => ledgerOf(id, poll < 4 ? { ok: Math.floor(poll / 2) } : { state: 'done', ok: 2 }),
    });
    const ledgers = await svc.wait(['x', 'y'], { onProgress: (p) => seen.push(`${p.done}/${p.total}`) });
    expect(ledgers.map((l) => l.id)).toEqual(['x', 'y']);
    expect(seen).toEqual(['0/4', '2/4', '4/4']);
    expect(clock.sleeps).toEqual([150, 150]);
  });

  it('waits through Redis not answering (a restart) and goes on when it is back', async () => {
    const { svc, warnings, clock } = build({
      ledger: (id, poll) => {
        if (poll < 6) throw new Error('Connection is closed.');
        return ledgerOf(id, { state: 'done', ok: 2 });
      },
    });
    const [l] = await svc.wait(['x']);
    expect(l.state).toBe('done');
    expect(warnings.filter((w) => w === 'lost Redis while waiting; retrying')).toHaveLength(6);
    expect(clock.sleeps).toEqual([500, 500, 500, 500, 500, 500]);
  });

  it('gives up with LedgerLostError when Redis stays silent for lostMs', async () => {
    const { svc } = build({
      lostMs: 3000,
      ledger: () => {
        throw new Error('Connection is closed.');
      },
    });
    const err = await svc.wait(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerLostError);
    expect((err as LedgerLostError).message).toMatch(
      /^Redis did not answer for 3 s while waiting for x \(Connection is closed\.\); gave up waiting \(PHOTOWIRE_LEDGER_LOST_MS\)$/,
    );
    expect((err as LedgerLostError).code).toBe('LEDGER_LOST');
  });

  it('says at once that a ledger vanished, and gives up naming it after lostMs', async () => {
    const { svc, warnings } = build({ lostMs: 2000, ledger: () => null });
    const err = await svc.wait(['gone']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerLostError);
    expect((err as Error).message).toMatch(
      /^batch gone: its ledger has been missing from Redis for 2 s .*gave up waiting/,
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^batch gone has no ledger in Redis any more .*--recreate/);
  });

  it('re-creates a vanished ledger with `recreate` and waits for the new one', async () => {
    let recreated = false;
    const { svc, warnings } = build({ ledger: (id) => (recreated ? ledgerOf(id, { state: 'done', ok: 2 }) : null) });
    const [l] = await svc.wait(['x'], {
      recreate: async (id) => {
        recreated = true;
        return `batch ${id}: re-created`;
      },
    });
    expect(l.state).toBe('done');
    expect(warnings).toEqual([expect.stringMatching(/re-creating it from the feed$/), 'batch x: re-created']);
  });

  it('stops at once when aborted, in the middle of a pause, with the signal reason', async () => {
    const { svc } = build({ ledger: (id) => ledgerOf(id), clock: systemClock });
    const abort = new AbortController();
    const started = Date.now();
    setTimeout(() => abort.abort(new Error('watcher stopping')), 50);
    // a pause of ten minutes: only the abort can end the wait this soon, however busy the machine
    await expect(svc.wait(['x'], { signal: abort.signal, pollMs: 600_000 })).rejects.toThrow('watcher stopping');
    expect(Date.now() - started).toBeLessThan(scaledMs(5000));
  });

  it('stops when aborted while Redis does not answer', async () => {
    const abort = new AbortController();
    const { svc } = build({
      ledger: (_id, poll) => {
        if (poll === 3) abort.abort(new Error('lease lost'));
        throw new Error('Connection is closed.');
      },
    });
    await expect(svc.wait(['x'], { signal: abort.signal })).rejects.toThrow('lease lost');
  });

  it('times out after timeoutMs with the batches named', async () => {
    const { svc } = build({ ledger: (id) => ledgerOf(id) });
    await expect(svc.wait(['x', 'y'], { timeoutMs: 1000 })).rejects.toThrow('timed out waiting for x, y');
  });
});

describe('IngestService.take and recreate', () => {
  it('enqueues, lets the caller record its run, waits, then summarizes', async () => {
    const { svc, calls } = build();
    const r = await svc.take(feedOf('/a.ndjson', 'b1'), {
      onEnqueued: async (enq) => {
        calls.push(`run recorded for ${enq.batchId} (${enq.expected} items)`);
      },
    });
    expect(r.summary).toEqual({ batchId: 'b1' });
    expect(r.enqueued.created).toBe(true);
    expect(calls).toEqual(['enqueue b1', 'run recorded for b1 (2 items)', 'ledger b1', 'summarize b1']);
  });

  it('re-creates a batch from its unchanged feed, and refuses a feed that changed', async () => {
    const { svc } = build({
      feeds: { '/a.ndjson': feedOf('/a.ndjson', 'b1') },
      ledger: (id) => ledgerOf(id, { ok: 1 }),
    });
    await expect(svc.recreate('/a.ndjson', 'b1')).resolves.toBe(
      'batch b1: re-created from /a.ndjson (2 items, 1 already recorded)',
    );
    const err = await svc.recreate('/a.ndjson', 'b-older').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerLostError);
    expect((err as Error).message).toMatch(/has changed since \(it is now batch b1\)/);
  });
});
