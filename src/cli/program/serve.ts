import type { Command } from 'commander';
import { action } from './action';
import { positiveInt } from './options';
import { parsePort, serveCommand } from '../commands/serve';

/** The desk: HTTP API, web page and queue board. */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('the desk: HTTP API, web page and queue board (PHOTOWIRE_API_TOKEN required off loopback)')
    .option('--port <n>', 'port to listen on (0: any free port)', parsePort, 8080)
    .option('--host <address>', 'address to bind (anything but loopback needs PHOTOWIRE_API_TOKEN)', '127.0.0.1')
    .option('--with-workers', 'also run item and batch workers in this process')
    .option('--concurrency <n>', 'items processed at once with --with-workers (default PHOTOWIRE_CONCURRENCY)', positiveInt)
    .action(action((opts) => serveCommand({ host: opts.host, port: opts.port, workers: opts.withWorkers, concurrency: opts.concurrency })));
}
