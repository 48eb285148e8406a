import type { StoragePort } from '../adapters/storage/storagePort';

/** What buildServer and startServer take beside the runtime; every field defaults from the config. */
export interface ServerOptions {
  /** The API token; defaults to PHOTOWIRE_API_TOKEN. Unset (or null): no auth, for loopback only. */
  token?: string | null;
  /** The page's folder (default: the repository's `web/`). */
  webRoot?: string;
  /** How often the event stream looks at the ledgers. */
  eventsIntervalMs?: number;
  /** API requests per minute per client (default PHOTOWIRE_API_RATE_LIMIT). */
  rateLimit?: number;
  /** The queue board's pause, empty, clean, retry and remove (default PHOTOWIRE_BOARD_WRITE); off, the board only shows. */
  boardWrite?: boolean;
  /**
   * Where renditions are read (the caller keeps it open and closes it). Default: the storage
   * PHOTOWIRE_STORAGE names (unset: the data directory), opened here and closed with the server.
   */
  storage?: StoragePort;
  /** With S3 storage, stream renditions through the server instead of redirecting (default PHOTOWIRE_STORAGE_PROXY). */
  storageProxy?: boolean;
}
