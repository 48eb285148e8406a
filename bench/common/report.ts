import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { repoRoot } from './paths';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  kernel: string;
  node: string;
  libvips: string;
  sharp: string;
  /** 1-minute load average when the bench started: other work on a shared box shows here. */
  loadAverageAtStart: number;
}

export function machineInfo(): MachineInfo {
  return {
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: +(os.totalmem() / 2 ** 30).toFixed(1),
    kernel: `${os.type()} ${os.release()}`,
    node: process.version,
    libvips: sharp.versions.vips,
    sharp: sharp.versions.sharp ?? 'unknown',
    loadAverageAtStart: +os.loadavg()[0].toFixed(2),
  };
}

export function machineLine(m: MachineInfo): string {
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, ${m.kernel}, node ${m.node}, sharp ${m.sharp} (libvips ${m.libvips}), load ${m.loadAverageAtStart}`;
}

/** Write bench/results/<name>-<timestamp>.json and return its path relative to the repo. */
export function writeResults(name: string, data: unknown, startedAt: Date): string {
  const dir = path.join(repoRoot(), 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = startedAt
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const file = path.join(dir, `${name}-${stamp}.json`);
  fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return path.relative(process.cwd(), file);
}

export type Cell = string | number | null | undefined;

/** A plain-text table: numbers right-aligned, text left-aligned, missing values as '-'. */
export function formatTable(header: string[], rows: Cell[][]): string {
  const text = (c: Cell) =>
    c === null || c === undefined || (typeof c === 'number' && !Number.isFinite(c)) ? '-' : String(c);
  const cells = rows.map((r) => header.map((_h, i) => text(r[i])));
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const numeric = header.map((_h, i) =>
    rows.every(
      (r) => r[i] === null || r[i] === undefined || typeof r[i] === 'number' || /^[-\d.,x%]+$/.test(String(r[i])),
    ),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] && i > 0 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

export const fixed = (x: number | null | undefined, digits: number): string | null =>
  x === null || x === undefined || !Number.isFinite(x) ? null : x.toFixed(digits);
