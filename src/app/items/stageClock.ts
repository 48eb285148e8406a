/** Milliseconds spent in each part of the item stage; logged with "item done" (the pipeline bench reads them). */
export interface StageTimings {
  read: number;
  metadata: number;
  captionCredit: number;
  renditions: number;
  store: number;
  dedup: number;
  record: number;
}

/** A stopwatch charged lap by lap: one clock read per stage, cheap beside any stage it measures. */
export class StageClock {
  readonly ms: StageTimings = { read: 0, metadata: 0, captionCredit: 0, renditions: 0, store: 0, dedup: 0, record: 0 };
  private last: number;
  constructor(private readonly now: () => number) {
    this.last = now();
  }
  lap(stage: keyof StageTimings): void {
    const now = this.now();
    this.ms[stage] += now - this.last;
    this.last = now;
  }
  rounded(): StageTimings {
    const out = { ...this.ms };
    for (const k of Object.keys(out) as Array<keyof StageTimings>) out[k] = Math.round(out[k] * 10) / 10;
    return out;
  }
}
