import * as path from 'node:path';
import ms, { type StringValue } from 'ms';
import { z } from 'zod';
import { PhotowireError, type PhotowireErrorOptions } from '../../core/errors';

/** A named import: when it runs (cron or every) and what it reads (a folder or an http(s) URL). */
export interface ScheduleDef {
  name: string;
  cron?: string;
  every?: number;
  tz?: string;
  source: string;
}

/** A schedule that cannot be used: SCHEDULE_INVALID (exit 2, HTTP 400). */
export class ScheduleError extends PhotowireError {
  constructor(message: string, options?: PhotowireErrorOptions) {
    super('SCHEDULE_INVALID', message, options);
    this.name = 'ScheduleError';
  }
}

export const SCHEDULE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const HTTP_URL = /^https?:\/\//i;

export function isHttpSource(source: string): boolean {
  return HTTP_URL.test(source);
}

/** `500ms`, `30s`, `15m`, `2h`, `1d` (the `ms` package's units and names: `2 hours`, `1w` too), or a number of milliseconds. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  let parsed: number | undefined;
  try {
    parsed = trimmed === '' ? undefined : ms(trimmed as StringValue);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'number' || !Number.isFinite(parsed))
    throw new ScheduleError(`${JSON.stringify(text)} is not a duration (examples: 90s, 15m, 2h, 1d)`);
  const every = Math.round(parsed);
  if (every < 1000) throw new ScheduleError(`every ${JSON.stringify(text)} is under one second`);
  return every;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const rawDefSchema = z
  .object({
    name: z.string().regex(SCHEDULE_NAME, 'letters, digits, dot, dash and underscore only (at most 64)'),
    cron: z.string().trim().min(1).optional(),
    every: z.union([z.number().int().min(1000), z.string().min(1)]).optional(),
    tz: z.string().min(1).optional(),
    source: z.string().trim().min(1),
  })
  .strict();

/**
 * Check one definition and make its source absolute (a relative folder is taken relative to
 * `baseDir`: the config file's folder, or the working directory at the command line).
 */
export function normalizeScheduleDef(raw: unknown, baseDir: string, where: string): ScheduleDef {
  const parsed = rawDefSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ScheduleError(
      `${where}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'schedule'}: ${i.message}`).join('; ')}`,
    );
  }
  const d = parsed.data;
  const label = `${where}: schedule ${JSON.stringify(d.name)}`;
  if ((d.cron === undefined) === (d.every === undefined))
    throw new ScheduleError(`${label}: give exactly one of cron or every`);
  let every: number | undefined;
  if (d.every !== undefined) {
    try {
      every = typeof d.every === 'number' ? d.every : parseDuration(d.every);
    } catch (err) {
      throw new ScheduleError(`${label}: ${(err as Error).message}`);
    }
  }
  if (d.tz !== undefined && !isValidTimeZone(d.tz))
    throw new ScheduleError(
      `${label}: unknown time zone ${JSON.stringify(d.tz)} (use an IANA name like Europe/London)`,
    );
  if (d.tz !== undefined && every !== undefined)
    throw new ScheduleError(`${label}: a time zone only applies to cron schedules`);
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(d.source) && !isHttpSource(d.source)) {
    throw new ScheduleError(`${label}: source ${JSON.stringify(d.source)} is neither a folder nor an http(s) URL`);
  }
  const source = isHttpSource(d.source) ? new URL(d.source).href : path.resolve(baseDir, d.source);
  return {
    name: d.name,
    ...(d.cron !== undefined ? { cron: d.cron } : {}),
    ...(every !== undefined ? { every } : {}),
    ...(d.tz ? { tz: d.tz } : {}),
    source,
  };
}

/** PHOTOWIRE_SCHEDULES: a JSON array of schedules, or `{ "schedules": [...] }`. */
export function parseSchedulesFile(text: string, file: string): ScheduleDef[] {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new ScheduleError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const list = Array.isArray(value) ? value : (value as { schedules?: unknown } | null)?.schedules;
  if (!Array.isArray(list))
    throw new ScheduleError(`${file}: expected an array of schedules or an object with a "schedules" array`);
  const defs = list.map((raw, i) => normalizeScheduleDef(raw, path.dirname(file), `${file}: schedule ${i + 1}`));
  const seen = new Set<string>();
  for (const d of defs) {
    if (seen.has(d.name)) throw new ScheduleError(`${file}: schedule ${JSON.stringify(d.name)} is defined twice`);
    seen.add(d.name);
  }
  return defs;
}

/** How a schedule reads in a listing: `cron 0 2 * * * (Europe/London)` or `every 15m`. */
export function describeTiming(d: { cron?: string; every?: number; tz?: string }): string {
  if (d.cron) return `cron ${d.cron}${d.tz ? ` (${d.tz})` : ''}`;
  // Hand-written: exact (`every 90s`), where ms() rounds to one unit (90s reads `2m`).
  const every = d.every ?? 0;
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (every % size === 0) return `every ${every / size}${unit}`;
  }
  return `every ${every}ms`;
}
