import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * docker-compose.yml for several machines: every photowire service stores through S3
 * (MinIO, its bucket made by a minio/mc one-shot before they start) and none shares a photowire
 * data volume. Parsed with Python's PyYAML (merge keys resolved), as `docker compose config`
 * would read it; there is no docker on the test machines.
 */
const FILE = path.resolve(__dirname, '../../docker-compose.yml');
const PY = 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))';
const hasYaml = spawnSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0;
if (!hasYaml)
  process.stderr.write(
    '\ntests: SKIPPED docker-compose.yml checks: python3 with PyYAML (python3-yaml) is not available\n',
  );
const suite = hasYaml ? describe : describe.skip;

interface Service {
  image?: string;
  user?: string;
  restart?: string;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: string };
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
}

suite('docker-compose.yml', () => {
  const doc = JSON.parse(execFileSync('python3', ['-c', PY, FILE], { encoding: 'utf8' })) as {
    services: Record<string, Service>;
    volumes?: Record<string, unknown>;
  };
  const services = Object.entries(doc.services);
  // The long-running photowire services (built from the image; `inboxes` is a one-shot of it).
  const photowire = services.filter(([, s]) => s.build !== undefined && s.restart !== 'no');
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

  it("gives the inboxes to the image's node user before any photowire service starts (a missing host folder is made by Docker as root)", () => {
    const init = doc.services.inboxes;
    expect(init.build).toBeDefined();
    expect(init.user).toBe('0:0');
    expect(init.restart).toBe('no');
    expect(init.entrypoint!.join(' ')).toContain('chown node:node /drop /import');
    expect(init.volumes!.map((v) => v.slice(v.lastIndexOf(':') + 1)).sort()).toEqual(['/drop', '/import']);
    for (const [name, s] of photowire)
      expect([name, s.depends_on?.inboxes?.condition]).toEqual([name, 'service_completed_successfully']);
  });

  it('checks each photowire service with `photowire health`', () => {
    for (const [name, s] of photowire)
      expect([name, s.healthcheck?.test]).toEqual([
        name,
        ['CMD', '/app/bin/photowire.js', 'health', '--timeout-ms', '5000'],
      ]);
  });
});

describe('Dockerfile and .dockerignore', () => {
  const root = path.resolve(__dirname, '../..');
  const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('builds and runs on Node 24 LTS (Node 20 is end of life)', () => {
    expect([...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1])).toEqual([
      'node:24-bookworm-slim',
      'node:24-bookworm-slim',
    ]);
  });

  it('makes /drop and /import for the node user it runs as', () => {
    expect(dockerfile).toMatch(/^RUN mkdir -p \/data \/drop \/import && chown node:node \/data \/drop \/import$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('keeps node_modules, the data folder, the git history and build output out of the build context', () => {
    expect(ignored).toEqual(
      expect.arrayContaining(['node_modules', 'data', '.git', 'dist', 'dist-bench', 'test-output', '.env']),
    );
    // What the Dockerfile copies is not ignored.
    for (const copied of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
      'bin',
      'web',
    ])
      expect(ignored).not.toContain(copied);
  });
});
