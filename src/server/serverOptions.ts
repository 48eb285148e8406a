import type { StoragePort } from '../adapters/storage/storagePort';

/** What buildServer and startServer take beside the runtime; every field defaults from the config. */
export interface ServerOptions {
  /** The API token; defaults to PHOTOWIRE_API_TOKEN. Unset (or null): no auth, for loopback only. */
  token?: string | null;
  /** The page's folder (default: the repository's `web/`). */
  webRoot?: string;
  /** How often the event stream looks at the ledgers. */
  eventsIntervalMs?: number;
  /** How long an idle event stream waits before a keep-alive comment (default 15 s). */
  eventsHeartbeatMs?: number;
  /** Open /api/events streams per client address (default PHOTOWIRE_EVENT_STREAMS_PER_CLIENT). */
  eventStreamsPerClient?: number;
  /** Feed submissions in flight per client address (default PHOTOWIRE_UPLOADS_PER_CLIENT). */
  uploadsPerClient?: number;
  /** A request must have arrived whole within this (default PHOTOWIRE_HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs?: number;
  /** A request body that sends nothing this long is cut (default PHOTOWIRE_HTTP_BODY_IDLE_MS). */
  bodyIdleMs?: number;
  /** Host names answered beside the bound address (default PHOTOWIRE_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** API requests per minute per client (default PHOTOWIRE_API_RATE_LIMIT). */
  rateLimit?: number;
  /** The queue board's pause, empty, clean, retry and remove (default PHOTOWIRE_BOARD_WRITE); off, the board only shows. */
  boardWrite?: boolean;
  /**
   * Where renditions are read (the caller keeps it open and closes it). Default: the runtime's
   * storage (PHOTOWIRE_STORAGE, unset: the data directory), closed with the runtime.
   */
  storage?: StoragePort;
  /** With S3 storage, stream renditions through the server instead of redirecting (default PHOTOWIRE_STORAGE_PROXY). */
  storageProxy?: boolean;
}
