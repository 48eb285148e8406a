import * as path from 'node:path';
import type { LoadedFeed } from '../../../../src/adapters/feeds/loadFeed';
import { HotFolderError, HotFolderService, type TakeResult } from '../../../../src/app/hotFolder/hotFolderService';
import type { Claim, HotFolderLogger, HotFolderPorts, HotFolderSettings } from '../../../../src/app/hotFolder/ports';
import type { EntryObservation } from '../../../../src/app/hotFolder/settle';
import type { RunRecord } from '../../../../src/core/runs/runRecord';
import type { SourceStatus } from '../../../../src/core/runs/stale';
import { InputError } from '../../../../src/core/errors';
import { scaledMs } from '../../../helpers/deadline';

/**
 * HotFolderService built with fakes of its ports (src/app/hotFolder/ports.ts): an in-memory hot
 * folder, an ingest service whose takes can be held open, claims, a run log, a logger and a clock.
 * The real ports over node:fs and Redis are tested end to end in test/integration/watch.test.ts.
 */

const DIR = '/hot';
const REAL_DIR = '/real/hot';

type Entry = Omit<EntryObservation, 'name'> & { target?: string; real?: string };

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function feedOf(feedPath: string, images: string[] = []): LoadedFeed {
  return {
    batchId: `b-${path.basename(feedPath)}`,
    feedPath,
    root: path.dirname(feedPath),
    format: images.length ? 'csv' : 'jpeg',
    items: (images.length ? images : [feedPath]).map((image, i) => ({
      source: { file: feedPath, position: i, format: 'csv' },
      captionRaw: `c${i}`,
      iptc: {},
      image,
    })),
    article: null,
    warnings: [],
  } as LoadedFeed;
}

class Fakes {
  t = 1_000_000;
  readonly entries = new Map<string, Entry>();
  readonly feeds = new Map<string, LoadedFeed | Error>();
  readonly calls: string[] = [];
  readonly moves: Array<{ name: string; outcome: string; error?: { code: string; message: string } }> = [];
  readonly taken: LoadedFeed[] = [];
  readonly runs = new Map<string, RunRecord>();
  /** What the service recorded as moved, per batch (the retry reads items from there). */
  readonly recordedMoves: Array<{ batchId: string; moves: Array<{ from: string; to: string }> }> = [];
  readonly saves: RunRecord[] = [];
  readonly logs: Array<{ level: string; msg: string; obj: object }> = [];
  readonly claimsHeld = new Map<string, string>();
  readonly claimEvents: string[] = [];
  readonly sources: SourceStatus[] = [];
  readonly watches: Array<{ dir: string; onChange: () => void; closed: boolean }> = [];
  kind: 'folder' | 'missing' | 'other' = 'folder';
  /** Takes wait on this before their batch "ends"; null: they end at once. */
  hold: Deferred | null = null;
  /** enqueue's `created` for a batch id (default true). */
  created = new Map<string, boolean>();
  nonces = 0;
  /** The pairs port's store (Redis in production), shared by every service built on these fakes: a restart keeps it. */
  readonly pairWaits = new Map<string, number>();
  readonly deliveryFolders = new Set<string>();

  put(name: string, e: Partial<Entry> = {}): void {
    this.entries.set(name, { kind: 'file', signature: '10:1', ino: this.entries.size + 1, incomplete: false, ...e });
  }

