/** What hot folders and schedules need from the Runtime (src/app/runtime.ts). */
export type { SourceRuntime } from '../app/runtime';
