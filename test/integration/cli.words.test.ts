import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { assertBuilt } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * What the CLI says, as a new user read it: `export --json` (the README says every data command
 * takes it), `schedule add --every` (its first run is at once, not at the "next run" it printed),
 * `schedule list` times with their UTC offset. Real Redis, the built CLI.
 */
jest.setTimeout(120_000);

describe('the CLI says what happens', () => {
  const prefix = uniquePrefix('words');
  const root = makeTmpDir('words');
  const env = pipelineEnv(prefix, path.join(root, 'data'));
  const source = path.join(root, 'inbox');
  beforeAll(() => {
    assertBuilt();
    mkdirSync(source);
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('export --json: one JSON document with the records and what was left out', async () => {
    const feed = path.join(root, 'feed.ndjson');
    writeFileSync(
      feed,
      [
        '{"id":"w1","caption":"Rain at Wimbledon. REUTERS/Jo Bloggs"}',
        '{"id":"w2","caption":"Fans wait at the gate. (AP Photo/Jo Bloggs)"}',
      ].join('\n') + '\n',
    );
    const run = await runCli(['run', feed, '--json'], env);
    expect(run.code).toBe(0);
    const batchId = (JSON.parse(run.stdout) as { batches: Array<{ batchId: string }> }).batches[0].batchId;
    const r = await runCli(['export', batchId, '--json'], env);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      batchId: string;
      archived: string | null;
      records: Array<{ agencyId: string }>;
      leftOut: Record<string, number>;
    };
    expect(doc).toMatchObject({ batchId, archived: null, leftOut: { killed: 0, withdrawn: 0, embargoed: 0 } });
    expect(doc.records.map((x) => x.agencyId)).toEqual(['w1', 'w2']);
    // Without --json, NDJSON as before.
    const nd = await runCli(['export', batchId], env);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { agencyId: string }).agencyId),
    ).toEqual(['w1', 'w2']);
  });

  it('schedule add --every: says the first run is at once (not a "next run" time), then the interval', async () => {
    const r = await runCli(['schedule', 'add', 'often', '--every', '20s', '--source', source], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `schedule often: every 20s, source ${source}; first run as soon as a \`photowire scheduler\` runs, then every 20s\n`,
    );
  });

  it('schedule add --cron and schedule list: times with their UTC offset', async () => {
    const tz = { ...env, TZ: 'Asia/Kolkata' };
    const add = await runCli(['schedule', 'add', 'nightly', '--cron', '0 2 * * *', '--source', source], tz);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(
      /^schedule nightly: cron 0 2 \* \* \*, source .*; next run \d{4}-\d\d-\d\d 02:00:00 \+05:30\n/,
    );
    const list = await runCli(['schedule', 'list'], tz);
    expect(list.stdout).toMatch(/^nightly {2}cron 0 2 \* \* \* {2}next \d{4}-\d\d-\d\d 02:00:00 \+05:30 {2}source /m);
    expect(list.stdout).toMatch(/^often {2}every 20s {2}next \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+05:30 {2}source /m);
  });
});
