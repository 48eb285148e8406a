import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeToNewFile } from '../../adapters/storage/pipeToNewFile';
import type { StoragePort } from '../../adapters/storage/storagePort';
import { PhotowireError } from '../../core/errors';
import { uploadKey } from '../../core/storageKeys';
import { safeFileName, uniqueName, uploadFeedRefs, uploadIdOf } from '../../core/uploads';

/** One file of a multipart upload, as the HTTP layer hands it over. */
export interface UploadPart {
  filename: string | undefined;
  file: Readable & { truncated?: boolean };
}

export interface UploadPorts {
  /** Where the files go (the local data directory or the bucket): `uploads/<id>/<name>`, put-if-absent. */
  storage: Pick<StoragePort, 'putIfAbsent'>;
  /**
   * A scratch folder of this machine for the bytes while the upload's id is not yet known
   * (`<dataDir>/tmp`: a file named `<pid>-...` is swept when its process is gone). Emptied before
   * `saveUpload` returns or throws.
   */
  scratchDir: string;
}

export interface UploadLimits {
  maxBytes: number;
  maxFiles: number;
}

export interface SavedUpload {
  id: string;
  /** The objects' keys, `uploads/<id>/<name>`, in name order. */
  keys: string[];
  /** What to ingest, as storage references (src/core/uploads.ts uploadFeedRefs). */
  feeds: string[];
}

const tooLarge = (maxBytes: number, what: string) =>
  new PhotowireError(
    'UPLOAD_TOO_LARGE',
    `${what} is over ${Math.round(maxBytes / 1048576)} MB (PHOTOWIRE_UPLOAD_MAX_MB)`,
  );

/**
 * Store a desk upload in photowire's storage: every file is streamed to the scratch
 * folder while hashed and counted (capped in total bytes and in files), then, once the upload's
 * id (a digest of its names and contents) is known, created as `uploads/<id>/<name>` with
 * put-if-absent. The same upload twice is the same objects and, ingested, the same batch; a worker
 * on any machine reads them through the storage port. Nothing of a refused upload is stored.
 */
export async function saveUpload(
  parts: AsyncIterable<UploadPart>,
  ports: UploadPorts,
  limits: UploadLimits,
): Promise<SavedUpload> {
  await fs.mkdir(ports.scratchDir, { recursive: true });
  const staged: Array<{ name: string; sha256: string; tmp: string }> = [];
  const names = new Set<string>();
  let total = 0;
  try {
    for await (const part of parts) {
      if (staged.length >= limits.maxFiles)
        throw new PhotowireError('UPLOAD_TOO_LARGE', `an upload holds at most ${limits.maxFiles} files`);
      const clean = safeFileName(part.filename ?? '');
      if (!clean)
        throw new PhotowireError(
          'BAD_REQUEST',
          `an uploaded file has no usable name (${JSON.stringify(part.filename)})`,
        );
      const name = uniqueName(clean, names);
      names.add(name);
      const tmp = path.join(ports.scratchDir, `${process.pid}-${randomBytes(6).toString('hex')}.upload`);
      const file = { name, sha256: '', tmp };
      staged.push(file);
      const hash = createHash('sha256');
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          total += chunk.length;
          if (total > limits.maxBytes) return cb(tooLarge(limits.maxBytes, 'the upload'));
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      await pipeToNewFile(tmp, part.file, counter);
      if (part.file.truncated) throw tooLarge(limits.maxBytes, name);
      file.sha256 = hash.digest('hex');
    }
    if (staged.length === 0)
      throw new PhotowireError(
        'BAD_REQUEST',
        'the upload holds no file: send one or more files in a multipart/form-data body',
      );
    const id = uploadIdOf(staged);
    // One file in memory at a time (each is at most the upload cap); 'exists' is the same upload sent before.
    for (const f of staged) await ports.storage.putIfAbsent(uploadKey(id, f.name), await fs.readFile(f.tmp));
    const sorted = [...names].sort();
    return { id, keys: sorted.map((n) => uploadKey(id, n)), feeds: uploadFeedRefs(id, sorted) };
  } finally {
    await Promise.all(staged.map((f) => fs.rm(f.tmp, { force: true })));
  }
}
