import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli, withoutNodeVersionWarning } from '../helpers/cli';
import {
  REPO_ROOT,
  SEED_GALLERY,
  deletePrefix,
  makeTmpDir,
  pipelineEnv,
  removeDir,
  uniquePrefix,
} from '../helpers/testEnv';

describe('photowire clusters prints what each member changed (cluster.diff) and why it joined (cluster.why)', () => {
  const prefix = uniquePrefix('clusters-cli');
  const dataDir = makeTmpDir('clusters-cli-data');
  const env = pipelineEnv(prefix, dataDir); // the test matrix's Redis and storage (test/helpers/testEnv.ts)

  beforeAll(() => {
    if (!existsSync(path.join(REPO_ROOT, 'dist/cli/main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
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
    const lines = text.stdout.split('\n');
    expect(lines[lines.indexOf(line11) + 1]).toBe(
      '      why: subject matched, background same, function word "a" -> ""',
    );
    const line3 = text.stdout.split('\n').find((l) => l.trim().startsWith(item(3)))!;
    expect(line3.trim()).toMatch(new RegExp(`^${item(3)}  exact  \\[[^\\]]+\\]$`)); // exact, with its credit line

    const json = await runCli(['clusters', '--batch', batchId, '--min-size', '2', '--json'], env);
    const members = (
      JSON.parse(json.stdout) as Array<{ members: Array<{ itemId: string; credit?: string | null; diff?: unknown }> }>
    ).flatMap((c) => c.members);
    expect(members.find((m) => m.itemId === item(11))!.credit).toEqual(expect.any(String));
    expect(members.find((m) => m.itemId === item(11))!.diff).toEqual({
      edits: [
        { at: 0, deleted: 'A', inserted: '' },
        { at: 2, deleted: 'supporter', inserted: 'supporters' },
      ],
      more: 0,
    });
    expect(members.find((m) => m.itemId === item(11))!).toMatchObject({
      why: { matched: ['subject'], background: 'same', edits: [{ kind: 'function-word', from: 'a', to: '' }] },
    });

    // clusters show: the one cluster, every member with its diff and why.
    const clusterId = (JSON.parse(json.stdout) as Array<{ id: string; canonicalId: string }>).find(
      (c) => c.canonicalId === item(1),
    )!.id;
    const show = await runCli(['clusters', 'show', clusterId], env);
    expect(show.code).toBe(0);
    expect(show.stdout.split('\n').filter((l) => l.startsWith('cluster '))).toEqual([
      expect.stringContaining(`cluster ${clusterId}  5 caption(s)  canonical ${item(1)}`),
    ]);
    expect(show.stdout).toContain(`${line11}\n      why: subject matched, background same, function word "a" -> ""\n`);
    const shownJson = JSON.parse((await runCli(['clusters', 'show', clusterId, '--json'], env)).stdout) as {
      members: Array<{ itemId: string }>;
    };
    expect(shownJson.members.map((m) => m.itemId.slice(-2))).toEqual(['01', '02', '03', '07', '11']);
    const missing = await runCli(['clusters', 'show', '0123456789abcdef'], env);
    expect(missing.code).toBe(1);
    // photowire's one line (on Node 20 with S3 storage the AWS SDK prints its own Node-version warning first)
    expect(withoutNodeVersionWarning(missing.stderr)).toBe('no cluster 0123456789abcdef\n');
    const bad = await runCli(['clusters', 'show', 'nope\x1b[2J'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nope\\x1b[2J: a cluster id is 16 hex digits');
  });

  it('lists clusters of two or more by default, the caption once and each member with its credit line and diff', async () => {
    const run = await runCli(['run', SEED_GALLERY, '--json'], env);
    const batchId = JSON.parse(run.stdout).batches[0].batchId as string;
    const item = (n: number) => `${batchId}-${String(n).padStart(4, '0')}`;
    const text = await runCli(['clusters', '--batch', batchId], env);
    expect(text.code).toBe(0);
    const headers = text.stdout.split('\n').filter((l) => l.startsWith('cluster '));
    // One subject about one picture: {01,02,03,07,11} {04,05} {08,09} {34,35} {36,38}; no single captions by default.
    expect(headers.map((l) => Number(/ (\d+) caption\(s\)/.exec(l)![1]))).toEqual([5, 2, 2, 2, 2]);
    const lines = text.stdout.split('\n');
    const line = (n: number) => lines.find((l) => l.trim().startsWith(`${item(n)} `))!;
    expect(line(1)).toContain('canonical  [');
    // 08 (the police, on the same background as 01's masked supporter) is another picture: the
    // canonical of its own cluster, never a member of 01's.
    expect(line(8)).toContain('canonical  [');
    const of01 = text.stdout.split(/^(?=cluster )/m).find((block) => block.includes(`canonical ${item(1)}`))!;
    expect(of01).not.toContain(item(8));
    // The canonical caption is printed once per cluster.
    expect(text.stdout.split('A masked supporter of Julian Assange outside').length - 1).toBe(1);
    const all = await runCli(['clusters', '--batch', batchId, '--min-size', '1'], env);
    expect(all.stdout.split('\n').filter((l) => l.startsWith('cluster '))).toHaveLength(33); // 5 clusters + 28 single captions
  });
});
