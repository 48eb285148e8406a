import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config';
import { Runtime } from '../../src/app/runtime';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { redisKeys } from '../../src/adapters/redis/keys';
import { recordsPage } from '../../src/app/records/recordsPage';
import { type CliProcess, startReadyWorker, waitDoneWithPeakRss } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * Field amplification (docs/RELIABILITY.md, "Attacks"): a JSON manifest with a 30 MB caption and an
 * NDJSON manifest whose one line is 60 MB (both under the 64 MB feed cap), through a real worker
 * process and Redis. Before: the 30 MB caption made a 128 MB records hash, a 120 MB records.ndjson
 * line, a 125 MB API page of one record and a 2.5 GB worker. Now the caption is stored cut to
 * 10,000 characters with FIELD_CAPPED, the 60 MB line fails alone with FEED_LINE_TOO_LONG.
 */
jest.setTimeout(300_000);

const MAX_RSS_MB = 300;
const MAX_RECORD_BYTES = 100_000;

describe('a 30 MB caption and a 60 MB line', () => {
  const prefix = uniquePrefix('amplify');
  const root = makeTmpDir('amplify');
  const env = pipelineEnv(prefix, path.join(root, 'data'));
  let rt: Runtime;
  let worker: CliProcess;

  beforeAll(async () => {
    rt = await Runtime.open({ allowPrivateRedis: false, config: loadConfig({ ...env, LOG_LEVEL: 'silent' }) });
    worker = await startReadyWorker({ ...env, LOG_LEVEL: 'warn' }, 2);
  });
  afterAll(async () => {
    await worker?.stop();
    await rt?.close();
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('stores the caption cut with a FIELD_CAPPED warning, fails the 60 MB line alone, and stays small everywhere', async () => {
    const caption = `${'Crowds gather in the square. '.repeat(1_050_000)}(Photo by Jo Bloggs/AFP)`;
    const json = path.join(root, 'big.json');
    writeFileSync(
      json,
      JSON.stringify(
        [
          { id: 'big-caption', caption },
          { id: 'small', caption: 'A ferry at Dover. (Photo: Jo Bloggs/AFP)' },
        ],
        null,
        1,
      ),
    );
    const ndjson = path.join(root, 'line.ndjson');
    writeFileSync(
      ndjson,
      `${JSON.stringify({ id: 'huge-line', caption: 'x'.repeat(60 * 1024 * 1024) })}\n${JSON.stringify({ id: 'after', caption: 'Still read. REUTERS/Kacper Pempel' })}\n`,
    );
    expect(caption.length).toBeGreaterThan(30_000_000);

    const outcomes = await ingestPaths(rt, [json, ndjson]);
    const peakKb = await waitDoneWithPeakRss(
      worker,
      async (id) => (await rt.ctx.catalog.getBatch(id))?.state,
      outcomes.map((o) => o.batchId!),
    );
    const peakMb = Math.round(peakKb / 1024);
    const [big, line] = outcomes;

    // the JSON manifest: both items stored, the caption cut, with the warning naming file, item and cap
    const ledger = (await rt.ctx.catalog.getBatch(big.batchId!))!;
    expect(ledger).toMatchObject({ ok: 2, failed: 0 });
    expect(ledger.warnings).toContainEqual(
      expect.stringMatching(
        /^FIELD_CAPPED: .*big\.json: item 1: caption is \d{8} characters, over the cap of 10000; stored cut to the cap$/,
      ),
    );
    const keys = redisKeys(prefix).batch(big.batchId!);
    const stored = await Promise.all(['0', '1'].map((i) => rt.redis.hstrlen(keys.records, i)));
    const exportLines = readFileSync(path.join(root, 'data', 'batches', big.batchId!, 'records.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const record = JSON.parse(exportLines[0]) as {
      captionRaw: string;
      credit: { creators: string[] };
      iptc: { caption?: string };
    };
    expect(record.captionRaw).toHaveLength(10_000);
    // the original metadata keeps its caption too, cut to the same cap: bounded, not amplified
    expect((record.iptc.caption ?? '').length).toBeLessThanOrEqual(10_000);
    expect(record.credit.creators).toEqual(['Jo Bloggs']);
    const page = await recordsPage({ ctx: rt.ctx, overviews: undefined as never }, big.batchId!, {
      offset: 0,
      limit: 1,
    } as never);
    const pageBytes = Buffer.byteLength(JSON.stringify(page));

    // the NDJSON manifest: the 60 MB line fails alone, the next line is read
    const lineLedger = (await rt.ctx.catalog.getBatch(line.batchId!))!;
    expect(lineLedger).toMatchObject({ ok: 1, failed: 1 });
    const failed = (await rt.ctx.catalog.getRecords(line.batchId!)).find((r) => r.error);
    expect(failed!.error).toMatchObject({
      code: 'FEED_LINE_TOO_LONG',
      message: expect.stringMatching(
        /line\.ndjson:1: the line is \d+ bytes, over the per-line cap of 4194304; not read/,
      ),
    });

    console.log(
      `field amplification: records hash fields ${stored.join(', ')} bytes, records.ndjson line ${exportLines[0].length}, page of 1 ${pageBytes} bytes, worker peak RSS ${peakMb} MB`,
    );
    expect(Math.max(...stored)).toBeLessThan(MAX_RECORD_BYTES);
    expect(exportLines[0].length).toBeLessThan(MAX_RECORD_BYTES);
    expect(pageBytes).toBeLessThan(MAX_RECORD_BYTES);
    expect(peakMb).toBeLessThan(MAX_RSS_MB);
  });
});
