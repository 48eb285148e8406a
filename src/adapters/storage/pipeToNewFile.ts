import { createWriteStream } from 'node:fs';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Stream `source` (through `through`, if given) into a new file (`wx`: never over an existing one).
 *
 * When it fails, it settles only once the file stream is closed. A source that fails before the
 * file's `open` has completed makes `pipeline` reject at once, while the file is still created a
 * moment later. A caller that removed its temp file on that rejection left the file behind
 * (storage.local.test caught a `tmp/*.tmp` left after a failed put).
 */
export async function pipeToNewFile(file: string, source: Readable, ...through: Transform[]): Promise<void> {
  const out = createWriteStream(file, { flags: 'wx' });
  try {
    await pipeline([source, ...through, out]);
  } catch (err) {
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    throw err;
  }
}
