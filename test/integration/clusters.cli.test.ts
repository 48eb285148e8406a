import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { REDIS_URL, REPO_ROOT, SEED_GALLERY, deletePrefix, makeTmpDir, removeDir, uniquePrefix } from '../helpers/testEnv';

describe('photowire clusters prints what each member changed (cluster.diff)', () => {
  const prefix = uniquePrefix('clusters-cli');
  const dataDir = makeTmpDir('clusters-cli-data');
  const env = { REDIS_URL, PHOTOWIRE_PREFIX: prefix, PHOTOWIRE_DATA_DIR: dataDir };

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
    expect(line3.trim()).toBe(`${item(3)}  exact`);

    const json = await runCli(['clusters', '--batch', batchId, '--min-size', '2', '--json'], env);
    const members = (JSON.parse(json.stdout) as Array<{ members: Array<{ itemId: string; diff?: unknown }> }>).flatMap((c) => c.members);
    expect(members.find((m) => m.itemId === item(11))!.diff).toEqual({ edits: [{ at: 0, deleted: 'A', inserted: '' }, { at: 2, deleted: 'supporter', inserted: 'supporters' }], more: 0 });
  });
});
