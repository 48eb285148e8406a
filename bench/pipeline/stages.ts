/** The per-item stage times the item worker logs with "item done" (see src/app/items/processItem.ts). */
export const STAGES = [
  'read',
  'metadata',
  'captionCredit',
  'renditions',
  'store',
  'dedup',
  'record',
  'catalog',
] as const;
export type Stage = (typeof STAGES)[number];

export interface StageBreakdown {
  items: number;
  /** Mean milliseconds per item in each stage. */
  meanMs: Record<Stage, number>;
  /** Each stage's share of all item time (the stages together are 100%). */
  share: Record<Stage, number>;
  meanItemMs: number;
}

/** Fold "item done" log lines (pino JSON) into mean time and share per stage; other lines are ignored. */
export function foldStageLines(lines: Iterable<string>): StageBreakdown {
  const sum = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  let items = 0;
  for (const line of lines) {
    if (!line.includes('"item done"')) continue;
    let parsed: { msg?: string; stages?: Partial<Record<Stage, number>> };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      continue;
    }
    if (parsed.msg !== 'item done' || !parsed.stages) continue;
    items++;
    for (const s of STAGES) sum[s] += Number(parsed.stages[s] ?? 0);
  }
  const total = STAGES.reduce((n, s) => n + sum[s], 0);
  const meanMs = Object.fromEntries(STAGES.map((s) => [s, items ? sum[s] / items : 0])) as Record<Stage, number>;
  const share = Object.fromEntries(STAGES.map((s) => [s, total ? sum[s] / total : 0])) as Record<Stage, number>;
  return { items, meanMs, share, meanItemMs: items ? total / items : 0 };
}
