import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * SHA-256 of a file's bytes, streamed (64 KiB reads, never the whole file in memory). Batch ids of
 * single photos and folders come from it (src/core/ids.ts), so the same bytes dropped again with
 * a new mtime land on the same batch. Cost, measured on the project's 2-vCPU VM while other jobs
 * loaded it (load average 8.5): 200 files of 6 MB (1.2 GB, the size of 200 24-MP JPEGs) stream
 * through this in 1.9-2.6 s over three runs (460-650 MB/s, from the page cache), against about
 * 22 s to render those photos at 9 photos/s (docs/BENCHMARKS.md): about a tenth of the batch's
 * time, and the item workers then read the files from the cache. Reproduce: write 200 files with
 * `head -c 6000000 /dev/urandom`, time sha256File over them.
 */
export async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  const h = createHash('sha256');
  const stream = createReadStream(file, { highWaterMark: 1 << 16, signal });
  for await (const chunk of stream) h.update(chunk as Buffer);
  return h.digest('hex');
}