  ports(): HotFolderPorts {
    const logger = (bindings: object): HotFolderLogger => ({
      info: (obj, msg) => this.logs.push({ level: 'info', msg, obj: { ...bindings, ...obj } }),
      warn: (obj, msg) => this.logs.push({ level: 'warn', msg, obj: { ...bindings, ...obj } }),
      error: (obj, msg) => this.logs.push({ level: 'error', msg, obj: { ...bindings, ...obj } }),
      child: (b) => logger({ ...bindings, ...b }),
    });
    const observe = (name: string): EntryObservation | null => {
      const e = this.entries.get(name);
      if (!e) return null;
      const { target: _t, real: _r, ...obs } = e;
      return { name, ...obs };
    };
    return {
      files: {
        kindOf: async () => this.kind,
        scan: async () => ({
          candidates: [...this.entries.keys()].sort().map((n) => observe(n)!),
          temps: [],
          marked: new Set(),
        }),
        observe: async (_dir, name) => observe(name),
        readLink: async (file) => this.entries.get(path.basename(file))?.target ?? null,
        specialKind: async () => 'a FIFO',
        realPath: async (p) =>
          p === DIR ? REAL_DIR : (this.entries.get(path.basename(p))?.real ?? path.join(REAL_DIR, path.basename(p))),
        loadFolder: async (dir) => {
          this.calls.push(`loadFolder ${dir}`);
          return feedOf(dir);
        },
        move: async (_dir, name, outcome, _at, error) => {
          this.moves.push({ name, outcome, ...(error ? { error } : {}) });
          this.entries.delete(name);
          return `${DIR}/${outcome}/day/${name}`;
        },
        exists: async (p) => this.entries.has(path.basename(p)),
        watch: (dir, onChange) => {
          const w = { dir, onChange, closed: false };
          this.watches.push(w);
          return { close: () => (w.closed = true) };
        },
      },
      ingest: {
        load: async (p) => {
          this.calls.push(`load ${p}`);
          const f = this.feeds.get(p);
          if (f === undefined) throw new InputError('FEED_UNKNOWN_FORMAT', `${p}: not a feed`);
          if (f instanceof Error) throw f;
          return f;
        },
        take: async (feed, opts) => {
          this.taken.push(feed);
          await opts.onEnqueued?.({
            batchId: feed.batchId,
            created: this.created.get(feed.batchId) ?? true,
            ledger: 'created',
            expected: feed.items.length,
          } as never);
          if (this.hold) {
            const held = this.hold.promise;
            await new Promise<void>((resolve, reject) => {
              held.then(resolve, reject);
              opts.signal?.addEventListener('abort', () => reject(opts.signal!.reason));
            });
          }
          return { summary: { ok: feed.items.length, failed: 0, duplicates: 0 } };
        },
      },
      claims: {
        key: (file) => `claim:${file}`,
        acquire: async (file, token): Promise<Claim | null> => {
          if (this.claimsHeld.has(file)) return null;
          this.claimsHeld.set(file, token);
          const events = this.claimEvents;
          const held = this.claimsHeld;
          return {
            isLost: false,
            keepAlive: () => undefined,
            release: async () => {
              events.push(`release ${path.basename(file)}`);
              held.delete(file);
            },
            stopRenewing: () => events.push(`expire ${path.basename(file)}`),
          };
        },
      },
      runs: {
        save: async (run) => {
          this.saves.push(run);
          this.runs.set(run.id, run);
        },
        get: async (id) => this.runs.get(id) ?? null,
        registerSource: async (kind, name) => {
          this.calls.push(`registerSource ${kind} ${name}`);
        },
        touchSource: async () => undefined,
        sources: async () => this.sources,
      },
      moves: {
        record: async (batchId, moves) => {
          this.recordedMoves.push({ batchId, moves: [...moves] });
          return true;
        },
      },
      pairs: {
        since: async (dir, name, now) => {
          const k = `${dir}\0${name}`;
          if (!this.pairWaits.has(k)) this.pairWaits.set(k, now);
          return this.pairWaits.get(k)!;
        },
        clear: async (dir, names) => {
          for (const n of names) this.pairWaits.delete(`${dir}\0${n}`);
        },
        markDelivery: async (dir) => {
          this.deliveryFolders.add(dir);
        },
        isDelivery: async (dir) => this.deliveryFolders.has(dir),
      },
      logger: logger({}),
      now: () => this.t,
      nonce: () => `n${++this.nonces}`,
    };
  }
}

