import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import type { Runtime } from '../../src/app/runtime';
import type { StoragePort } from '../../src/adapters/storage/storagePort';
import type { CatalogRecord } from '../../src/schemas/record';
import { scaledMs } from './deadline';

export interface Integrity {
  records: CatalogRecord[];
  /** Every cluster member of the batch's items, as the caption index has them. */
  members: string[];
}

/**
 * "Nothing lost, nothing doubled", checked from every place a user can look: the ledger, the
 * records in Redis, records.ndjson, the caption clusters, and the storage (no temp file left in
 * the data directory, every rendition set whole, every rendition a readable image of the recorded
 * size). Read through the runtime's storage port, so the same check holds on the local folder and
 * on S3 (the test matrix, test/helpers/testEnv.ts).
 */
export async function expectBatchWhole(
  rt: Runtime,
  batchId: string,
  expected: { items: number; ok: number },
): Promise<Integrity> {
  const storage = rt.ctx.storage;
  const ledger = await rt.ctx.catalog.getBatch(batchId);
  expect(ledger).toMatchObject({
    state: 'done',
    expected: expected.items,
    ok: expected.ok,
    failed: expected.items - expected.ok,
  });

  const records = await rt.ctx.catalog.getRecords(batchId);
  // Records are keyed by their batch index (dense), not by their place in the feed.
  expect(records.map((r) => r.index)).toEqual([...Array(expected.items).keys()]);
  expect(new Set(records.map((r) => r.id)).size).toBe(expected.items);

  const exportedBody = await storage.get(`batches/${batchId}/records.ndjson`);
  expect([batchId, exportedBody !== null]).toEqual([batchId, true]);
  const exported = exportedBody!.toString('utf8').trim().split('\n');
  const exportedIds = exported.map((l) => (JSON.parse(l) as CatalogRecord).id);
  expect(exportedIds).toEqual(records.map((r) => r.id));
  expect(exported.map((l) => (JSON.parse(l) as CatalogRecord).error?.code ?? null)).toEqual(
    records.map((r) => r.error?.code ?? null),
  );

  // Each item is a member of exactly one cluster, once, and it is the cluster its record names.
  const withCluster = records.filter((r) => r.cluster);
  const clusters = await rt.ctx.captions.listClusters({ itemIds: records.map((r) => r.id) });
  const members = clusters.flatMap((c) => c.members.map((m) => m.itemId)).filter((id) => id.startsWith(`${batchId}-`));
  expect(members.length).toBe(new Set(members).size);
  expect([...members].sort()).toEqual(withCluster.map((r) => r.id).sort());
  for (const r of withCluster) {
    const c = clusters.find((x) => x.members.some((m) => m.itemId === r.id));
    expect(c?.id).toBe(r.cluster!.id);
  }

  // summary.json is written just after the ledger closes (docs/RELIABILITY.md, "Not covered"): give
  // that last write a moment to land before the temp folder must be empty.
  await waitForTempDrained(rt.config.dataDir, 5000);
  await expectStorageClean(storage, rt.config.dataDir);
  // Each distinct object once: many records may share a photo (content-addressed).
  const renditions = new Map(records.flatMap((r) => r.renditions.map((x) => [x.path, x] as const)));
  for (const rend of renditions.values()) {
    const body = await storage.get(rend.path);
    const meta = body ? await sharp(body).metadata() : { width: undefined, height: undefined };
    expect([rend.path, meta.width, meta.height]).toEqual([rend.path, rend.width, rend.height]);
  }
  for (const original of new Set(records.flatMap((r) => (r.image ? [r.image.original] : [])))) {
    expect([original, (await storage.head(original)) !== null]).toEqual([original, true]);
  }
  return { records, members };
}

/** Wait (bounded) until data/tmp holds nothing; what is still there after the time is for expectDataDirClean to report. */
export async function waitForTempDrained(dataDir: string, timeoutMs: number): Promise<void> {
  const tmp = path.join(dataDir, 'tmp');
  const deadline = Date.now() + scaledMs(timeoutMs); // scaled by the load (test/helpers/deadline.ts)
  while (existsSync(tmp) && readdirSync(tmp).length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
}

/** No temp file left in data/tmp, and every renditions folder has renditions.json and each file it lists. */
export function expectDataDirClean(dataDir: string): void {
  const tmp = path.join(dataDir, 'tmp');
  expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  for (const dir of renditionDirs(dataDir)) {
    const manifest = path.join(dir, 'renditions.json');
    expect({ dir, whole: existsSync(manifest) }).toEqual({ dir, whole: true });
    const stored = JSON.parse(readFileSync(manifest, 'utf8')) as { renditions: Array<{ path: string; bytes: number }> };
    for (const r of stored.renditions) expect(statSync(path.join(dataDir, r.path)).size).toBe(r.bytes);
  }
}

/** The same through the storage port: no temp file in data/tmp, every rendition set (renditions/ab/cd/<sha>/) has its manifest and each object it lists, of the listed size. */
export async function expectStorageClean(storage: StoragePort, dataDir: string): Promise<void> {
  const tmp = path.join(dataDir, 'tmp');
  expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  const sets = await renditionSets(storage);
  for (const [dir, names] of sets) {
    expect({ dir, whole: names.has('renditions.json') }).toEqual({ dir, whole: true });
    const stored = JSON.parse((await storage.get(`${dir}renditions.json`))!.toString('utf8')) as {
      renditions: Array<{ path: string; bytes: number }>;
    };
    for (const r of stored.renditions) expect([r.path, (await storage.head(r.path))?.size]).toEqual([r.path, r.bytes]);
  }
}

/** data/renditions/ab/cd/<sha256> folders. */
export function renditionDirs(dataDir: string): string[] {
  const root = path.join(dataDir, 'renditions');
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const a of readdirSync(root))
    for (const b of readdirSync(path.join(root, a)))
      for (const sha of readdirSync(path.join(root, a, b))) out.push(path.join(root, a, b, sha));
  return out;
}

/** The storage's rendition sets: `renditions/ab/cd/<sha256>/` and the names of the objects in each. */
export async function renditionSets(storage: StoragePort): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for await (const o of storage.list('renditions/')) {
    const i = o.key.lastIndexOf('/');
    const dir = o.key.slice(0, i + 1);
    const names = out.get(dir) ?? new Set<string>();
    names.add(o.key.slice(i + 1));
    out.set(dir, names);
  }
  return out;
}
