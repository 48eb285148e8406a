import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { redisCluster } from '../helpers/services';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { waitForBatches } from '../../src/cli/waitForBatches';
import { KillStore } from '../../src/adapters/redis/killStore';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { BROKEN_NAME, DESK_PHOTOS, repairPhoto, writeDeskPhotoFeed } from '../browser/deskFixture';

/**
 * The pipeline through a three-master Redis Cluster (scripts/services/redis-cluster.sh):
 * ingest a feed of real wire fixtures (test/fixtures/real-wire/images) and the desk's photos, retry
 * a failed item, caption clusters, photo versions (a resend), a kill, the desk API reading the
 * batch: the same results as the same steps on the single Redis.
 */
const cluster = redisCluster();
const REAL = path.join(__dirname, '..', 'fixtures', 'real-wire', 'images');

interface Outcome {
  batchId: string;
  versions: Record<string, number[]>;
  ledger: unknown;
  records: unknown[];
  retry: unknown;
  afterRetry: unknown;
  resend: unknown;
  kill: unknown;
  api: unknown;
}

/** Both runs read the same folders (a batch id derives from the feed's path and bytes), written afresh. */
async function scenario(overrides: Record<string, string>, feed: string, resendDir: string): Promise<Outcome> {
  let desk: Desk | null = null;
  try {
    await writeDeskPhotoFeed(feed);
    for (const f of readdirSync(REAL).filter((n) => /\.(jpe?g|png|tiff?)$/i.test(n)))
      copyFileSync(path.join(REAL, f), path.join(feed, `real-${f}`));
    desk = await startDesk({ overrides });
    const d = desk;
    const [o] = await d.p.ingest([feed], 120_000);
    const batchId = o.batchId!;
    const catalog = d.p.rt.ctx.catalog;
    const ledger = await catalog.getBatch(batchId);

    // Retry the broken item after repairing it: it succeeds, through the retry's flow in the cluster.
    const broken = (await catalog.getFailed(batchId)).map((f) => f.itemId);
    writeFileSync(path.join(feed, BROKEN_NAME), await repairPhoto());
    const res = await d.fetch(`/api/items/${broken[0]}/retry`, { method: 'POST' });
    const retry = { status: res.status, body: await res.json() };
    await waitForBatches(d.p.rt, [batchId], { progress: false, timeoutMs: 60_000 });
    const afterRetry = await catalog.getBatch(batchId);

    // A resend: the first desk photo's bytes again with a changed caption -> version 2 of the same photo.
    const again = insertIptcIntoJpeg(
      await syntheticPhoto({ width: 1200, height: 800, seed: 11 }),
      buildIimBlock(
        {
          caption:
            'Growers inspect tulip bulbs near Lisse, the Netherlands, 30 October 2026. Corrects the date. EPA-EFE/KOEN VAN WEEL',
          credit: 'EPA-EFE',
        },
        { utf8: true },
      ),
    );
    writeFileSync(path.join(resendDir, 'tulips-again.jpg'), again);
    const [o2] = await d.p.ingest([resendDir], 60_000);
    const [resent] = await catalog.getRecords(o2.batchId!);

    // A kill of the first photo reaches both versions.
    const records = await catalog.getRecords(batchId);
    const tulips = records.find((r) => r.source.file.endsWith('01-tulips.jpg'))!;
    const killRes = await d.fetch('/api/kills', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: tulips.id, reason: 'wrong date' }),
    });
    const killBody = (await killRes.json()) as { kill: { items: string[] } };
    const status = await new KillStore(d.p.rt.redis, d.p.config.prefix).statusOf([tulips.id, resent.id]);

    const api = await (await d.fetch(`/api/batches/${batchId}`)).json();
    const page = (await (await d.fetch(`/api/batches/${batchId}/records`)).json()) as {
      records?: Array<{ id: string; status?: unknown }>;
    };
    return {
      batchId,
      ledger: pick(ledger, ['id', 'state', 'expected', 'ok', 'failed', 'format']),
      records: records.map((r) => ({
        id: r.id,
        file: r.source.file,
        error: r.error?.code ?? null,
        caption: r.caption,
        cluster: r.cluster ? { id: r.cluster.id, canonicalId: r.cluster.canonicalId } : null,
        // Which copy of one photo got which version follows the order the items finished: seven of
        // the real-wire files are ExifTool's one 8x8 test picture with other metadata, so that order
        // differs between two runs on the same Redis. Compared: the photo, and its versions as a set.
        photo: r.photo ? r.photo.id : null,
        image: r.image ? { sha256: r.image.sha256, original: r.image.original } : null,
      })),
      versions: versionsByPhoto(records),
      retry: { status: retry.status, retried: (retry.body as { retried: string[] }).retried },
      afterRetry: pick(afterRetry, ['state', 'ok', 'failed']),
      resend: {
        photo: resent.photo,
        probableResend: resent.probableResend,
        cluster: resent.cluster?.canonicalId ?? null,
      },
      kill: {
        status: killRes.status,
        items: [...killBody.kill.items].sort(),
        tulips: status.get(tulips.id)?.status,
        resent: status.get(resent.id)?.status,
      },
      api: {
        ...pick(api, ['id', 'state', 'expected', 'ok', 'failed']),
        records: (page.records ?? []).map((r) => r.id),
      },
    };
  } finally {
    await desk?.close();
  }
}

