import { LocalDirStorage } from './localStorage';
import { S3Storage, type S3StorageOptions } from './s3Storage';
import type { StorageConfig } from './storageConfig';
import type { StoragePort } from './storagePort';

/**
 * The storage the configuration names (`config.storage`: PHOTOWIRE_STORAGE and S3_*), checked: a folder
 * that cannot be written, a missing bucket or refused credentials throw StorageConfigError
 * (a ConfigError: the CLI exits 2) before any item is taken.
 */
export async function openStorage(
  cfg: StorageConfig,
  opts: S3StorageOptions & { urlBase?: string } = {},
): Promise<StoragePort> {
  const port = createStorage(cfg, opts);
  try {
    await port.open();
  } catch (err) {
    await port.close().catch(() => undefined);
    throw err;
  }
  return port;
}

/** The adapter for the configuration, not yet checked (no I/O): call `open()` before relying on it. */
export function createStorage(cfg: StorageConfig, opts: S3StorageOptions & { urlBase?: string } = {}): StoragePort {
  return cfg.kind === 'local' ? new LocalDirStorage(cfg.root, { urlBase: opts.urlBase }) : new S3Storage(cfg, opts);
}
