import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadBoilerplateRules } from '../../../../src/core/captions/boilerplate';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { InputError } from '../../../../src/core/errors';
import { loadRightsRules } from '../../../../src/core/rights/rules';
import type { ImageProbe, ItemLogger, ItemPorts, RenditionManifest } from '../../../../src/app/items/ports';
import type { ItemJob } from '../../../../src/schemas/jobs';
import type { FeedItem } from '../../../../src/schemas/feedItem';
import type { CatalogRecord, RecordError } from '../../../../src/schemas/record';
import { WIRE_IMAGES } from '../../../helpers/testEnv';

/** In-memory fakes of every port of the item pipeline; each records what it was asked. */

export const rules = {
  creditRules: loadCreditRules(),
  boilerplate: loadBoilerplateRules(),
  rightsRules: loadRightsRules(),
};

export const photoBytes = (name: string): Buffer => readFileSync(path.join(WIRE_IMAGES, name));

export function job(item: Partial<FeedItem>, over: Partial<ItemJob> = {}): ItemJob {
  return {
    batchId: 'b1',
    itemId: 'b1-0001',
    index: 0,
    root: '/feeds/drop',
    item: {
      source: { file: '/feeds/drop/feed.csv', position: 0, format: 'csv' },
      captionRaw: '',
      iptc: {},
      image: null,
      ...item,
    },
    ...over,
  };
}

export interface Call {
  port: string;
  args: unknown[];
}

export class Fakes {
  readonly calls: Call[] = [];
  readonly files = new Map<string, Buffer>();
  readonly urls = new Map<string, Buffer | Error>();
  /** Objects the store holds, by key. */
  readonly objects = new Map<string, Buffer | string>();
  readonly manifests = new Map<string, RenditionManifest>();
  readonly marked: Array<{ record: CatalogRecord; failure: { error: RecordError; attempts: number } | null }> = [];
  readonly warnings: string[] = [];
  readonly logs: Array<{ level: string; obj: object; msg: string }> = [];
  probeResult: ImageProbe | Error = { format: 'jpeg', width: 640, height: 480, xmp: null, iptc: null };
  /** Thrown by catalog.markItems, when set. */
  markFault: Error | null = null;
  /** Thrown by the store's next write, when set. */
  storeFault: Error | null = null;
  private t = 0;

  private note(port: string, ...args: unknown[]): void {
    this.calls.push({ port, args });
  }

  called(port: string): Call[] {
    return this.calls.filter((c) => c.port === port);
  }

  ports(): ItemPorts {
    const logger = (): ItemLogger => ({
      info: (obj, msg) => this.logs.push({ level: 'info', obj, msg }),
      warn: (obj, msg) => this.logs.push({ level: 'warn', obj, msg }),
      error: (obj, msg) => this.logs.push({ level: 'error', obj, msg }),
      child: () => logger(),
    });
    const write = (port: string, key: string, body: Buffer | string) => {
      this.note(port, key);
      if (this.storeFault) throw this.storeFault;
      if (!this.objects.has(key)) this.objects.set(key, body);
    };
    return {
      source: {
        readFile: async (root, file) => {
          this.note('source.readFile', root, file);
          const b = this.files.get(file);
          if (!b) throw new InputError('IMAGE_NOT_FOUND', `${file}: no such file`);
          return b;
        },
        readStored: async (key) => {
          this.note('source.readStored', key);
          const b = this.files.get(key);
          if (!b) throw new InputError('IMAGE_NOT_FOUND', `storage key ${key}: no such object`);
          return b;
        },
        fetch: async (url) => {
          this.note('source.fetch', url);
          const b = this.urls.get(url);
          if (b instanceof Error) throw b;
          if (!b) throw new Error(`no fake for ${url}`);
          return b;
        },
      },
      codec: {
        probe: async (bytes, label) => {
          this.note('codec.probe', label);
          if (this.probeResult instanceof Error) throw this.probeResult;
          return this.probeResult;
        },
        render: async (_bytes, label, plan, previewRights) => {
          this.note('codec.render', label, plan, previewRights);
          return {
            renditions: plan.renditions.map((r) => ({
              name: r.name,
              data: Buffer.from(`${r.name} of ${label}`),
              width: r.box,
              height: Math.round((r.box * 3) / 4),
              format: r.format,
            })),
            gray9x8: new Uint8Array(72).map((_, i) => (i * 37) % 256),
          };
        },
      },
      store: {
        readManifest: async (sha256) => {
          this.note('store.readManifest', sha256);
          return this.manifests.get(sha256) ?? null;
        },
        putOriginal: async (sha256, ext, bytes) => {
          const key = `originals/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}.${ext}`;
          write('store.putOriginal', key, bytes);
          return key;
        },
        putRendition: async (sha256, file, data) => {
          const key = `renditions/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}/${file}`;
          write('store.putRendition', key, data);
          return { key, bytes: data.length };
        },
        putManifest: async (manifest, opts) => {
          await opts?.beforeCommit?.();
          write('store.putManifest', manifest.sha256, JSON.stringify(manifest));
          if (!this.manifests.has(manifest.sha256)) {
            this.manifests.set(manifest.sha256, manifest);
            return { manifest, created: true };
          }
          return { manifest: this.manifests.get(manifest.sha256)!, created: false };
        },
      },
      photos: {
        register: async (p) => {
          this.note('photos.register', p);
          return { id: p.sha256, version: 1, previousSha256: null, previousItemId: null };
        },
      },
      catalog: {
        addWarning: async (batchId, w) => {
          this.note('catalog.addWarning', batchId, w);
          this.warnings.push(w);
        },
        markItem: async (record, failure) => {
          this.note('catalog.markItem', record.id, failure);
          this.marked.push({ record, failure });
        },
        markItems: async (batchId, entries) => {
          this.note(
            'catalog.markItems',
            batchId,
            entries.map((e) => e.record.id),
          );
          if (this.markFault) throw this.markFault;
          const fresh = entries.filter((e) => !this.marked.some((m) => m.record.id === e.record.id)).length;
          this.marked.push(...entries);
          return fresh;
        },
        itemStates: async (batchId, itemIds) => {
          this.note('catalog.itemStates', batchId, itemIds);
          const last = new Map(
            this.marked.map((m) => [m.record.id, m.failure ? ('failed' as const) : ('ok' as const)]),
          );
          return itemIds.map((id) => last.get(id) ?? null);
        },
      },
      kills: {
        settle: async (record, notice) => {
          this.note('kills.settle', record.id, notice);
          return record;
        },
        settleMany: async (entries) => {
          this.note(
            'kills.settleMany',
            entries.map((e) => e.record.id),
          );
          return entries.map((e) => e.record);
        },
      },
      clock: { now: () => new Date('2026-12-01T12:00:00.000Z'), ms: () => (this.t += 5) },
      logger: logger(),
      settings: rules,
      pause: async (point, itemId) => this.note('pause', point, itemId),
    };
  }
}
