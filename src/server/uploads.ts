import * as path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { StoragePort } from '../adapters/storage/storagePort';
import { saveUpload as storeUpload, type SavedUpload } from '../app/uploads/uploadService';
import { PhotowireError } from '../core/errors';
import { HttpError } from './httpError';

export type { SavedUpload } from '../app/uploads/uploadService';

const MAX_FILES = 5000;

/**
 * A multipart request's files, stored through the storage port as `uploads/<id>/<name>`
 * (src/app/uploads/uploadService.ts): capped in total bytes and files, each refusal a coded 4xx
 * (UPLOAD_TOO_LARGE, BAD_REQUEST).
 */
export async function saveUpload(
  req: FastifyRequest,
  deps: { storage: StoragePort; dataDir: string },
  maxBytes: number,
): Promise<SavedUpload> {
  try {
    const parts = req.files({ limits: { fileSize: maxBytes, files: MAX_FILES, fields: 20 } });
    return await storeUpload(
      parts,
      { storage: deps.storage, scratchDir: path.join(deps.dataDir, 'tmp') },
      { maxBytes, maxFiles: MAX_FILES },
    );
  } catch (err) {
    const code = err instanceof Error ? (err as { code?: string }).code : undefined;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(
        'UPLOAD_TOO_LARGE',
        `a file is over ${Math.round(maxBytes / 1048576)} MB (PHOTOWIRE_UPLOAD_MAX_MB)`,
      );
    if (code === 'FST_FILES_LIMIT')
      throw new HttpError('UPLOAD_TOO_LARGE', `an upload holds at most ${MAX_FILES} files`);
    // The service's refusals (bad name, no file, over the caps) are answered with their code.
    if (err instanceof PhotowireError && (err.code === 'UPLOAD_TOO_LARGE' || err.code === 'BAD_REQUEST'))
      throw new HttpError(err.code, err.message);
    throw err;
  }
}
