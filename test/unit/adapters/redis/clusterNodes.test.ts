import { clusterUrl, parseClusterUrl, parseRedisClusterNodes } from '../../../../src/core/redisClusterNodes';
import { describeRedis } from '../../../../src/adapters/redis/ensureRedis';
import { loadConfig } from '../../../../src/config';

describe('REDIS_CLUSTER_NODES', () => {
  it('reads host:port lists and URL entries with the cluster credentials and TLS', () => {
    expect(parseRedisClusterNodes('10.0.0.1:7000, 10.0.0.2:7001')).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
      tls: false,
    });
    expect(parseRedisClusterNodes('rediss://app:s3cr%40t@r1.example:6380,r2.example:6380')).toEqual({
      nodes: [
        { host: 'r1.example', port: 6380 },
        { host: 'r2.example', port: 6380 },
      ],
      username: 'app',
      password: 's3cr@t',
      tls: true,
    });
  });

  it('names the wrong entry, never its password', () => {
    expect(() => parseRedisClusterNodes('a:1,b')).toThrow('entry 2: expected host:port');
    expect(() => parseRedisClusterNodes('redis://:one@a:1,redis://:two@b:2')).toThrow(/entry 2: credentials differ/);
    expect(() => parseRedisClusterNodes('redis://a:1,rediss://b:2')).toThrow(/TLS is for all nodes or none/);
    expect(() => parseRedisClusterNodes('a:70000')).toThrow(/out of range/);
    let message = '';
    try {
      loadConfig({ REDIS_CLUSTER_NODES: 'redis://:hunter2hunter2@a:1,nope' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('REDIS_CLUSTER_NODES=');
    expect(message).toContain('entry 2');
    expect(message).not.toContain('hunter2hunter2');
  });

  it('round-trips through the handle URL that createRedis opens as a Cluster; described without the password', () => {
    const c = parseRedisClusterNodes('redis://u:p%3Aw@127.0.0.1:7000,127.0.0.1:7001');
    const url = clusterUrl(c);
    expect(url).toBe('redis+cluster://u:p%3Aw@127.0.0.1:7000,127.0.0.1:7001');
    expect(parseClusterUrl(url)).toEqual(c);
    expect(parseClusterUrl('redis://127.0.0.1:6379')).toBeNull();
    expect(describeRedis({ url, private: false })).toBe('Redis Cluster at 127.0.0.1:7000,127.0.0.1:7001');
  });
});
