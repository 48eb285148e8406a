import { InputError } from '../../core/errors';

/**
 * PHOTOWIRE_FETCH_ALLOW: hosts photowire may download from. An entry is a host name
 * (`feeds.example.com`, any port), a host and port (`127.0.0.1:8080`), or `*.example.com`
 * (any sub-domain, not the domain itself). Nothing is allowed by default: a feed naming an
 * image on an arbitrary host must not make photowire fetch it (think internal addresses).
 */
export function hostAllowed(url: URL, allow: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (!entry) return false;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(entry);
    if (!m) return false;
    const [, entryHost, entryPort] = m;
    if (entryPort !== undefined && entryPort !== port) return false;
    if (entryHost.startsWith('*.')) return host.endsWith(entryHost.slice(1)) && host.length > entryHost.length - 1;
    return host === entryHost;
  });
}

/** Parse and check a URL before any connection is made; a refusal names the URL and the reason. */
export function checkFetchAllowed(raw: string, allow: string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InputError('FETCH_REFUSED', `${raw}: not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError('FETCH_REFUSED', `${raw}: only http and https URLs are fetched`);
  }
  if (!hostAllowed(url, allow)) {
    const hint =
      allow.length === 0 ? 'PHOTOWIRE_FETCH_ALLOW is empty, so no host is allowed' : `allowed: ${allow.join(', ')}`;
    throw new InputError('FETCH_REFUSED', `${raw}: host ${url.host} is not in PHOTOWIRE_FETCH_ALLOW (${hint})`);
  }
  return url;
}
