import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import type { RedisHandle } from '../src/adapters/redis/ensureRedis';
import { s3EnvFromProcess } from './globalSetup';

type Started = { script: string; dir: string }[];
const state = globalThis as {
  __photowireRedis?: RedisHandle;
  __photowireServices?: Started;
  __photowireBucket?: string;
};

/** Stop the private redis-server of globalSetup, drop the run's bucket and stop the services it started. */
export default async function globalTeardown(): Promise<void> {
  await state.__photowireRedis?.stop();
  if (state.__photowireBucket) {
    const { dropBucket } = await import('./helpers/s3Bucket');
    await dropBucket(s3EnvFromProcess(), state.__photowireBucket).catch((err: Error) =>
      process.stderr.write(`tests: could not drop bucket ${state.__photowireBucket}: ${err.message}\n`),
    );
  }
  for (const s of (state.__photowireServices ?? []).reverse()) {
    execFileSync('bash', [path.join(__dirname, '..', 'scripts/services', s.script), 'stop', s.dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, STOP_FAST: '1' },
    });
  }
}
