import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface Measured {
  command: string;
  exitCode: number;
  wallMs: number;
  /** CPU seconds of the process (and the children it waited for), from GNU time; null when polled. */
  userS: number | null;
  sysS: number | null;
  /** Peak resident set of the process, in MB. */
  peakRssMb: number | null;
  stdout: string;
  stderr: string;
}

export interface MeasureOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Pin to these CPUs with taskset (the process and every thread it starts). */
  cpus?: number[];
  gnuTime?: string | null;
  taskset?: string | null;
  /** Called with each complete stderr line as it arrives (for progress or per-item logs). */
  onStderrLine?: (line: string) => void;
  maxOutputBytes?: number;
}

/** Peak RSS by polling VmHWM, for machines without GNU time. VmHWM only grows, so the last read is close to the peak. */
function pollHwm(pid: number, into: { kb: number }): NodeJS.Timeout {
  return setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) into.kb = Math.max(into.kb, Number(m[1]));
    } catch {
      /* gone */
    }
  }, 25);
}

/**
 * Run one command to its end and measure it: wall time here, CPU time and peak RSS from GNU time
 * (`-f '%U %S %M'`) when present. A non-zero exit is returned, not thrown: the caller names the tool.
 */
export function runMeasured(cmd: string, args: string[], opts: MeasureOptions = {}): Promise<Measured> {
  const timeFile = opts.gnuTime
    ? path.join(os.tmpdir(), `photowire-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`)
    : null;
  let argv = [cmd, ...args];
  if (opts.gnuTime && timeFile) argv = [opts.gnuTime, '-f', '%U %S %M', '-o', timeFile, ...argv];
  if (opts.cpus && opts.cpus.length) {
    if (!opts.taskset) throw new Error('pinning to CPUs needs taskset (Debian package util-linux)');
    argv = [opts.taskset, '-c', opts.cpus.join(','), ...argv];
  }
  const limit = opts.maxOutputBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0], argv.slice(1), {
      env: opts.env ?? process.env,
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const hwm = { kb: 0 };
    const poller = opts.gnuTime || !child.pid ? null : pollHwm(child.pid, hwm);
    let stdout = '';
    let stderr = '';
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < limit) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < limit) stderr += d;
      if (opts.onStderrLine) {
        partial += d;
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) opts.onStderrLine(l);
      }
    });
    child.on('error', (err) => {
      if (poller) clearInterval(poller);
      reject(new Error(`cannot start ${argv[0]}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - t0;
      if (poller) clearInterval(poller);
      if (partial && opts.onStderrLine) opts.onStderrLine(partial);
      let userS: number | null = null;
      let sysS: number | null = null;
      let peakRssMb: number | null = hwm.kb ? hwm.kb / 1024 : null;
      if (timeFile) {
        try {
          // GNU time writes "Command exited with non-zero status N" first when the command fails.
          const last = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
          const [u, s, m] = last.split(' ').map(Number);
          if ([u, s, m].every(Number.isFinite)) {
            userS = u;
            sysS = s;
            peakRssMb = m / 1024;
          }
        } catch {
          /* time did not write: the command could not start */
        }
        fs.rmSync(timeFile, { force: true });
      }
      resolve({
        command: [cmd, ...args].join(' '),
        exitCode: code ?? (signal ? 128 : 1),
        wallMs,
        userS,
        sysS,
        peakRssMb,
        stdout,
        stderr,
      });
    });
  });
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
