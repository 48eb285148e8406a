/**
 * REDIS_CLUSTER_NODES: the seed nodes of a Redis Cluster, `host:port,host:port,...`.
 * An entry may also be a URL (`redis://user:password@host:port`, `rediss://...` for TLS), as
 * REDIS_URL is: credentials and TLS are those of the URL entries, which must agree; entries without
 * a scheme take them from the others. Pure: no I/O.
 */
export interface RedisClusterNodes {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

/** Parse the list; throws an Error whose message says which entry is wrong (never its password). */
export function parseRedisClusterNodes(text: string): RedisClusterNodes {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (entries.length === 0) throw new Error('name at least one node as host:port');
  const out: RedisClusterNodes = { nodes: [], tls: false };
  let scheme: string | null = null;
  let creds: string | null = null;
  entries.forEach((entry, i) => {
    const at = `entry ${i + 1}`;
    let hostPort = entry;
    const m = /^(rediss?):\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/.exec(entry);
    if (/^[a-z]+:\/\//i.test(entry)) {
      if (!m) throw new Error(`${at}: a URL entry must be redis://[user:password@]host:port or rediss://...`);
      if (scheme !== null && scheme !== m[1])
        throw new Error(`${at}: mixes redis:// and rediss:// (TLS is for all nodes or none)`);
      scheme = m[1];
      const c = m[2] ?? '';
      if (creds !== null && creds !== c)
        throw new Error(`${at}: credentials differ from an earlier entry's (one user and password for the cluster)`);
      creds = c;
      hostPort = m[3];
    }
    const hp = /^(\[[0-9a-f:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/i.exec(hostPort);
    if (!hp) throw new Error(`${at}: expected host:port`);
    const port = Number(hp[2]);
    if (port < 1 || port > 65535) throw new Error(`${at}: port ${port} is out of range`);
    out.nodes.push({ host: hp[1].replace(/^\[|\]$/g, ''), port });
  });
  out.tls = scheme === 'rediss';
  if (creds) {
    const colon = (creds as string).indexOf(':');
    const user = decodeURIComponent(colon < 0 ? '' : (creds as string).slice(0, colon));
    const pass = decodeURIComponent(colon < 0 ? (creds as string) : (creds as string).slice(colon + 1));
    if (user) out.username = user;
    if (pass) out.password = pass;
  }
  return out;
}

/**
 * The cluster as one URL, `redis+cluster://[user:password@]host:port,host:port` (`rediss+cluster://`
 * for TLS): what a RedisHandle carries, so every `createRedis(handle.url)` opens a Cluster client.
 * Printed only through maskUrlCredentials, as REDIS_URL is.
 */
export function clusterUrl(c: RedisClusterNodes): string {
  const creds =
    c.password !== undefined || c.username !== undefined
      ? `${encodeURIComponent(c.username ?? '')}:${encodeURIComponent(c.password ?? '')}@`
      : '';
  const hosts = c.nodes.map((n) => (n.host.includes(':') ? `[${n.host}]:${n.port}` : `${n.host}:${n.port}`)).join(',');
  return `${c.tls ? 'rediss' : 'redis'}+cluster://${creds}${hosts}`;
}

/** The cluster a `clusterUrl` names, or null for any other URL. */
export function parseClusterUrl(url: string): RedisClusterNodes | null {
  const m = /^(rediss?)\+cluster:\/\/(?:(.*)@)?([^@]+)$/.exec(url);
  if (!m) return null;
  const auth = m[2] !== undefined ? `${m[2]}@` : '';
  return parseRedisClusterNodes(
    m[3]
      .split(',')
      .map((hp) => `${m[1]}://${auth}${hp}`)
      .join(','),
  );
}
