import type { AddressInfo } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { isLoopbackHost } from './auth';

/**
 * Who may talk to the desk from a browser. Two attacks need no token on a loopback desk:
 * - DNS rebinding: a page of `evil.example` makes its name resolve to 127.0.0.1 and then reads the
 *   desk as its own origin. The browser still sends `Host: evil.example:<port>`, so only a Host
 *   naming an address the server is bound to (or one listed in PHOTOWIRE_ALLOWED_HOSTS) is answered.
 * - Cross-site requests: a page of any other origin posts a multipart form (no CORS preflight) to
 *   /api/feeds or /api/kills. Browsers say where such a request comes from (`Sec-Fetch-Site`, and
 *   `Origin` on every POST), so a request that changes something is refused unless it comes from
 *   the desk's own origin. A client that sends neither header is not a browser (curl, a script):
 *   nobody's cookies or network position ride on it, and it goes on as before.
 */

/** Methods that change nothing (the API's GET routes have no side effects). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const HOST_SYNTAX = /^(?:\[[0-9a-f:.]{2,45}\]|[a-z0-9._-]{1,253})(?::\d{1,5})?$/i;
/** How often a wildcard bind reads the machine's addresses again (a DHCP lease may change them). */
const INTERFACES_TTL_MS = 10_000;

export interface HostName {
  /** Lower case; an IPv6 literal in brackets, `[::1]`. */
  name: string;
  /** The port, or null when the header names none (80 for http). */
  port: number | null;
}

/** A `Host` header (or `host:port` entry) as name and port; null for anything else (a path, userinfo, spaces). */
export function parseHostName(value: string | undefined): HostName | null {
  if (value === undefined) return null;
  const v = value.trim();
  if (!HOST_SYNTAX.test(v)) return null;
  let url: URL;
  try {
    url = new URL(`http://${v}`);
  } catch {
    return null;
  }
  // The WHATWG parser folds `127.1` and `0x7f.1` onto 127.0.0.1, as a browser's Host would be.
  return {
    name: url.hostname.toLowerCase(),
    port: url.port === '' ? (/:\d+$/.test(v) && !v.endsWith(']') ? 80 : null) : Number(url.port),
  };
}

const bracketed = (address: string) => (address.includes(':') ? `[${address.replace(/%.*$/, '')}]` : address);
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The names a request's Host may carry: the address the server is bound to with its port (for a
 * loopback bind also localhost, 127.0.0.1 and [::1]; for 0.0.0.0 or :: every address of the
 * machine and its host name), and the operator's PHOTOWIRE_ALLOWED_HOSTS (`host` matches any
 * port, `host:port` that port only).
 */
export class HostPolicy {
  private readonly extra: HostName[];
  private cached: { names: Set<string>; at: number; key: string } | null = null;

  constructor(
    extra: readonly string[],
    /** The bound address (`server.address()`), read at each request: port 0 is known only after listen. */
    private readonly bound: () => AddressInfo | string | null,
  ) {
    this.extra = extra.map((e) => {
      const h = parseHostName(e);
      if (!h) throw new Error(`PHOTOWIRE_ALLOWED_HOSTS: ${JSON.stringify(e)} is not a host name or host:port`);
      return h;
    });
  }

  /** Whether a request carrying this Host header is for this server. */
  allows(header: string | undefined): boolean {
    const h = parseHostName(header);
    if (!h) return false;
    if (this.extra.some((e) => e.name === h.name && (e.port === null || e.port === (h.port ?? 80)))) return true;
    const addr = this.bound();
    if (addr === null || typeof addr === 'string') return LOOPBACK_NAMES.includes(h.name); // not listening on TCP (inject): in-process only
    if ((h.port ?? 80) !== addr.port) return false;
    if (this.names(addr, false).has(h.name)) return true;
    // A wildcard bind: the machine may have gained an address since the list was read.
    return isWildcard(addr.address) && this.names(addr, true).has(h.name);
  }

  private names(addr: AddressInfo, refresh: boolean): Set<string> {
    const now = Date.now();
    const key = addr.address;
    if (this.cached && this.cached.key === key && (!refresh || now - this.cached.at < INTERFACES_TTL_MS))
      return this.cached.names;
    const names = new Set<string>([bracketed(addr.address).toLowerCase()]);
    if (isLoopbackHost(addr.address) || isWildcard(addr.address)) for (const n of LOOPBACK_NAMES) names.add(n);
    if (isWildcard(addr.address)) {
      for (const list of Object.values(networkInterfaces()))
        for (const i of list ?? []) names.add(bracketed(i.address).toLowerCase());
      names.add(hostname().toLowerCase());
    }
    this.cached = { names, at: now, key };
    return names;
  }
}

function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '::0';
}

const FETCH_SITES = new Set(['same-origin', 'same-site', 'cross-site', 'none']);

/**
 * Why a request must be refused as cross-site, or null when it may go on: a safe method; a browser
 * saying `Sec-Fetch-Site: same-origin`; an `Origin` naming this server (its Host, or any name the
 * policy allows, for a proxy that rewrites Host); or neither header (not a browser).
 */
export function crossSiteRefusal(
  req: { method: string; headers: Record<string, string | string[] | undefined> },
  hosts: HostPolicy,
): string | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const site = one(req.headers['sec-fetch-site'])?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin') {
    return `the browser says this ${req.method} comes from ${FETCH_SITES.has(site) ? `a ${site} page` : 'an unknown place'} (Sec-Fetch-Site): only the desk's own page may change things`;
  }
  const origin = one(req.headers.origin);
  if (origin === undefined) return null;
  if (sameOrigin(origin, one(req.headers.host), hosts)) return null;
  return `a ${req.method} from a page of another origin (Origin: ${shownOrigin(origin)}): only the desk's own page may change things`;
}

function sameOrigin(origin: string, host: string | undefined, hosts: HostPolicy): boolean {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file:// page, a redirect) or garbage
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const h = parseHostName(host);
  const o = parseHostName(u.host);
  if (!o) return false;
  const defaultPort = u.protocol === 'https:' ? 443 : 80;
  if (h && h.name === o.name && (h.port ?? defaultPort) === (o.port ?? defaultPort)) return true;
  return hosts.allows(u.port === '' ? `${u.hostname}:${defaultPort}` : u.host);
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
/** An Origin in an error message: short and printable, never a way to smuggle text into a log line. */
const shownOrigin = (o: string) => JSON.stringify(o.slice(0, 100));