/** Each photo id with the versions its records got, sorted. */
function versionsByPhoto(records: Array<{ photo?: { id: string; version: number } | null }>): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const r of records) if (r.photo) (out[r.photo.id] ??= []).push(r.photo.version);
  for (const v of Object.values(out)) v.sort((a, b) => a - b);
  return out;
}

function pick(o: unknown, keys: string[]): Record<string, unknown> {
  const src = (o ?? {}) as Record<string, unknown>;
  return Object.fromEntries(keys.map((k) => [k, src[k]]));
}

describe('the pipeline on a three-master Redis Cluster gives what it gives on a single Redis', () => {
  beforeAll(cluster.start, 300_000);
  afterAll(cluster.stop);

  it('ingest, retry, clusters, photo versions, a kill and the desk API', async () => {
    const nodes = cluster.env().REDIS_CLUSTER_NODES;
    const feed = makeTmpDir('clusterfeed');
    const resendDir = makeTmpDir('clusterresend');
    let onCluster: Outcome, single: Outcome;
    try {
      onCluster = await scenario({ REDIS_URL: '', REDIS_CLUSTER_NODES: nodes }, feed, resendDir);
      single = await scenario({}, feed, resendDir);
    } finally {
      removeDir(feed);
      removeDir(resendDir);
    }

    expect(onCluster).toEqual(single);
    // and what they are
    const failed = (onCluster.ledger as { failed: number }).failed;
    // the desk's truncated photo, and the real-wire file sharp cannot decode
    // every file of the folder is one item: the desk's photos, its broken one and each real-wire picture
    const items = DESK_PHOTOS.length + 1 + readdirSync(REAL).filter((n) => /\.(jpe?g|png|tiff?)$/i.test(n)).length;
    expect(onCluster.ledger).toMatchObject({ state: 'done', failed: 2, expected: items });
    expect(onCluster.retry).toMatchObject({ status: 202, retried: [`${onCluster.batchId}-0006`] });
    expect(onCluster.afterRetry).toMatchObject({ state: 'done', failed: failed - 1 });
    expect(
      (onCluster.records as Array<{ cluster: { canonicalId: string } | null }>).filter((r) => r.cluster).length,
    ).toBeGreaterThan(0);
    expect(onCluster.resend).toMatchObject({ photo: { version: 2 } });
    // ExifTool's copies of one picture (five with the same compressed pixels): one photo, its
    // versions 1 to n without a gap or a double, on both
    const versions = Object.values(onCluster.versions);
    expect(Math.max(...versions.map((v) => v.length))).toBeGreaterThanOrEqual(5);
    for (const v of versions) expect(v).toEqual(v.map((_, i) => i + 1));
    expect(onCluster.kill).toMatchObject({ status: 201, tulips: 'killed', resent: 'killed' });
    expect(onCluster.api).toMatchObject({ id: onCluster.batchId, state: 'done', expected: items });
    expect((onCluster.api as { records: string[] }).records).toHaveLength(items);
  }, 600_000);
});
