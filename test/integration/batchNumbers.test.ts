import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatSummary } from '../../src/cli/printSummary';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { retryItems } from '../../src/app/batches/retryItems';
import { runCli } from '../helpers/cli';
import { tinyJpeg } from '../helpers/corpus';
import { useDeskBatches } from '../helpers/deskBatches';
import { REPO_ROOT } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 17 ("First night on the desk": honest batch numbers) and issue 11 (items that are not
 * pictures counted as skipped, by kind, in the summary), against real Redis, real workers, real
 * feed files, the desk's API and the built CLI.
 */
jest.setTimeout(scaledMs(120_000));

const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/feeds');

describe('honest batch numbers', () => {
  const h = useDeskBatches('batch-numbers');
  const { dir, env, summaryOf, detailOf } = h;

  it('a NewsML-G2 text and video item are counted as skipped, by kind: summary.json, status, the printed summary and the API', async () => {
    const feedDir = path.join(dir, 'g2');
    mkdirSync(feedDir, { recursive: true });
    const feed = path.join(feedDir, 'newsml-g2-text-video-picture.xml');
    copyFileSync(path.join(FIXTURES, 'newsml-g2-text-video-picture.xml'), feed);
    writeFileSync(path.join(feedDir, 'photo.jpg'), await tinyJpeg(320, 213));
    const [o] = await h.desk.p.ingest([feed]);
    const s = await summaryOf(o.batchId!);
    expect(s).toMatchObject({ items: 1, ok: 1, photos: 1, skipped: { text: 1, video: 1 } });
    // Before: the kinds reached the warnings only; the ledger, summary.json and the API had no `skipped`.
    expect(formatSummary(s)).toContain('  skipped: 1 text item, 1 video item');
    expect((await detailOf(o.batchId!)).skipped).toEqual({ text: 1, video: 1 });
    const status = await runCli(['status', o.batchId!], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('skipped: 1 text item, 1 video item');
    const statusJson = await runCli(['status', o.batchId!, '--json'], env());
    expect(JSON.parse(statusJson.stdout).skipped).toEqual({ text: 1, video: 1 });
  });

  it('a failure retried twice shows the attempts of all three rounds, and "took" is processing time, not the time since the batch arrived', async () => {
    const feedDir = path.join(dir, 'photos');
    mkdirSync(feedDir, { recursive: true });
    writeFileSync(path.join(feedDir, 'a-good.jpg'), await tinyJpeg(320, 213));
    writeFileSync(path.join(feedDir, 'b-empty.jpg'), Buffer.alloc(0));
    const [o] = await h.desk.p.ingest([feedDir]);
    const batchId = o.batchId!;
    const brokenId = `${batchId}-0002`;
    const first = await summaryOf(batchId);
    expect(first).toMatchObject({ ok: 1, failed: 1 });
    expect(first.processingMs).toBe(first.elapsedMs);

    const pause = 2500;
    for (let round = 0; round < 2; round++) {
      await sleep(pause);
      expect((await retryItems(h.desk.p.rt, brokenId))!.retried).toEqual([brokenId]);
      await waitForBatches(h.desk.p.rt, [batchId], { progress: false, timeoutMs: 60_000 });
    }
    // Each round is one attempt (an empty file is bad input, not retried by BullMQ): 3 in all.
    const [f] = await h.desk.p.rt.ctx.catalog.getFailed(batchId);
    // Before: the last round's attempts only (1), with no word of the retries.
    expect(f).toMatchObject({ itemId: brokenId, code: 'IMAGE_CORRUPT', attempts: 3, retries: 2 });
    const failed = await runCli(['failed', '--batch', batchId], env());
    expect(failed.code).toBe(0);
    expect(failed.stdout).toContain(`${brokenId}  IMAGE_CORRUPT  3 attempts (2 retries)`);
    const failedJson = JSON.parse((await runCli(['failed', '--batch', batchId, '--json'], env())).stdout);
    expect(failedJson[0]).toMatchObject({ attempts: 3, retries: 2 });

    const s = await summaryOf(batchId);
    // Before: one number, finishedAt - createdAt, which grew by the pauses between the rounds.
    expect(s.elapsedMs).toBeGreaterThanOrEqual(2 * pause);
    expect(s.elapsedMs).toBe(Date.parse(s.finishedAt!) - Date.parse(s.createdAt));
    expect(s.processingMs).toBeLessThan(s.elapsedMs! - 2 * pause + 200);
    expect(s.durationMs).toBe(s.elapsedMs);
    const printed = formatSummary(s);
    expect(printed).toMatch(/ · took \d+\.\d s, finished \d+\.\d s after it arrived/);
    expect(printed).toContain(`took ${(s.processingMs! / 1000).toFixed(1)} s`);
    const d = await detailOf(batchId);
    expect(d).toMatchObject({ processingMs: s.processingMs, elapsedMs: s.elapsedMs });
  });

  it("near-duplicates count against the batch itself; items that joined an earlier batch's cluster are said apart", async () => {
    const caption = (what: string) =>
      `${what} as rain delays the men's singles final on Centre Court at Wimbledon in London, Sunday, July 8, 2012. (Photo: Jane Halloran/Northwind Press)`;
    const early = path.join(dir, 'early.ndjson');
    writeFileSync(
      early,
      JSON.stringify({ id: 'NWP-1', caption: caption('Spectators shelter under umbrellas') }) + '\n',
    );
    const late = path.join(dir, 'late.ndjson');
    writeFileSync(
      late,
      [
        { id: 'NWP-2', caption: caption('Spectators shelter under umbrellas') },
        { id: 'NWP-3', caption: caption('Ground staff pull the covers over the grass') },
        { id: 'NWP-4', caption: caption('Ground staff pull the covers over the grass') },
      ]
        .map((x) => JSON.stringify(x))
        .join('\n') + '\n',
    );
    await h.desk.p.ingest([early]);
    const [o] = await h.desk.p.ingest([late]);
    const s = await summaryOf(o.batchId!);
    // Before: duplicates 2 (NWP-2, whose cluster's canonical item is in the earlier batch, counted too).
    expect(s).toMatchObject({ items: 3, ok: 3, clusters: 2, duplicates: 1, identical: 1, joinedEarlier: 1 });
    // NWP-4 repeats NWP-3 word for word: an identical duplicate, as its card says.
    expect(formatSummary(s)).toContain(
      '2 distinct captions in 2 clusters (1 identical duplicate, 1 joined earlier cluster)',
    );
    expect((await detailOf(o.batchId!)).counts).toMatchObject({ duplicates: 1, identical: 1, joinedEarlier: 1 });
  });
});
