import { maskUrlCredentials } from '../../core/secrets';
import type { StorageConfig } from '../../config';

// The storage variables are read with the rest of the configuration (src/config.ts, `config.storage`).
export type { StorageConfig };

/** The storage as logs and errors name it: bucket, prefix and endpoint, never a credential. */
export function describeStorage(cfg: StorageConfig): string {
  if (cfg.kind === 'local') return `local folder ${cfg.root}`;
  return `s3://${cfg.bucket}/${cfg.prefix} at ${cfg.endpoint ? maskUrlCredentials(cfg.endpoint) : `AWS S3 (${cfg.region})`}`;
}
