/**
 * Progress of a long wait: a redrawn bar on a TTY (done/total, rate, ETA), plain lines
 * at most every few seconds otherwise (logs, CI), always on stderr so stdout stays data.
 */
export class Progress {
  private readonly started = Date.now();
  private lastPlain = 0;
  private lastText = '';
  private readonly tty: boolean;
  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly enabled = true,
  ) {
    this.tty = !!stream.isTTY;
  }

  update(done: number, total: number, failed = 0): void {
    if (!this.enabled) return;
    const secs = (Date.now() - this.started) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const eta = rate > 0 && total > done ? Math.round((total - done) / rate) : 0;
    const pct = total > 0 ? Math.floor((done / total) * 100) : 100;
    const stats = `${done}/${total}${failed ? ` (${failed} failed)` : ''} ${rate.toFixed(1)}/s${total > done ? ` ETA ${eta}s` : ''}`;
    if (this.tty) {
      const width = 24;
      const filled = Math.round((pct / 100) * width);
      const text = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}% ${stats}`;
      if (text !== this.lastText) this.stream.write(`\r\x1b[K${text}`);
      this.lastText = text;
    } else if (Date.now() - this.lastPlain >= 2000 || done === total) {
      const text = `${this.label}: ${pct}% ${stats}`;
      if (text !== this.lastText) this.stream.write(`${text}\n`);
      this.lastText = text;
      this.lastPlain = Date.now();
    }
  }

  end(): void {
    if (this.enabled && this.tty && this.lastText) this.stream.write('\n');
  }
}
