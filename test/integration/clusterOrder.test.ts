import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { SubjectIndex } from '../../src/adapters/redis/captionIndexSubject';
import { SubjectClusterer } from '../../src/core/dedup/subjectClusterer';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import { tinyJpeg } from '../helpers/corpus';
import { type CliProcess, startReadyWorker, waitUntil } from '../helpers/processes';
import { REDIS_URL, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * A batch must give the same clusters with 1 worker or 8 and in every run. A batch whose captions
 * chain (A ~ B, B ~ C, A !~ C: each caption respells two words of the one before, two steps apart
 * four words differ, more than the rule allows) gives another partition in another arrival order; 8 real worker processes, each pausing a different time while its photo renders
 * (PHOTOWIRE_TEST_PAUSE_AT=render:<ms>), finish the items in shuffled orders, and every run must
 * give the partition of 1 worker in feed order.
 */
jest.setTimeout(scaledMs(240_000));

const WORKERS = 8;
const ITEMS = 5;
const RUNS = 4;

/** Four words of six letters that exist nowhere else: each run gets its own, so runs never share clusters. */
function baseWords(run: number): string[] {
  const letters = 'bcdfghjklmnpqrtvwxz';
  let x = 7919 * (run + 1);
  return Array.from({ length: 4 }, () =>
    Array.from({ length: 6 }, (_v, k) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return k % 2 === 1 ? 'aeiou'[(x >> 8) % 5] : letters[(x >> 8) % letters.length];
    }).join(''),
  );
}

/**
 * A chain: caption i respells two words of caption i - 1 (words 0 and 1 at odd i, 2 and 3 at even
 * i), one letter each at a new position, so neighbours are one subject (two spellings) and captions
 * two apart differ in four words (another subject).
 */
function chainCaptions(run: number): string[] {
  const words = baseWords(run);
  const out: string[] = [];
  for (let i = 0; i < ITEMS; i++) {
    if (i > 0) {
      const pair = i % 2 === 1 ? [0, 1] : [2, 3];
      const at = Math.floor((i - 1) / 2);
      for (const j of pair)
        words[j] = words[j].slice(0, at) + (words[j][at] === 'y' ? 'w' : 'y') + words[j].slice(at + 1);
    }
    out.push(`${words.map((w) => w[0].toUpperCase() + w.slice(1)).join(' ')} stand near the gate.`);
  }
  return out;
}

