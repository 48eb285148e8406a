import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tinyJpeg } from '../helpers/corpus';
import { TestPipeline } from '../helpers/pipeline';
import { CliProcess, waitUntil, type LogEntry } from '../helpers/processes';
import { REDIS_URL, makeTmpDir, removeDir } from '../helpers/testEnv';
import { redisKeys } from '../../src/adapters/redis/keys';
import { scaledMs } from '../helpers/deadline';

/**
 * The hot-folder watcher and the scheduler wait for their batch like `ingest --wait` does, and a
 * ledger that vanished (Redis restarted without its data) is in their logs at once, not only
 * after PHOTOWIRE_LEDGER_LOST_MS (docs/RELIABILITY.md, attack 5). Real processes, no workers, so
 * the batch stays open while its ledger is deleted under them.
 */
jest.setTimeout(scaledMs(90_000));

const gone = (e: LogEntry) => typeof e.msg === 'string' && e.msg.includes('has no ledger in Redis any more');

describe('the watcher and the scheduler say at once that a ledger vanished', () => {
  let p: TestPipeline;
  const dir = makeTmpDir('waits-logged');
  const procs: CliProcess[] = [];
  const env = () => ({
    REDIS_URL,
    PHOTOWIRE_PREFIX: p.config.prefix,
    PHOTOWIRE_DATA_DIR: p.config.dataDir,
    PHOTOWIRE_SETTLE_MS: '200',
    PHOTOWIRE_LEDGER_LOST_MS: '60000',
  });

  beforeAll(async () => {
    p = await TestPipeline.start({ workers: false });
  });
  afterAll(async () => {
    for (const c of procs) {
      c.signal('SIGKILL');
      await c.exited;
    }
    await p?.close();
    removeDir(dir);
  });

  /** The first batch the process created, once its ledger is there; then its ledger is deleted. */
  async function deleteLedgerOfNewBatch(c: CliProcess, before: Set<string>): Promise<string> {
    const batchId = await waitUntil(
      async () => (await p.rt.ctx.catalog.listBatches()).find((id) => !before.has(id)),
      30_000,
      `a batch from pid ${c.pid} (stderr:\n${c.tail()})`,
    );
    expect(await p.rt.ctx.catalog.getBatch(batchId)).toMatchObject({ state: 'queued' });
    await p.rt.redis.del(redisKeys(p.config.prefix).batch(batchId).ledger);
    return batchId;
  }

  it('watch', async () => {
    const hot = path.join(dir, 'hot');
    mkdirSync(hot, { recursive: true });
    const w = CliProcess.start(['watch', hot, '--settle-ms', '200', '--scan-ms', '200'], env());
    procs.push(w);
    writeFileSync(path.join(hot, 'photo.jpg'), await tinyJpeg(320, 213));
    const batchId = await deleteLedgerOfNewBatch(w, new Set(await p.rt.ctx.catalog.listBatches()));
    // Before: the watcher's wait had no logger; nothing was said for PHOTOWIRE_LEDGER_LOST_MS (60 s here).
    const [line] = await w.waitForLogs(gone, 1, 10_000, 'a "has no ledger" warning');
    expect(line).toMatchObject({ batchId, file: 'photo.jpg' });
    expect(line.msg).toMatch(/waiting up to 60 s \(PHOTOWIRE_LEDGER_LOST_MS\)/);
  });

  it('scheduler', async () => {
    const src = path.join(dir, 'import');
    mkdirSync(src, { recursive: true });
    writeFileSync(path.join(src, 'nightly.jpg'), await tinyJpeg(300, 200, [20, 90, 160]));
    const schedules = path.join(dir, 'schedules.json');
    writeFileSync(schedules, JSON.stringify([{ name: 'nightly', every: 600_000, source: src }]));
    const before = new Set(await p.rt.ctx.catalog.listBatches());
    const s = CliProcess.start(['scheduler'], { ...env(), PHOTOWIRE_SCHEDULES: schedules });
    procs.push(s);
    const batchId = await deleteLedgerOfNewBatch(s, before);
    const [line] = await s.waitForLogs(gone, 1, 10_000, 'a "has no ledger" warning');
    expect(line).toMatchObject({ batchId, schedule: 'nightly' });
  });
});
