import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';

/**
 * docker-compose.yml for several machines (issue 13): every photowire service stores through S3
 * (MinIO, its bucket made by a minio/mc one-shot before they start) and none shares a photowire
 * data volume. Parsed with Python's PyYAML (merge keys resolved), as `docker compose config`
 * would read it; there is no docker on the test machines.
 */
const FILE = path.resolve(__dirname, '../../docker-compose.yml');
const PY = 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))';
const hasYaml = spawnSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0;
if (!hasYaml) process.stderr.write('\ntests: SKIPPED docker-compose.yml checks: python3 with PyYAML (python3-yaml) is not available\n');
const suite = hasYaml ? describe : describe.skip;

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
}

suite('docker-compose.yml', () => {
  const doc = JSON.parse(execFileSync('python3', ['-c', PY, FILE], { encoding: 'utf8' })) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
  const services = Object.entries(doc.services);
  const photowire = services.filter(([, s]) => s.build !== undefined);
  const defaultOf = (v: string) => /^\$\{[A-Z0-9_]+:-(.*)\}$/.exec(v)?.[1] ?? v;

  it('runs the workers, watcher, scheduler and desk from the image', () => {
    expect(photowire.map(([n]) => n).sort()).toEqual(['scheduler', 'serve', 'watch', 'worker']);
  });

  it('stores through S3 on MinIO, with a bucket made before any photowire process starts', () => {
    const minio = doc.services.minio;
    expect(minio.image).toMatch(/^minio\/minio:/);
    expect(minio.profiles).toBeUndefined();
    const init = doc.services['minio-bucket'];
    expect(init.image).toMatch(/^minio\/mc:/);
    expect(init.entrypoint!.join(' ')).toContain('mc mb --ignore-existing');
    const bucket = defaultOf(init.environment!.S3_BUCKET);
    for (const [name, s] of photowire) {
      const env = s.environment!;
      expect([name, defaultOf(env.PHOTOWIRE_STORAGE)]).toEqual([name, `s3://${bucket}/prod`]);
      expect([name, defaultOf(env.S3_ENDPOINT)]).toEqual([name, 'http://minio:9000']);
      expect([name, defaultOf(env.S3_FORCE_PATH_STYLE)]).toEqual([name, 'true']);
      // credentials for the standard AWS chain, never written in the file
      expect(env.AWS_ACCESS_KEY_ID).toMatch(/^\$\{S3_ACCESS_KEY/);
      expect(env.AWS_SECRET_ACCESS_KEY).toMatch(/^\$\{S3_SECRET_KEY:\?/);
      expect([name, s.depends_on?.['minio-bucket']?.condition]).toEqual([name, 'service_completed_successfully']);
    }
  });

  it('mounts no data volume shared between services, and none at a photowire data directory', () => {
    const users = new Map<string, string[]>();
    for (const [name, s] of services) {
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0];
        if (/^[a-z0-9][a-z0-9_.-]*$/i.test(source)) users.set(source, [...(users.get(source) ?? []), name]);
      }
    }
    // Named volumes: each belongs to one service (Redis's, MinIO's).
    for (const [vol, by] of users) expect([vol, by]).toEqual([vol, [by[0]]]);
    expect(Object.keys(doc.volumes ?? {}).sort()).toEqual(['minio-data', 'redis-data']);
    for (const [name, s] of photowire) {
      const dataDir = s.environment!.PHOTOWIRE_DATA_DIR;
      const targets = (s.volumes ?? []).map((v) => v.split(':')[1]);
      expect([name, targets.filter((t) => t === dataDir || t.startsWith(`${dataDir}/`))]).toEqual([name, []]);
    }
  });
});
