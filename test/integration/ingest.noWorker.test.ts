import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { CliProcess, assertBuilt, startReadyWorker, waitUntil } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * `photowire ingest <feed> --wait` with no worker on the queues used to print "0% 0/2" for ever.
 * Now it says at once, in one line on stderr, that no worker is consuming the queue, and exits 2;
 * with --wait-for-workers it keeps waiting, and says when a worker appears. Real Redis, the built
 * CLI, a real `photowire worker` process.
 */
jest.setTimeout(120_000);

describe('ingest --wait with no worker running', () => {
  const prefix = uniquePrefix('noworker');
  const root = makeTmpDir('noworker');
  const env = pipelineEnv(prefix, path.join(root, 'data'));
  const feed = (name: string) => {
    const f = path.join(root, `${name}.ndjson`);
    writeFileSync(
      f,
      [
        `{"id":"${name}-1","caption":"Rain at Wimbledon. REUTERS/Jo Bloggs"}`,
        `{"id":"${name}-2","caption":"Fans wait at the gate. (AP Photo/Jo Bloggs)"}`,
      ].join('\n') + '\n',
    );
    return f;
  };
  let worker: CliProcess | null = null;
  beforeAll(() => assertBuilt());
  afterAll(async () => {
    await worker?.stop();
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('says so at once, in one line on stderr, and exits 2; the batch stays queued', async () => {
    const r = await runCli(['ingest', feed('alone'), '--wait'], env, { timeoutMs: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^photowire: no worker is consuming the photowire-item and photowire-batch queue \(PHOTOWIRE_PREFIX pwtest-noworker-\w+\): batch alone-\w+ stays queued until one starts; run `photowire worker`/,
    );
    const status = await runCli(['status', '--json'], env);
    expect(
      (JSON.parse(status.stdout) as Array<{ state: string; expected: number }>).map((b) => [b.state, b.expected]),
    ).toEqual([['queued', 2]]);
  });

  it('with --wait-for-workers, waits, says when a worker appears, then prints the summary', async () => {
    const ingest = CliProcess.start(['ingest', feed('later'), '--wait', '--wait-for-workers'], env);
    try {
      await waitUntil(
        async () => ingest.plain.some((l) => l.includes('no worker is consuming')) || !ingest.alive,
        60_000,
        'the "no worker" line',
      );
      expect(ingest.alive).toBe(true);
      expect(ingest.plain.filter((l) => l.startsWith('photowire:'))).toEqual([
        expect.stringMatching(
          /no worker is consuming the photowire-item and photowire-batch queue .*; waiting for one \(--wait-for-workers\)$/,
        ),
      ]);
      worker = await startReadyWorker(env);
      const exit = await ingest.exited;
      expect(exit.code).toBe(0);
      expect(ingest.plain).toContain('photowire: a worker is consuming the queue now');
      expect(ingest.stdout).toMatch(/^batch later-\w+ .* done\n {2}2 items: 2 ok, 0 failed/);
    } finally {
      await ingest.stop();
    }
  });

  it('a worker running: no such line, the summary as before', async () => {
    const r = await runCli(['ingest', feed('with'), '--wait'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/no worker/);
    expect(r.stdout).toMatch(/2 items: 2 ok, 0 failed/);
  });

  it('no worker, but the feed was taken before and is done: its summary, exit 0', async () => {
    await worker!.stop();
    worker = null;
    const r = await runCli(['ingest', feed('with'), '--wait'], env);
    expect(r.stderr).not.toMatch(/no worker/);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(/2 items: 2 ok, 0 failed/)]);
  });
});
