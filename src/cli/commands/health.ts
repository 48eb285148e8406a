import { loadConfig } from '../../config';
import { checkHealth } from '../../app/health/checkHealth';

/**
 * `photowire health`: one line, exit 0 when Redis answers and the storage can be used, 1 when not
 * (docker-compose's healthchecks run it). A bad setting is a ConfigError (exit 2) like any command's.
 */
export async function healthCommand(opts: { timeoutMs: number; json?: boolean }): Promise<number> {
  const report = await checkHealth(loadConfig(), { timeoutMs: opts.timeoutMs });
  if (opts.json)
    process.stdout.write(
      JSON.stringify({ ok: report.ok, redis: report.redis, storage: report.storage }, null, 2) + '\n',
    );
  else process.stdout.write(`${report.line}\n`);
  return report.ok ? 0 : 1;
}
