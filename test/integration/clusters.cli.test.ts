import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { REPO_ROOT, SEED_GALLERY, deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

describe('photowire clusters prints what each member changed (cluster.diff)', () => {
  const prefix = uniquePrefix('clusters-cli');
  const dataDir = makeTmpDir('clusters-cli-data');
  const env = pipelineEnv(prefix, dataDir); // the test matrix's Redis and storage (test/helpers/testEnv.ts)

  beforeAll(() => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(dataDir);
  });

  it('shows seed 11 as "A" dropped and "supporter" -> "supporters" against 01, and the diff in --json', async () => {
    const run = await runCli(['run', SEED_GALLERY, '--json'], env);
    expect(run.code).toBe(0);
    const batchId = JSON.parse(run.stdout).batches[0].batchId as string;
    const item = (n: number) => `${batchId}-${String(n).padStart(4, '0')}`;

    const text = await runCli(['clusters', '--batch', batchId, '--min-size', '2'], env);
    expect(text.code).toBe(0);
    const line11 = text.stdout.split('\n').find((l) => l.trim().startsWith(item(11)))!;
    expect(line11).toContain('@0 -"A"; @2 "supporter" -> "supporters"');
    const line3 = text.stdout.split('\n').find((l) => l.trim().startsWith(item(3)))!;
    expect(line3.trim()).toMatch(new RegExp(`^${item(3)}  exact  \\[[^\\]]+\\]$`)); // exact, with its credit line

    const json = await runCli(['clusters', '--batch', batchId, '--min-size', '2', '--json'], env);
    const members = (JSON.parse(json.stdout) as Array<{ members: Array<{ itemId: string; credit?: string | null; diff?: unknown }> }>).flatMap((c) => c.members);
    expect(members.find((m) => m.itemId === item(11))!.credit).toEqual(expect.any(String));
    expect(members.find((m) => m.itemId === item(11))!.diff).toEqual({ edits: [{ at: 0, deleted: 'A', inserted: '' }, { at: 2, deleted: 'supporter', inserted: 'supporters' }], more: 0 });
  });

  it('lists clusters of two or more by default, the caption once and each member with its credit line and diff (issues 12, 17)', async () => {
    const run = await runCli(['run', SEED_GALLERY, '--json'], env);
    const batchId = JSON.parse(run.stdout).batches[0].batchId as string;
    const item = (n: number) => `${batchId}-${String(n).padStart(4, '0')}`;
    const text = await runCli(['clusters', '--batch', batchId], env);
    expect(text.code).toBe(0);
    const headers = text.stdout.split('\n').filter((l) => l.startsWith('cluster '));
    // The seed's families (issue 12): 8, 7, 4, 4, 3, 2, 2; no single captions by default.
    expect(headers.map((l) => Number(/ (\d+) caption\(s\)/.exec(l)![1]))).toEqual([8, 7, 4, 4, 3, 2, 2]);
    const lines = text.stdout.split('\n');
    const line = (n: number) => lines.find((l) => l.trim().startsWith(`${item(n)} `))!;
    expect(line(1)).toContain('canonical  [');
    // 08 against 01: the subject line that differs, with 08's own credit.
    expect(line(8)).toMatch(/\[[^\]]+\]  @0 "A masked supporter of Julian Assange" -> "Police officers"/);
    // The canonical caption is printed once per cluster.
    expect(text.stdout.split('A masked supporter of Julian Assange outside').length - 1).toBe(1);
    const all = await runCli(['clusters', '--batch', batchId, '--min-size', '1'], env);
    expect(all.stdout.split('\n').filter((l) => l.startsWith('cluster '))).toHaveLength(18); // 7 families + 11 single captions
  });
});
