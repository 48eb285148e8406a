import { z } from 'zod';

/** The payload of a `scheduled-import` job on the `photowire-schedule` queue. */
export const scheduleJobSchema = z.object({
  schedule: z.string().min(1),
  source: z.string().min(1),
  // resume: finish a run interrupted by a stop or crash, and nothing else.
  trigger: z.enum(['schedule', 'manual', 'catch-up', 'resume']).default('schedule'),
});
export type ScheduleJob = z.infer<typeof scheduleJobSchema>;

/** A schedule as its job scheduler keeps it: timing in the repeat options, source in the job template. */
export interface StoredSchedule {
  name: string;
  cron?: string;
  every?: number;
  tz?: string;
  source: string;
  /** When the next run is due (ms), or null. */
  next: number | null;
}

export type ScheduleRepeat = { cron: string; tz?: string } | { every: number };
