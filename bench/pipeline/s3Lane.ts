/**
 * The S3 lane of the pipeline bench: a Ceph RADOS Gateway started by the project's own
 * scripts/services/ceph-rgw.sh (or the one S3_ENDPOINT + AWS keys name), one bucket for the
 * bench, and a fresh key prefix per run, emptied after it (the RGW's OSD keeps objects in memory).
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { repoRoot } from '../common/paths';

export type StorageLane = 'local' | 's3';

export interface S3Service {
  /** The variables each `photowire run` of the s3 lane gets, plus PHOTOWIRE_STORAGE per run. */
  env: Record<string, string>;
  bucket: string;
  /** Milliseconds the gateway took to start (0: reused). */
  startMs: number;
  /** Where it came from, for the report. */
  origin: string;
  /**
   * CPU seconds the gateway's daemons (radosgw, the OSD, the monitor) have used so far, from
   * /proc/<pid>/stat; null when reused (not ours to watch) or unreadable. They share the cores with
   * photowire here, which a real object store would not.
   */
  serverCpuS(): number | null;
  /** Delete every object under prefix/ (after a run). */
  empty(prefix: string): Promise<number>;
  stop(): Promise<void>;
}

function script(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [path.join(repoRoot(), 'scripts/services/ceph-rgw.sh'), ...args],
      { env, timeout: timeoutMs, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => {
        if (err)
          reject(new Error(`ceph-rgw.sh ${args.join(' ')} failed: ${err.message}\n${String(stderr).slice(-1500)}`));
        else resolve(stdout);
      },
    );
  });
}

/**
 * Start (or reuse) the gateway and make the bench's bucket. The OSD's memory cap is raised to
 * `memstoreBytes` (the default 1 GiB holds about 80 originals of 24 MP with their renditions).
 */
export async function startS3(opts: { memstoreBytes: number; log: (s: string) => void }): Promise<S3Service> {
  const e = process.env;
  let vars: Record<string, string>;
  let dir: string | null = null;
  let startMs = 0;
  let origin: string;
  if (e.S3_ENDPOINT && e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY) {
    vars = {
      S3_ENDPOINT: e.S3_ENDPOINT,
      S3_REGION: e.S3_REGION || 'us-east-1',
      S3_FORCE_PATH_STYLE: e.S3_FORCE_PATH_STYLE || 'true',
      AWS_ACCESS_KEY_ID: e.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: e.AWS_SECRET_ACCESS_KEY,
    };
    origin = `S3_ENDPOINT ${e.S3_ENDPOINT} (reused)`;
  } else {
    const t0 = Date.now();
    const out = await script(['start'], { ...e, MEMSTORE_BYTES: String(opts.memstoreBytes) }, 600_000);
    startMs = Date.now() - t0;
    vars = {};
    for (const line of out.split('\n')) {
      const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      if (m) vars[m[1]!] = m[2]!;
    }
    dir = vars.CEPH_RGW_DIR ?? null;
    delete vars.CEPH_RGW_DIR;
    for (const k of ['S3_ENDPOINT', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'])
      if (!vars[k]) throw new Error(`ceph-rgw.sh start printed no ${k}`);
    origin = `Ceph RGW from scripts/services/ceph-rgw.sh at ${vars.S3_ENDPOINT} (memstore ${(opts.memstoreBytes / 2 ** 30).toFixed(1)} GiB), started in ${(startMs / 1000).toFixed(1)} s`;
  }
  const client = new S3Client({
    endpoint: vars.S3_ENDPOINT,
    region: vars.S3_REGION ?? 'us-east-1',
    forcePathStyle: vars.S3_FORCE_PATH_STYLE !== 'false',
    credentials: { accessKeyId: vars.AWS_ACCESS_KEY_ID!, secretAccessKey: vars.AWS_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = `pwbench-${process.pid}-${Date.now().toString(36)}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  opts.log(`  S3 lane: ${origin}; bucket ${bucket}`);

  const empty = async (prefix: string): Promise<number> => {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({
          Bucket: bucket,
          Prefix: prefix ? `${prefix}/` : undefined,
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length)
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
      n += keys.length;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return n;
  };

  const pids = dir
    ? ['rgw', 'osd', 'mon'].map((n) => Number(fs.readFileSync(path.join(dir!, `${n}.pid`), 'utf8').trim()))
    : [];
  const tick = 100; // USER_HZ on Linux
  const serverCpuS = (): number | null => {
    if (!pids.length) return null;
    try {
      return pids.reduce((sum, pid) => {
        const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const after = f.slice(f.lastIndexOf(')') + 2).split(' ');
        return sum + (Number(after[11]) + Number(after[12])) / tick;
      }, 0);
    } catch {
      return null;
    }
  };

  return {
    env: vars,
    serverCpuS,
    bucket,
    startMs,
    origin,
    empty,
    async stop() {
      try {
        await empty('');
        await client.send(new DeleteBucketCommand({ Bucket: bucket }));
      } catch {
        /* the gateway is stopped next anyway */
      }
      client.destroy();
      if (dir) await script(['stop', dir], { ...e, STOP_FAST: '1' }, 60_000);
    },
  };
}
