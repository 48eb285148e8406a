import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { freePort } from '../helpers/processes';
import { makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';

/**
 * `photowire health`, what docker-compose's healthchecks run: against the real Redis (and the
 * storage of this test mode), a Redis URL where nothing listens, and a data folder that cannot be
 * written. One line on stdout, exit 0 or 1, never a password.
 */
describe('photowire health (real Redis, real processes)', () => {
  const dir = makeTmpDir('health');
  afterAll(() => removeDir(dir));

  it('exit 0 with one line when Redis answers and the storage can be used', async () => {
    const env = pipelineEnv(uniquePrefix('health'), path.join(dir, 'data'));
    const r = await runCli(['health'], env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^ok: redis answers \(.+\); storage reachable \(.+\)\n$/);
  });

  it('exit 1 with one line naming Redis when nothing answers at REDIS_URL; the password is never printed', async () => {
    const port = await freePort();
    const r = await runCli(['health', '--timeout-ms', '1500'], {
      REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}`,
      REDIS_CLUSTER_NODES: '',
      PHOTOWIRE_DATA_DIR: path.join(dir, 'data2'),
    });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toHaveLength(2);
    expect(r.stdout).toMatch(
      new RegExp(
        `^unhealthy: redis does not answer \\(Redis at redis://:\\*+@127\\.0\\.0\\.1:${port}\\): .+; storage reachable`,
      ),
    );
    expect(r.stdout + r.stderr).not.toContain('hunter2secret');
  });

  it('exit 1 naming the storage when the data folder cannot be written', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const env = pipelineEnv(uniquePrefix('health'), path.join(blocker, 'data'), { PHOTOWIRE_STORAGE: undefined });
    delete env.PHOTOWIRE_STORAGE;
    const r = await runCli(['health', '--json'], env);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: false, redis: { ok: true }, storage: { ok: false } });
    expect(out.storage.detail).toContain(path.join(blocker, 'data'));
  });
});
