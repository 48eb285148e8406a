import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { assertBuilt } from '../helpers/processes';
import { WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { scaledMs } from '../helpers/deadline';

/**
 * Issue 13's last promise: `photowire run` with no settings at all (no REDIS_URL, no
 * REDIS_CLUSTER_NODES, no PHOTOWIRE_STORAGE, no PHOTOWIRE_DATA_DIR, no S3 or AWS variable) still
 * uses the local directory `./data` of where it runs and a private redis-server, as before object
 * storage and Redis Cluster existed. The run is put in a network namespace of its own (unshare -n),
 * where nothing answers on 127.0.0.1:6379: a fresh machine. runCli passes only PATH, HOME and CI.
 */
const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-n', 'true']).status === 0;

(canUnshare ? describe : describe.skip)('photowire run with no settings', () => {
  jest.setTimeout(scaledMs(120_000));
  const cwd = makeTmpDir('no-settings');
  afterAll(() => removeDir(cwd));

  it('stores in ./data and runs on a private Redis', async () => {
    assertBuilt();
    const photo = path.join(WIRE_IMAGES, 'cp.jpg');
    const r = await runCli(
      ['run', photo],
      {},
      { cwd, wrap: ['unshare', '-n', 'sh', '-c', 'ip link set lo up 2>/dev/null; exec "$@"', 'sh'] },
    );
    expect([r.code, r.stderr.slice(-1500)]).toEqual([0, expect.any(String)]);
    // The private Redis, said on stderr, and where the records stay.
    expect(r.stderr).toMatch(
      /no Redis on 127\.0\.0\.1:6379 and no REDIS_URL: using a private redis-server at redis:\/\/127\.0\.0\.1:\d+ \(stopped on exit\)/,
    );
    expect(r.stdout).toMatch(/records: +data\/batches\/cp-[0-9a-f]{12}\/records\.ndjson/);
    expect(r.stdout).toMatch(/renditions: +data\/renditions/);

    // Everything is under ./data of the working folder: the export, the original and the renditions.
    const data = path.join(cwd, 'data');
    const [batchId] = readdirSync(path.join(data, 'batches'));
    const [record] = readFileSync(path.join(data, 'batches', batchId, 'records.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(existsSync(path.join(data, 'batches', batchId, 'summary.json'))).toBe(true);
    expect(existsSync(path.join(data, record.image.original))).toBe(true);
    expect(record.renditions.length).toBe(2);
    for (const x of record.renditions) expect(existsSync(path.join(data, x.path))).toBe(true);
    expect(
      existsSync(
        path.join(
          data,
          'renditions',
          record.image.sha256.slice(0, 2),
          record.image.sha256.slice(2, 4),
          record.image.sha256,
          'renditions.json',
        ),
      ),
    ).toBe(true);
    // Nothing else was written in the working folder.
    expect(readdirSync(cwd)).toEqual(['data']);
  });
});