const SETTLE = 1000;

function settings(over: Partial<HotFolderSettings> = {}): HotFolderSettings {
  return {
    dirs: [DIR],
    settleMs: SETTLE,
    scanMs: 3_600_000,
    claimTtlMs: 30_000,
    fsWatch: false,
    owner: 'test',
    holdWarnMs: 5 * SETTLE,
    maxTakes: 16,
    staleHours: 24,
    pairWaitMs: 0,
    ...over,
  };
}

const services: HotFolderService[] = [];

async function started(
  f: Fakes,
  over: Partial<HotFolderSettings> = {},
): Promise<{ svc: HotFolderService; results: TakeResult[]; scan: () => Promise<void> }> {
  const svc = new HotFolderService(f.ports(), settings(over));
  services.push(svc);
  const results: TakeResult[] = [];
  svc.on('taken', (r: TakeResult) => results.push(r));
  await svc.start();
  // start() runs the first scan; the next ones come from the test (scanMs is an hour).
  while (svc.scans < 1) await new Promise((r) => setImmediate(r));
  await svc.idle();
  return {
    svc,
    results,
    scan: async () => {
      await svc.scanOnce();
      await new Promise((r) => setImmediate(r));
      if (!f.hold) await svc.idle();
    },
  };
}

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.stop()));
});

