import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { UsageError } from './usageError';

/** Why a file cannot be read, in words ("no such file"), from its errno code. */
function why(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of the path is not a folder';
  return code ?? (err instanceof Error ? err.message : String(err));
}

/**
 * The input files a dry-run command (`credits`, `rights`) reads, all opened before anything is
 * printed: a missing, unreadable or folder path is the caller's mistake (UsageError, exit 2, one
 * line naming the file), not a bug, and no table header comes before it. A pipe (`<(...)`,
 * /dev/stdin) is fine. Each handle is read once by `streamOf` and closed when its stream ends.
 */
export async function openInputFiles(
  command: string,
  files: string[],
): Promise<Array<{ file: string; handle: FileHandle }>> {
  const opened: Array<{ file: string; handle: FileHandle }> = [];
  try {
    for (const file of files) {
      let handle: FileHandle;
      try {
        handle = await open(file, 'r');
      } catch (err) {
        throw new UsageError(`${command}: cannot read ${file}: ${why(err)}`);
      }
      opened.push({ file, handle });
      // open() succeeds on a folder; reading it fails with EISDIR later, after the header.
      if ((await handle.stat()).isDirectory())
        throw new UsageError(`${command}: cannot read ${file}: ${why({ code: 'EISDIR' })}`);
    }
    return opened;
  } catch (err) {
    await Promise.all(opened.map((o) => o.handle.close().catch(() => undefined)));
    throw err;
  }
}

/** One opened input as a stream; a read error half-way names the file too (UsageError). */
export function streamOf(command: string, input: { file: string; handle: FileHandle }): NodeJS.ReadableStream {
  const out = new PassThrough();
  const s = input.handle.createReadStream({ autoClose: true });
  s.on('error', (err) => out.destroy(new UsageError(`${command}: cannot read ${input.file}: ${why(err)}`)));
  s.pipe(out);
  return out;
}
