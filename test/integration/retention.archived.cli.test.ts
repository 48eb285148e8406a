import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { DAY_MS } from '../../src/core/retention/plan';
import { ERRORS } from '../../src/core/errors';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * Archived batches on the CLI: a real batch (one failed item), `failed` says when it
 * expires, a real retention pass (`photowire retention --now` past the window) archives it, then
 * export/status/retry/failed read it from storage or refuse with BATCH_ARCHIVED.
 */
describe('archived batches on the CLI', () => {
  const prefix = uniquePrefix('cli-archived');
  const dataDir = makeTmpDir('cli-archived-data');
  const feedDir = makeTmpDir('cli-archived-feed');
  const env = pipelineEnv(prefix, dataDir, { PHOTOWIRE_RETENTION_DAYS: '30' });

  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(dataDir);
    removeDir(feedDir);
  });

  it('failed shows the expiry; after retention, export streams from storage, status shows it archived, retry and failed refuse', async () => {
    mkdirSync(feedDir, { recursive: true });
    const feed = path.join(feedDir, 'night.ndjson');
    const items = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({
        id: `n-${i + 1}`,
        caption: `Night ${i + 1}: a ferry waits at Hull. (Photo: Jo Bloggs/${i % 2 ? 'AFP' : 'Reuters'})`,
      }),
    );
    items.splice(5, 0, '{"id": "broken", "caption": ');
    writeFileSync(feed, items.join('\n') + '\n');
    const run = await runCli(['run', feed, '--json'], env);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as {
      batches: Array<{ batchId: string; failed: number; items: number; finishedAt: string }>;
    };
    const [batch] = summary.batches;
    expect(batch).toMatchObject({ items: 13, failed: 1 });

    // The expiry: the batch's finishedAt + PHOTOWIRE_RETENTION_DAYS, what the retention pass uses.
    const failed = await runCli(['failed', '--batch', batch.batchId, '--json'], env);
    expect(failed.code).toBe(0);
    const listing = JSON.parse(failed.stdout) as Array<{ itemId: string; expiresAt: string }>;
    expect(listing).toHaveLength(1);
    const expires = Date.parse(listing[0].expiresAt);
    expect(expires - Date.parse(batch.finishedAt)).toBe(30 * DAY_MS);
    const failedText = await runCli(['failed'], env);
    expect(failedText.stdout).toContain(
      `batch ${batch.batchId}  failed items expire ${listing[0].expiresAt} (retention, 30 days)`,
    );

    const before = (await runCli(['export', batch.batchId], env)).stdout;
    // A day before the expiry the batch stays; a day after it is archived.
    const early = await runCli(['retention', '--json', '--now', new Date(expires - DAY_MS).toISOString()], env);
    expect(JSON.parse(early.stdout).removed).toEqual([]);
    const pass = await runCli(['retention', '--json', '--now', new Date(expires + DAY_MS).toISOString()], env);
    expect(pass.code).toBe(0);
    expect(JSON.parse(pass.stdout).removed).toEqual([batch.batchId]);

    const exported = await runCli(['export', batch.batchId], env);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(
      new RegExp(
        `batch ${batch.batchId} is archived on \\d{4}-\\d\\d-\\d\\dT[^:]+:\\d\\d:\\d\\d\\.\\d{3}Z: read from storage \\(.*records\\.ndjson\\), read-only`,
      ),
    );
    const lines = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; error?: { code: string } });
    expect(lines).toHaveLength(13);
    // The same records as before retention, but for the moment availability was computed.
    const withoutAt = (text: string) => text.replace(/"at":"[^"]+"/g, '"at":-');
    expect(withoutAt(exported.stdout) === withoutAt(before)).toBe(true);
    expect(lines.filter((r) => r.error).map((r) => r.error!.code)).toEqual(['FEED_MALFORMED']);

    const status = await runCli(['status', batch.batchId], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('13 items: 12 ok, 1 failed');
    expect(status.stdout).toMatch(/archived on \S+: read from storage, read-only/);
    // With no id, status lists it after the live batches, as archived.
    const list = await runCli(['status'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(
        `${batch.batchId}  archived +12/13 ok, 1 failed .*\\(archived on \\d{4}-\\d\\d-\\d\\d: read from storage\\)`,
      ),
    );
    const listJson = JSON.parse((await runCli(['status', '--json'], env)).stdout) as Array<{
      id: string;
      state: string;
    }>;
    expect(listJson.find((b) => b.id === batch.batchId)).toMatchObject({
      state: 'archived',
      expected: 13,
      ok: 12,
      failed: 1,
    });
    const statusJson = JSON.parse((await runCli(['status', batch.batchId, '--json'], env)).stdout);
    expect(statusJson).toMatchObject({ batchId: batch.batchId, archived: true, items: 13, ok: 12, failed: 1 });

    for (const args of [
      ['retry', batch.batchId],
      ['retry', `${batch.batchId}-0006`],
      ['failed', '--batch', batch.batchId],
    ]) {
      const r = await runCli(args, env);
      expect({ args, code: r.code }).toEqual({ args, code: ERRORS.BATCH_ARCHIVED.exitCode });
      expect(r.stderr).toContain(`batch ${batch.batchId} is archived on`);
      expect(r.stderr).toContain('read-only, its failed items expired with it');
      expect(r.stderr).not.toContain('bug');
    }
    const unknown = await runCli(['export', '0123456789abcdef'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no batch 0123456789abcdef');
  }, 180_000);
});
