import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { BatchSummary } from '../../src/app/batches/summarizeBatch';
import { formatSummary } from '../../src/cli/printSummary';
import { runCli } from '../helpers/cli';
import { scaledMs } from '../helpers/deadline';
import { useDeskBatches } from '../helpers/deskBatches';

/**
 * The words of a batch summary against what the desk's cards say, on real Redis, real workers,
 * real NDJSON feeds and the built CLI: a caption sent twice word for word is an identical
 * duplicate (the card: "identical captions"), not "1 near-duplicate"; feeds taken together in
 * one command do not call each other's clusters "earlier" (the first `run --sample` printed
 * "3 joined earlier clusters" for its three feeds).
 */
jest.setTimeout(scaledMs(120_000));

/** Our own captions in a wire's style, each about something else (they share no cluster). */
const CAPTIONS = {
  umbrellas:
    "Spectators shelter under umbrellas as rain delays the men's singles final on Centre Court at Wimbledon in London, Sunday, July 8, 2012. (Photo: Jane Halloran/Northwind Press)",
  covers:
    'Ground staff pull the covers over the grass of Court 1 during a shower at the All England Club, Saturday, July 7, 2012. (Photo: Jane Halloran/Northwind Press)',
  // The same picture resent with a typo: one subject, a near-duplicate (a word added to the subject would be another subject).
  coversTypo:
    'Ground staff pull the covers over the grass of Court 1 during a showr at the All England Club, Saturday, July 7, 2012. (Photo: Jane Halloran/Northwind Press)',
  ferry:
    'Passengers board the first ferry of the winter timetable at Kelmouth harbour before dawn, Tuesday, Nov. 3, 2026. (Photo: Tom Reyes/Northwind Press)',
  scoreboard:
    'A technician replaces a broken panel of the electronic scoreboard at Harbourton stadium ahead of the cup final, Friday. (Photo: Ana Brandt/Northwind Press)',
  market:
    'Stallholders set out pumpkins and squashes at the Saturday market in Valmont, eastern France, October 31, 2026. (Photo: Luc Moreau/Northwind Press)',
};

function ndjson(file: string, items: Array<{ id: string; caption: string }>): string {
  writeFileSync(file, items.map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

describe('summary words', () => {
  const h = useDeskBatches('summary-words');
  const { dir, env, summaryOf, detailOf } = h;

  it('a caption sent twice word for word is an identical duplicate, one with a typo a near-duplicate: summary.json, status, the API', async () => {
    const feed = ndjson(path.join(dir, 'twice.ndjson'), [
      { id: 'NWP-11', caption: CAPTIONS.umbrellas },
      { id: 'NWP-12', caption: CAPTIONS.umbrellas },
      { id: 'NWP-13', caption: CAPTIONS.covers },
      { id: 'NWP-14', caption: CAPTIONS.coversTypo },
    ]);
    const [o] = await h.desk.p.ingest([feed]);
    const batchId = o.batchId!;
    const records = await h.desk.p.rt.ctx.catalog.getRecords(batchId);
    // What the cards are drawn from: NWP-12 is exact, NWP-14 similar, both in clusters of this batch.
    expect(records.map((r) => [r.cluster!.canonicalId === r.id, r.cluster!.exact])).toEqual([
      [true, true],
      [false, true],
      [true, true],
      [false, false],
    ]);
    const s = await summaryOf(batchId);
    expect(s).toMatchObject({ items: 4, clusters: 2, duplicates: 2, identical: 1, joinedEarlier: 0 });
    // Before: "(2 near-duplicates)", while the card of NWP-11/12 said "identical captions".
    expect(formatSummary(s)).toContain('3 distinct captions in 2 clusters (1 identical duplicate, 1 near-duplicate)');
    const status = await runCli(['status', batchId], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('(1 identical duplicate, 1 near-duplicate)');
    expect((await detailOf(batchId)).counts).toMatchObject({ duplicates: 2, identical: 1 });
  });

  it('feeds enqueued together (`ingest a b --wait`) share clusters without calling them earlier; a later feed still says earlier', async () => {
    const shared = CAPTIONS.ferry;
    const a = ndjson(path.join(dir, 'night-a.ndjson'), [
      { id: 'NWP-21', caption: shared },
      { id: 'NWP-22', caption: CAPTIONS.scoreboard },
    ]);
    const b = ndjson(path.join(dir, 'night-b.ndjson'), [
      { id: 'NWP-31', caption: shared },
      { id: 'NWP-32', caption: CAPTIONS.market },
    ]);
    const together = await runCli(['ingest', a, b, '--wait'], env(), { timeoutMs: scaledMs(90_000) });
    expect(together.code).toBe(0);
    // Whichever batch finalized first began the shared cluster; the other joined it.
    expect(together.stdout).toContain('1 joined a cluster of another feed in this run');
    // Before: "1 joined earlier cluster" for a feed taken in the same command.
    expect(together.stdout).not.toContain('earlier');

    const json = JSON.parse(
      (await runCli(['ingest', a, b, '--wait', '--json'], env(), { timeoutMs: scaledMs(90_000) })).stdout,
    ) as { batches: BatchSummary[] };
    expect(json.batches.map((s) => s.joinedEarlier)).toEqual([0, 0]);
    expect(json.batches.reduce((n, s) => n + s.joinedThisRun, 0)).toBe(1);

    // The same caption a night later, alone: that cluster was begun by an earlier batch.
    const later = ndjson(path.join(dir, 'night-c.ndjson'), [{ id: 'NWP-41', caption: shared }]);
    const alone = await runCli(['ingest', later, '--wait'], env(), { timeoutMs: scaledMs(90_000) });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toContain('(0 near-duplicates, 1 joined earlier cluster)');
  });
});
