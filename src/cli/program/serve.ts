import type { Command } from 'commander';
import { action } from './action';
import { parsePort, positiveInt } from './options';
import { healthCommand } from '../commands/health';

/** The desk: HTTP API, web page and queue board; and the health check of any photowire process's services. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('the desk: HTTP API, web page and queue board (PHOTOWIRE_API_TOKEN required off loopback)')
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 8080)
    .option('--host <address>', 'address to bind (anything but loopback needs PHOTOWIRE_API_TOKEN)', '127.0.0.1')
    .option('--with-workers', 'also run item and batch workers in this process')
    .option(
      '--concurrency <n>',
      'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)',
      positiveInt,
    )
    // Loaded when run: the server's modules (fastify and its plugins) are not needed by any other command.
    .action(
      action(async (opts) =>
        (await import('../commands/serve')).serveCommand({
          host: opts.host,
          port: opts.port,
          workers: opts.withWorkers,
          concurrency: opts.concurrency,
        }),
      ),
    );

  program
    .command('health')
    .description(
      'check that Redis answers and the storage can be used: one line, exit 0 (healthy) or 1 (docker-compose healthchecks run it)',
    )
    .option('--timeout-ms <n>', 'time each check may take', positiveInt, 5000)
    .option('--json', 'print JSON on stdout')
    .action(action((opts: { timeoutMs: number; json?: boolean }) => healthCommand(opts)));
}
