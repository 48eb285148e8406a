import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { ConfigError } from '../config';

/** A configuration problem: the CLI prints it as one clear message and exits 2. */
export class AuthConfigError extends ConfigError {
  constructor(message: string) {
    super([message]);
    this.name = 'AuthConfigError';
  }
}

/** Addresses only this machine can reach. `localhost` counts: it resolves to loopback on any sane host. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h.startsWith('::ffff:')) return isLoopbackHost(h.slice(7));
  return false;
}

/** The desk shows and changes the catalog: reachable from other machines, it must have a token. */
export function assertServable(host: string, token: string | undefined): void {
  if (!token && !isLoopbackHost(host)) {
    throw new AuthConfigError(
      `refusing to listen on ${host} without PHOTOWIRE_API_TOKEN: anyone who can reach it could read the catalog and submit feeds. ` +
        'Set PHOTOWIRE_API_TOKEN (at least 16 characters, e.g. `openssl rand -hex 24`) or bind to 127.0.0.1.',
    );
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}

/** Compare in constant time: hashing first makes the lengths equal. */
export function tokenMatches(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * The token from `Authorization: Bearer <token>`, or, for the queue board a browser opens by
 * navigation (which cannot add a header), the password of `Authorization: Basic`.
 */
export function presentedToken(header: string | undefined, allowBasic: boolean): string | null {
  if (!header) return null;
  const m = /^(\w+)\s+(.+)$/.exec(header.trim());
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  if (scheme === 'bearer') return m[2].trim();
  if (scheme === 'basic' && allowBasic) {
    const decoded = Buffer.from(m[2].trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
  }
  return null;
}