describe('HotFolderService (fake ports)', () => {
  it('takes a file once it has not changed for settleMs: through the ingest service, then to processed/ with a done run', async () => {
    const f = new Fakes();
    f.put('photo.jpg');
    f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
    const { results, scan } = await started(f);
    expect(f.taken).toEqual([]);
    f.t += SETTLE - 1;
    await scan();
    expect(f.taken).toEqual([]);
    f.t += 1;
    await scan();
    expect(f.taken.map((x) => [x.batchId, x.root])).toEqual([['b-photo.jpg', REAL_DIR]]);
    expect(f.moves).toEqual([{ name: 'photo.jpg', outcome: 'processed' }]);
    expect(results).toEqual([
      {
        dir: DIR,
        name: 'photo.jpg',
        file: `${DIR}/photo.jpg`,
        reason: 'settled',
        outcome: 'processed',
        movedTo: `${DIR}/processed/day/photo.jpg`,
        companionsMovedTo: [],
        batchId: 'b-photo.jpg',
        error: null,
      },
    ]);
    const run = f.runs.get('drop-b-photo.jpg')!;
    expect([run.state, run.files, run.items, run.ok, run.batchId, run.source]).toEqual([
      'done',
      1,
      1,
      1,
      'b-photo.jpg',
      `${DIR}/photo.jpg`,
    ]);
    expect(f.claimEvents).toEqual(['release photo.jpg']);
    expect(f.calls).toContain(`registerSource watch ${DIR}`);
  });

  it('waits while a file keeps changing', async () => {
    const f = new Fakes();
    f.put('photo.jpg', { signature: '1:1' });
    f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
    const { scan } = await started(f);
    for (let i = 2; i < 6; i++) {
      f.t += SETTLE;
      f.put('photo.jpg', { signature: `${i}:${i}` });
      await scan();
    }
    expect(f.taken).toEqual([]);
    f.t += SETTLE;
    await scan();
    expect(f.taken).toHaveLength(1);
  });

  it('refuses a symlink without reading it: to failed/ with its error (the .error.json), a failed run, never loaded', async () => {
    const f = new Fakes();
    f.put('innocent', { kind: 'link', target: '/etc' });
    f.put('fifo', { kind: 'special' });
    const { results, scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(f.calls.filter((c) => c.startsWith('load'))).toEqual([]);
    expect(f.taken).toEqual([]);
    expect(f.moves.map((m) => [m.name, m.outcome, m.error?.code])).toEqual([
      ['fifo', 'failed', 'FEED_UNREADABLE'],
      ['innocent', 'failed', 'PATH_OUTSIDE_FEED'],
    ]);
    expect(f.moves[1].error?.message).toBe(
      `${DIR}/innocent: a symlink to /etc; a hot folder takes only the files and folders dropped into it, never what a symlink points to`,
    );
    expect(results.map((r) => [r.name, r.outcome, r.batchId])).toEqual([
      ['fifo', 'failed', null],
      ['innocent', 'failed', null],
    ]);
    const failed = f.saves.filter((r) => r.state === 'failed');
    expect(failed.map((r) => r.note)).toEqual([
      expect.stringMatching(/^FEED_UNREADABLE: .*\(moved to \/hot\/failed\/day\/fifo\)$/),
      expect.stringMatching(/^PATH_OUTSIDE_FEED: /),
    ]);
  });

  it('refuses an entry whose real path is outside the hot folder (swapped for a link since the scan)', async () => {
    const f = new Fakes();
    f.put('gallery', { kind: 'dir', real: '/elsewhere/gallery' });
    const { scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(f.calls.filter((c) => c.startsWith('load'))).toEqual([]);
    expect(f.moves.map((m) => [m.name, m.outcome, m.error?.code])).toEqual([
      ['gallery', 'failed', 'PATH_OUTSIDE_FEED'],
    ]);
  });

  it('reads a dropped folder as one feed', async () => {
    const f = new Fakes();
    f.put('gallery', { kind: 'dir' });
    const { results, scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(f.calls).toContain(`loadFolder ${DIR}/gallery`);
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['gallery', 'processed']]);
  });

  it('moves a feed that cannot be read to failed/ with its code; any other fault leaves it in place, claim released', async () => {
    const f = new Fakes();
    f.put('bad.xml');
    f.put('flaky.xml');
    f.feeds.set(`${DIR}/flaky.xml`, Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const { results, scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(f.moves.map((m) => [m.name, m.outcome, m.error?.code])).toEqual([
      ['bad.xml', 'failed', 'FEED_UNKNOWN_FORMAT'],
    ]);
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['bad.xml', 'failed']]);
    expect(f.entries.has('flaky.xml')).toBe(true);
    expect(f.logs.filter((l) => l.level === 'error').map((l) => l.msg)).toEqual([
      'hot folder: taking a file failed; it stays for the next scan',
    ]);
    expect([...f.claimEvents].sort()).toEqual(['release bad.xml', 'release flaky.xml']);
  });

  it('leaves a file another watcher has claimed, and one that changed between the scan and the claim', async () => {
    const f = new Fakes();
    f.put('a.jpg');
    f.put('b.jpg');
    f.feeds.set(`${DIR}/b.jpg`, feedOf(`${DIR}/b.jpg`));
    f.claimsHeld.set(`${DIR}/a.jpg`, 'other-watcher');
    const ports = f.ports();
    const observe = ports.files.observe;
    ports.files.observe = async (dir, name, signal) => {
      const o = await observe(dir, name, signal);
      return o && name === 'b.jpg' ? { ...o, signature: 'grew' } : o;
    };
    const svc = new HotFolderService(ports, settings());
    services.push(svc);
    await svc.start();
    while (svc.scans < 1) await new Promise((r) => setImmediate(r));
    f.t += SETTLE;
    await svc.scanOnce();
    await svc.idle();
    expect(f.taken).toEqual([]);
    expect(f.moves).toEqual([]);
    expect(f.claimEvents).toEqual(['release b.jpg']);
    expect(svc.claimKey(`${DIR}/a.jpg`)).toBe(`claim:${DIR}/a.jpg`);
  });

  it('takes at most maxTakes entries at once; the rest wait in the folder (said once) and are taken later', async () => {
    const f = new Fakes();
    for (const n of ['a.jpg', 'b.jpg', 'c.jpg']) {
      f.put(n);
      f.feeds.set(`${DIR}/${n}`, feedOf(`${DIR}/${n}`));
    }
    f.hold = deferred();
    const { svc, results, scan } = await started(f, { maxTakes: 2 });
    f.t += SETTLE;
    await scan();
    await scan();
    expect(f.taken.map((x) => x.batchId)).toEqual(['b-a.jpg', 'b-b.jpg']);
    const capped = f.logs.filter((l) => l.msg.includes('wait for a free take'));
    expect(capped.map((l) => l.msg)).toEqual([
      'hot folder: 1 complete entries wait for a free take (2 in flight, at most 2 per watcher)',
    ]);
    f.hold.resolve();
    f.hold = null;
    await svc.idle();
    await scan();
    expect(f.taken.map((x) => x.batchId)).toEqual(['b-a.jpg', 'b-b.jpg', 'b-c.jpg']);
    expect(results.map((r) => r.outcome)).toEqual(['processed', 'processed', 'processed']);
  });

  it("moves a feed's photos with it and never takes them on their own", async () => {
    const f = new Fakes();
    f.put('feed.csv');
    f.put('photo.jpg');
    f.put('other.jpg');
    f.feeds.set(`${DIR}/feed.csv`, feedOf(`${DIR}/feed.csv`, [`${DIR}/photo.jpg`, `${DIR}/missing.jpg`]));
    f.feeds.set(`${DIR}/other.jpg`, feedOf(`${DIR}/other.jpg`));
    const { results, scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(f.taken.map((x) => x.batchId).sort()).toEqual(['b-feed.csv', 'b-other.jpg']);
    const feed = results.find((r) => r.name === 'feed.csv')!;
    expect(feed.companionsMovedTo).toEqual([`${DIR}/processed/day/photo.jpg`]);
    expect(f.moves.map((m) => m.name)).toEqual(expect.arrayContaining(['photo.jpg', 'feed.csv', 'other.jpg']));
    expect(f.moves.findIndex((m) => m.name === 'photo.jpg')).toBeLessThan(
      f.moves.findIndex((m) => m.name === 'feed.csv'),
    );
    // Recorded with the batch, so that a retry of its items reads them from processed/.
    expect(f.recordedMoves.find((r) => r.batchId === 'b-feed.csv')!.moves).toEqual([
      { from: `${DIR}/photo.jpg`, to: `${DIR}/processed/day/photo.jpg` },
      { from: `${DIR}/feed.csv`, to: `${DIR}/processed/day/feed.csv` },
    ]);
  });

  it('clears away the same file taken before: already-taken, an empty run, nothing ingested twice', async () => {
    const f = new Fakes();
    f.put('photo.jpg');
    f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
    f.runs.set('drop-b-photo.jpg', { id: 'drop-b-photo.jpg', state: 'done' } as RunRecord);
    f.created.set('b-photo.jpg', false);
    const { results, scan } = await started(f);
    f.t += SETTLE;
    await scan();
    expect(results.map((r) => [r.outcome, r.movedTo])).toEqual([['already-taken', `${DIR}/processed/day/photo.jpg`]]);
    const last = f.saves[f.saves.length - 1];
    expect([last.id, last.state, last.note]).toEqual([
      `drop-b-photo.jpg-${f.t}`,
      'empty',
      'the same file was taken before as batch b-photo.jpg; nothing taken twice',
    ]);
  });

  it('reports a folder held back by temp-named files past holdWarnMs as a waiting run, and closes it when the folder is complete', async () => {
    const f = new Fakes();
    f.put('gallery', { kind: 'dir', incomplete: true, tempNames: ['cp.jpg.part'] });
    const { scan } = await started(f);
    f.t += 4 * SETTLE;
    await scan();
    expect(f.saves).toEqual([]);
    f.t += SETTLE;
    await scan();
    expect(f.saves.map((r) => [r.state, r.note])).toEqual([
      ['waiting', 'gallery/ still holds cp.jpg.part after 5 s; waiting for the sender'],
    ]);
    expect(f.logs.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual([
      'hot folder: gallery/ still holds cp.jpg.part after 5 s; waiting for the sender',
    ]);
    await scan();
    expect(f.saves).toHaveLength(1); // same note: not saved again
    f.t += 60 * SETTLE;
    await scan();
    expect(f.saves.map((r) => r.note)[1]).toBe('gallery/ still holds cp.jpg.part after 1 min; waiting for the sender');
    expect(f.logs.filter((l) => l.level === 'warn')).toHaveLength(1); // logged once
    f.put('gallery', { kind: 'dir', signature: 'done' });
    f.t += SETTLE;
    await scan();
    const closed = f.saves[2];
    expect([closed.id, closed.state, closed.note]).toEqual([
      f.saves[0].id,
      'done',
      'gallery/ waited 1 min 6 s for its temp-named files; no longer waiting',
    ]);
  });

  it('start: a missing folder or a file is a HotFolderError; fs.watch events make a scan; stop closes them', async () => {
    const f = new Fakes();
    f.kind = 'missing';
    const svc = new HotFolderService(f.ports(), settings());
    await expect(svc.start()).rejects.toThrow(new HotFolderError(`hot folder ${DIR}: no such folder`));
    f.kind = 'other';
    await expect(svc.start()).rejects.toMatchObject({
      code: 'HOT_FOLDER_INVALID',
      message: `hot folder ${DIR}: not a folder`,
    });
    f.kind = 'folder';
    const { svc: watching } = await started(f, { fsWatch: true });
    expect(f.watches.map((w) => w.dir)).toEqual([DIR]);
    const before = watching.scans;
    f.watches[0].onChange();
    const deadline = Date.now() + scaledMs(10_000);
    while (watching.scans === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(watching.scans).toBeGreaterThan(before);
    await watching.stop();
    expect(f.watches[0].closed).toBe(true);
  });

  it('stop: a file in flight stays in place, its claim released; abandon leaves the claim to expire', async () => {
    for (const abandon of [false, true]) {
      const f = new Fakes();
      f.put('photo.jpg');
      f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
      f.hold = deferred();
      const { svc, results, scan } = await started(f);
      f.t += SETTLE;
      await scan();
      expect(f.taken).toHaveLength(1);
      await svc.stop({ abandon });
      expect(f.moves).toEqual([]);
      expect(results).toEqual([]);
      expect(f.claimEvents).toEqual([abandon ? 'expire photo.jpg' : 'release photo.jpg']);
      expect(f.runs.get('drop-b-photo.jpg')?.state).toBe('running');
    }
  });
});

/**
 * PHOTOWIRE_PAIR_WAIT: an agency's XML item and its picture reach a hot folder in either order,
 * minutes apart; each waits (bounded) for the other, and the wait is measured from when it began,
 * across a restart (the pairs port is Redis in production: src/adapters/redis/pairWaits.ts).
 */
describe('HotFolderService: a delivery pair arriving in either order', () => {
  const WAIT = 120_000;
  const xmlFeed = (name: string, picture: string): LoadedFeed =>
    ({
      batchId: `b-${name}`,
      feedPath: `${DIR}/${name}`,
      root: DIR,
      format: 'newsml-g2',
      items: [
        {
          source: { file: `${DIR}/${name}`, position: 0, format: 'newsml-g2' },
          agencyId: 'urn:x:1',
          captionRaw: 'Florian David Fitz',
          iptc: { caption: 'Florian David Fitz' },
          image: `${DIR}/${picture}`,
        },
      ],
      article: null,
      warnings: [],
    }) as LoadedFeed;

  it('XML first: the item waits for its picture and takes it when it has settled, one batch', async () => {
    const f = new Fakes();
    f.put('item.xml');
    f.feeds.set(`${DIR}/item.xml`, xmlFeed('item.xml', 'photo.jpg'));
    const { scan } = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE;
    await scan();
    expect(f.taken).toEqual([]);
    expect(f.logs.map((l) => l.msg)).toContain('hot folder: item.xml waits for its picture (at most 2 min 0 s)');
    f.t += 60_000;
    f.put('photo.jpg');
    await scan();
    expect(f.taken).toEqual([]); // the picture has not settled yet
    f.t += SETTLE;
    await scan();
    expect(f.taken.map((x) => [x.batchId, x.items.map((i) => i.error ?? null)])).toEqual([['b-item.xml', [null]]]);
    expect(f.moves.map((m) => m.name)).toEqual(['photo.jpg', 'item.xml']);
    expect(f.deliveryFolders.has(DIR)).toBe(true);
    expect(f.pairWaits.size).toBe(0);
  });

  it('picture first, in a folder that receives deliveries: the picture waits for its item and is never a bare record', async () => {
    const f = new Fakes();
    f.deliveryFolders.add(DIR);
    f.put('photo.jpg');
    f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
    const { scan } = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE;
    await scan();
    f.t += 90_000;
    await scan();
    expect(f.taken).toEqual([]);
    f.put('item.xml');
    f.feeds.set(`${DIR}/item.xml`, xmlFeed('item.xml', 'photo.jpg'));
    await scan();
    f.t += SETTLE;
    await scan();
    expect(f.taken.map((x) => x.batchId)).toEqual(['b-item.xml']);
    expect(f.moves.map((m) => m.name)).toEqual(['photo.jpg', 'item.xml']);
  });

  it('a folder that never received a delivery takes a lone picture as soon as it settles', async () => {
    const f = new Fakes();
    f.put('photo.jpg');
    f.feeds.set(`${DIR}/photo.jpg`, feedOf(`${DIR}/photo.jpg`));
    const { scan } = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE;
    await scan();
    expect(f.taken.map((x) => x.batchId)).toEqual(['b-photo.jpg']);
  });

  it('the wait is bounded: at PHOTOWIRE_PAIR_WAIT the item is taken, its record PICTURE_MISSING with its metadata; a lone picture likewise goes alone', async () => {
    const f = new Fakes();
    f.deliveryFolders.add(DIR);
    f.put('item.xml');
    f.feeds.set(`${DIR}/item.xml`, xmlFeed('item.xml', 'never.jpg'));
    f.put('lone.jpg');
    f.feeds.set(`${DIR}/lone.jpg`, feedOf(`${DIR}/lone.jpg`));
    const { scan } = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE;
    await scan();
    f.t += WAIT - 1;
    await scan();
    expect(f.taken).toEqual([]);
    f.t += 1;
    await scan();
    expect(f.taken.map((x) => x.batchId).sort()).toEqual(['b-item.xml', 'b-lone.jpg']);
    const item = f.taken.find((x) => x.batchId === 'b-item.xml')!.items[0]!;
    expect(item.captionRaw).toBe('Florian David Fitz');
    expect(item.error).toEqual({
      code: 'PICTURE_MISSING',
      message: `${DIR}/item.xml: item 1 (urn:x:1): its picture ${DIR}/never.jpg did not arrive in the hot folder within PHOTOWIRE_PAIR_WAIT (2 min 0 s)`,
    });
  });

  it('restart-safe: a watcher started mid-wait goes on from when the wait began, not from its own start', async () => {
    const f = new Fakes();
    f.put('item.xml');
    f.feeds.set(`${DIR}/item.xml`, xmlFeed('item.xml', 'never.jpg'));
    const first = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE;
    await first.scan();
    const began = f.t;
    f.t += 100_000;
    await first.svc.stop();
    const second = await started(f, { pairWaitMs: WAIT });
    f.t += SETTLE; // settles again for the new watcher
    await second.scan();
    expect(f.taken).toEqual([]);
    f.t = began + WAIT;
    await second.scan();
    expect(f.taken.map((x) => x.items[0]!.error?.code)).toEqual(['PICTURE_MISSING']);
  });
});
