/**
 * Progress of a long wait: a redrawn bar on a TTY (done/total, rate, ETA), plain lines
 * at most every few seconds otherwise (logs, CI), always on stderr so stdout stays data.
 *
 * The rate counts only what was done while we watched, and only once a second has gone by:
 * items finished before the first tick (a fast batch, or one resumed) would otherwise give
 * "4000.0/s ETA 0s" on the first draw.
 */
export const MIN_RATE_WINDOW_MS = 1000;

/** done/total, failures, rate and ETA as one short text; pure, for the bar and the tests. */
export function progressStats(done: number, total: number, failed: number, rate: number | null): string {
  const eta = rate && rate > 0 && total > done ? Math.round((total - done) / rate) : null;
  const parts = [`${done}/${total}`];
  if (failed) parts[0] += ` (${failed} failed)`;
  if (rate !== null) parts.push(`${rate.toFixed(1)}/s`);
  if (eta !== null) parts.push(`ETA ${formatEta(eta)}`);
  return parts.join(' ');
}

function formatEta(secs: number): string {
  if (secs < 90) return `${secs}s`;
  if (secs < 5400) return `${Math.round(secs / 60)} min`;
  return `${(secs / 3600).toFixed(1)} h`;
}

export class Progress {
  private first: { at: number; done: number } | null = null;
  private lastPlain = 0;
  private lastText = '';
  private readonly tty: boolean;
  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
    private readonly now: () => number = Date.now,
  ) {
    this.tty = !!stream.isTTY;
  }

  /** Items per second since the first tick, or null while too little time or nothing has passed. */
  rate(done: number): number | null {
    const t = this.now();
    if (!this.first) this.first = { at: t, done };
    const elapsed = t - this.first.at;
    if (elapsed < MIN_RATE_WINDOW_MS || done <= this.first.done) return null;
    return ((done - this.first.done) * 1000) / elapsed;
  }

  update(done: number, total: number, failed = 0): void {
    if (!this.enabled) return;
    const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
    const stats = progressStats(done, total, failed, this.rate(done));
    if (this.tty) {
      const width = 24;
      const filled = Math.round((pct / 100) * width);
      const text = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}% ${stats}`;
      if (text !== this.lastText) this.stream.write(`\r\x1b[K${text}`);
      this.lastText = text;
    } else if (this.now() - this.lastPlain >= 2000 || done === total) {
      const text = `${this.label}: ${pct}% ${stats}`;
      if (text !== this.lastText) this.stream.write(`${text}\n`);
      this.lastText = text;
      this.lastPlain = this.now();
    }
  }

  end(): void {
    if (this.enabled && this.tty && this.lastText) this.stream.write('\n');
  }
}
