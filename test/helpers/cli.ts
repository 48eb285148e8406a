import { spawn } from 'node:child_process';
import { REPO_ROOT } from './testEnv';
import { scaledMs } from './deadline';
import { binArgv } from './bin';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI (`npm test` builds first) as a user would, with its own environment. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { wrap?: string[]; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const argv = [...(opts.wrap ?? []), ...binArgv(), ...args];
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: opts.cwd ?? REPO_ROOT, env: childEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    // A guard against a hung command, not a measurement: scaled by the load (test/helpers/deadline.ts).
    const timer = setTimeout(() => child.kill('SIGKILL'), scaledMs(opts.timeoutMs ?? 120_000));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The built CLI under a pseudo-terminal (util-linux `script`), for what photowire prints only to a
 * terminal (`kills`, the `credits` and `rights` tables). stdout and stderr arrive together, as a
 * person at the terminal sees them, in `stdout` (line ends as CR LF).
 */
export function runCliOnTty(
  args: string[],
  env: Record<string, string | undefined>,
  opts: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const cmd = [...binArgv(), ...args].map(quote).join(' ') + ' </dev/null';
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', TERM: 'xterm' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) childEnv[k] = v;
  return new Promise((resolve, reject) => {
    // -e: script exits with the command's code.
    const child = spawn('script', ['-qec', cmd, '/dev/null'], {
      cwd: opts.cwd ?? REPO_ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * stderr without the AWS SDK's own Node-version warning, which the SDK prints once per process on
 * Node 20 (the README recommends 24 LTS); what is left is what photowire printed.
 */
export function withoutNodeVersionWarning(stderr: string): string {
  return stderr.replace(
    /\(node:\d+\) Warning: NodeVersionSupportWarning:[\s\S]*?\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/,
    '',
  );
}
