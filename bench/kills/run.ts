/**
 * Kills at scale: what a kill and a growing cluster cost Redis and the ingest.
 *
 *   npm run bench:kills -- [--sizes 100,20000] [--e2e 1000,20000] [--redis URL]
 *
 * 1. Kill store alone, at each --sizes: records of one caption and one reference are registered
 *    (as the item stage does), then 500 more are timed: µs per record at that group size, side by
 *    side (the ratio largest/smallest should stay near 1: registering costs O(log n), not O(group)).
 *    Then one kill of the reference reaches them all: its wall time, the number of slices, and the
 *    slowest Redis command it ran (SLOWLOG, threshold lowered to 1 ms for the run, restored after).
 * 2. End to end (real workers in this process, caption-only items of ONE caption): a first feed of
 *    1,000 items is timed (its cluster grows 0 -> 1,000), the cluster is grown to the last --e2e
 *    size, and another 1,000 items are timed (the cluster grows past it): items/s of each, and
 *    the ratio.
 *
 * Redis: 127.0.0.1:6379 (or --redis) under a private prefix removed after (SCAN + UNLINK, never FLUSH).
 * Writes bench/results/kills-<timestamp>.json.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { KillStore } from '../../src/adapters/redis/killStore';
import { deletePrefixKeys } from '../../src/adapters/redis/scan';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { loadConfig } from '../../src/config';
import type { CatalogRecord } from '../../src/schemas/record';
import { formatTable, machineInfo, machineLine, writeResults } from '../common/report';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,20000' },
    e2e: { type: 'string', default: '1000,20000' },
    redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
    'no-e2e': { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const sizes = (values.quick ? '100,5000' : values.sizes!).split(',').map(Number);
const e2eSizes = (values.quick ? '500,5000' : values.e2e!).split(',').map(Number);

const record = (tag: string, n: number): CatalogRecord =>
  ({
    id: `bench-${tag.padEnd(12, '0').slice(0, 12)}-${String(n + 1).padStart(6, '0')}`,
    batchId: `bench-${tag}`,
    index: n,
    agencyId: 'REF1',
    iptc: {},
    source: { format: 'manifest-ndjson', file: '/feeds/night/manifest.ndjson' },
    credit: { agency: 'AP', agencyId: 'AP', distributor: null, distributorId: null },
    photo: null,
    image: null,
    caption: 'Demonstrators protest outside the embassy in London.',
    probableResend: false,
    cluster: { id: `C-${tag}`, canonicalId: 'x' },
  }) as unknown as CatalogRecord;

async function slowlogSince(redis: Redis, afterId: number, prefix: string): Promise<number> {
  const entries = (await redis.call('SLOWLOG', 'GET', '10000')) as Array<[number, number, number, string[]]>;
  return Math.max(
    0,
    ...entries
      .filter(([id, , , args]) => id > afterId && args.some((a) => String(a).includes(prefix)))
      .map(([, , us]) => us),
  );
}

async function storeBench(redis: Redis) {
  const rows = [];
  const [, was] = (await redis.config('GET', 'slowlog-log-slower-than')) as [string, string];
  const [, wasLen] = (await redis.config('GET', 'slowlog-max-len')) as [string, string];
  await redis.config('SET', 'slowlog-log-slower-than', '1000');
  await redis.config('SET', 'slowlog-max-len', '10000');
  try {
    for (const size of sizes) {
      const prefix = `pwbench-kills-${process.pid}-${size}`;
      const store = new KillStore(redis, prefix);
      const tag = `s${size}`;
      for (let i = 0; i < size; i += 500)
        await store.registerMany(Array.from({ length: Math.min(500, size - i) }, (_, j) => record(tag, i + j)));
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < 500; i++) await store.register(record(tag, size + i));
      const perRecordUs = Number(process.hrtime.bigint() - t0) / 1e3 / 500;
      const before = ((await redis.call('SLOWLOG', 'GET', '1')) as Array<[number]>)[0]?.[0] ?? -1;
      const k0 = process.hrtime.bigint();
      const event = await store.apply({
        id: `bench-kill-${size}`,
        kind: 'kill',
        targets: ['REF1'],
        groups: ['a:AP/REF1'],
        reason: 'MANDATORY KILL',
        notice: {
          itemId: '',
          batchId: '',
          kind: 'manual',
          source: 'manual',
          text: 'MANDATORY KILL: REF1',
          targets: ['REF1'],
          receivedAt: new Date().toISOString(),
        },
      });
      const killMs = Number(process.hrtime.bigint() - k0) / 1e6;
      const slowestUs = await slowlogSince(redis, before, prefix);
      rows.push({
        groupSize: size,
        registerUsPerRecord: +perRecordUs.toFixed(1),
        killReached: event.itemCount ?? 0,
        killMs: Math.round(killMs),
        slowestCommandMs: +(slowestUs / 1000).toFixed(1),
      });
      await deletePrefixKeys(redis, prefix);
    }
  } finally {
    await redis.config('SET', 'slowlog-log-slower-than', was);
    await redis.config('SET', 'slowlog-max-len', wasLen);
  }
  return rows;
}

async function e2eBench(redisUrl: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pwbench-kills-'));
  const config = loadConfig({
    REDIS_URL: redisUrl,
    PHOTOWIRE_PREFIX: `pwbench-kills-e2e-${process.pid}`,
    PHOTOWIRE_DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
  });
  const rt = await Runtime.open({ allowPrivateRedis: false, config });
  const caption = 'Demonstrators protest outside the embassy in London, where the WikiLeaks founder has sought asylum.';
  let n = 0;
  const feed = (count: number) => {
    const file = path.join(dir, `feed-${n}.ndjson`);
    const lines = Array.from({ length: count }, () =>
      JSON.stringify({ id: `E${++n}`, caption, credit: 'John Doe/AP' }),
    );
    fs.writeFileSync(file, lines.join('\n') + '\n');
    return file;
  };
  const timed = async (count: number) => {
    const file = feed(count);
    const t0 = process.hrtime.bigint();
    const out = await ingestPaths(rt, [file]);
    await waitForBatches(
      rt,
      out.map((o) => o.batchId!),
      { progress: false, timeoutMs: 30 * 60_000 },
    );
    return count / (Number(process.hrtime.bigint() - t0) / 1e9);
  };
  try {
    await rt.startWorkers(2);
    const rows = [];
    const first = await timed(e2eSizes[0]);
    rows.push({ clusterBefore: 0, items: e2eSizes[0], itemsPerS: Math.round(first) });
    const grow = e2eSizes[e2eSizes.length - 1] - 2 * e2eSizes[0];
    if (grow > 0) await timed(grow);
    const last = await timed(e2eSizes[0]);
    rows.push({ clusterBefore: n - e2eSizes[0], items: e2eSizes[0], itemsPerS: Math.round(last) });
    return { rows, ratio: +(first / last).toFixed(2) };
  } finally {
    await rt.close();
    const r = new Redis(redisUrl);
    await deletePrefixKeys(r, config.prefix);
    r.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const startedAt = new Date();
  const machine = machineInfo();
  process.stdout.write(
    `${machineLine(machine)}\n\nKill store: one caption and one reference, registering at each group size, then one kill of the reference\n`,
  );
  const redis = new Redis(values.redis!);
  const store = await storeBench(redis);
  redis.disconnect();
  process.stdout.write(
    formatTable(
      ['group size', 'register µs/record', 'kill reached', 'kill ms', 'slowest Redis command ms'],
      store.map((r) => [r.groupSize, r.registerUsPerRecord, r.killReached, r.killMs, r.slowestCommandMs]),
    ) + '\n',
  );
  const ratio = store[store.length - 1].registerUsPerRecord / store[0].registerUsPerRecord;
  process.stdout.write(`register cost at ${sizes[sizes.length - 1]} / at ${sizes[0]}: ${ratio.toFixed(2)}\n`);
  let e2e = null;
  if (!values['no-e2e']) {
    process.stdout.write(`\nEnd to end: caption-only items of one caption, 2 workers in this process\n`);
    e2e = await e2eBench(values.redis!);
    process.stdout.write(
      formatTable(
        ['cluster before', 'items', 'items/s'],
        e2e.rows.map((r) => [r.clusterBefore, r.items, r.itemsPerS]),
      ) + '\n',
    );
    process.stdout.write(
      `items/s with an empty cluster / with a cluster of ${e2e.rows[1].clusterBefore}: ${e2e.ratio} (target <= 1.5)\n`,
    );
  }
  const file = writeResults(
    'kills',
    { machine, startedAt: startedAt.toISOString(), store, registerRatio: +ratio.toFixed(2), e2e },
    startedAt,
  );
  process.stdout.write(`\nresults: ${file}\n`);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
