/**
 * Milliseconds of CPU this process spent running `fn` (user + system, `process.cpuUsage`).
 *
 * The timing tests (linear rules, bounded scans) compare these and not wall-clock times. The
 * wall clock also counts the time that other processes held the cores. On a shared two-core CI
 * machine, with jest's other worker, Chromium and Ceph running, that made a linear rule look
 * several times slower than its ASCII baseline. A quadratic rule still spends quadratic CPU.
 */
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}