function partitionOf(ids: string[], clusterOf: (i: number) => string | null): string[][] {
  const groups = new Map<string, string[]>();
  ids.forEach((id, i) => {
    const c = clusterOf(i) ?? `none-${id}`;
    groups.set(c, [...(groups.get(c) ?? []), id]);
  });
  return [...groups.values()].map((g) => g.sort()).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

function referencePartition(captions: string[], order: number[]): string[][] {
  const ref = new SubjectClusterer();
  const out: Array<string | null> = captions.map(() => null);
  for (const i of order) out[i] = ref.assign(`i${i}`, captions[i])?.id ?? null;
  return partitionOf(
    captions.map((_, i) => `i${i}`),
    (i) => out[i],
  );
}

describe('the same caption clusters with 1 worker or 8, in any arrival order', () => {
  const prefix = uniquePrefix('clorder');
  const dataDir = makeTmpDir('clorder-data');
  const feeds = makeTmpDir('clorder-feeds');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };
  const procs: CliProcess[] = [];
  let rt: Runtime;

  beforeAll(async () => {
    rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await rt?.close();
    await deletePrefix(prefix);
    removeDir(dataDir);
    removeDir(feeds);
  });

  async function writeBatch(name: string, captions: string[], run: number): Promise<string> {
    const dir = path.join(feeds, name);
    mkdirSync(dir);
    for (let i = 0; i < captions.length; i++) {
      const jpeg = await tinyJpeg(64 + i, 48, [20 + 40 * i, 30 * run, 200 - 30 * i]);
      writeFileSync(
        path.join(dir, `p${i}.jpg`),
        insertIptcIntoJpeg(
          jpeg,
          buildIimBlock({ caption: captions[i], byline: ['ANA LOPEZ'], credit: 'AFP' }, { utf8: true }),
        ),
      );
    }
    return dir;
  }

  async function runBatch(dir: string): Promise<{ batchId: string; partition: string[][]; arrival: string[] }> {
    const [o] = await ingestPaths(rt, [dir]);
    const batchId = o.batchId!;
    await waitUntil(
      async () => (await rt.ctx.catalog.getBatch(batchId))?.state === 'done',
      120_000,
      `batch ${batchId}`,
    );
    const records = await rt.ctx.catalog.getRecords(batchId);
    expect(records).toHaveLength(ITEMS);
    // the order the items were finished in, across every process
    const arrival = procs
      .flatMap((p) => p.logs.filter((l) => l.msg === 'item done' && String(l.itemId).startsWith(batchId)))
      .sort((a, b) => Number(a.time) - Number(b.time))
      .map((l) => String(l.itemId).slice(-1));
    return {
      batchId,
      partition: partitionOf(
        records.map((r) => `i${records.indexOf(r)}`),
        (i) => records[i].cluster?.id ?? null,
      ),
      arrival,
    };
  }

  it('the batch chains: arrival order changes the partition of a plain one-by-one clusterer', () => {
    const captions = chainCaptions(0);
    const feed = referencePartition(captions, [0, 1, 2, 3, 4]);
    const others = [
      [4, 3, 2, 1, 0],
      [2, 0, 4, 1, 3],
      [1, 3, 0, 2, 4],
    ].map((o) => JSON.stringify(referencePartition(captions, o)));
    expect(others.some((p) => p !== JSON.stringify(feed))).toBe(true);
  });

  it(`1 worker in feed order, then ${WORKERS} workers in ${RUNS} shuffled orders: the same partition every time`, async () => {
    // 1 worker, concurrency 1: items decided in feed order
    const one = await startReadyWorker(env, 1);
    procs.push(one);
    // What one index decides in feed order (the index equals the brute force; the question here is
    // order, so the reference is the index itself, on its own prefix).
    const scratch = new SubjectIndex(rt.redis, { prefix: `${prefix}:scratch` });
    const expected: string[][][] = [];
    for (let run = 0; run <= RUNS; run++) {
      const refs = await scratch.assignMany(
        chainCaptions(run).map((caption, i) => ({ itemId: `run${run}-${i}`, caption })),
      );
      expected.push(
        partitionOf(
          refs.map((_, i) => `i${i}`),
          (i) => refs[i]?.id ?? null,
        ),
      );
    }
    const single = await runBatch(await writeBatch('single', chainCaptions(0), 0));
    expect(single.partition).toEqual(expected[0]);
    await one.stop();
    procs.length = 0;

    // 8 processes, each with its own pause inside rendering: items finish in shuffled orders
    const pauses = [0, 700, 150, 1100, 400, 900, 50, 550];
    const started = await Promise.all(
      pauses.map((ms) => startReadyWorker({ ...env, PHOTOWIRE_TEST_PAUSE_AT: `render:${ms}` }, 1)),
    );
    procs.push(...started);
    const arrivals = new Set<string>();
    for (let run = 1; run <= RUNS; run++) {
      const r = await runBatch(await writeBatch(`multi-${run}`, chainCaptions(run), run));
      arrivals.add(r.arrival.join(''));
      // Before: each worker assigned its caption when it got there, and a chain split where the
      // arrival order put its first caption.
      expect({ run, arrival: r.arrival.join(''), partition: r.partition }).toEqual({
        run,
        arrival: r.arrival.join(''),
        partition: expected[run],
      });
    }
    // the runs did arrive out of feed order, in more than one order
    expect([...arrivals].some((a) => a !== '01234')).toBe(true);
    expect(arrivals.size).toBeGreaterThan(1);
  });
});
