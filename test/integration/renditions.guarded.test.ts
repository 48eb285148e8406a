// First: it stands in for content-disposition before the server's modules load (see deskServer.ts).
import { startDesk, type Desk } from '../helpers/deskServer';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import type { CatalogRecord } from '../../src/schemas/record';
import { WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';

/**
 * Renditions of photos a desk may not publish: nothing that could reach a CMS or a shared cache.
 * Real Redis, real workers, real JPEGs: an active photo keeps its year of immutable caching; an
 * embargoed one is served `private, no-store`; a killed one (POST /api/kills, as the desk's Kills
 * view and `photowire kill` do) answers 410 RENDITION_GONE, `private, no-store`, to everything but
 * the desk's Details view (its header, from its own page), which gets the image `private, no-store`.
 */
describe('renditions of killed and embargoed photos', () => {
  let desk: Desk;
  let tmp: string;
  let killed: CatalogRecord;
  let embargoed: CatalogRecord;
  let active: CatalogRecord;
  const DETAILS = { 'x-photowire-view': 'details', 'sec-fetch-site': 'same-origin' };
  const url = (r: CatalogRecord, name: 'thumb' | 'preview') =>
    `/api/${r.renditions.find((x) => x.name === name)!.path}`;

  beforeAll(async () => {
    tmp = makeTmpDir('rendguard');
    const dir = path.join(tmp, 'night');
    mkdirSync(dir);
    copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), path.join(dir, '01-to-kill.jpg'));
    copyFileSync(path.join(WIRE_IMAGES, 'IPTC.jpg'), path.join(dir, '02-embargoed.jpg'));
    execFileSync('exiftool', [
      '-q',
      '-overwrite_original',
      '-IPTC:SpecialInstructions=EMBARGOED UNTIL 0001 GMT JANUARY 1, 2099',
      path.join(dir, '02-embargoed.jpg'),
    ]);
    copyFileSync(path.join(WIRE_IMAGES, 'Bush-dog.jpg'), path.join(dir, '03-active.jpg'));
    desk = await startDesk();
    const [o] = await desk.p.ingest([dir]);
    expect(o.error).toBeNull();
    const records = await desk.p.rt.ctx.catalog.getRecords(o.batchId!);
    const byFile = (f: string) => records.find((r) => r.source.file.endsWith(f))!;
    killed = byFile('01-to-kill.jpg');
    embargoed = byFile('02-embargoed.jpg');
    active = byFile('03-active.jpg');
    for (const r of [killed, embargoed, active])
      expect(r.renditions.map((x) => x.name).sort()).toEqual(['preview', 'thumb']);
    expect(embargoed.release?.embargoUntil?.at).toBe('2099-01-01T00:01:00.000Z');
  }, 120_000);
  afterAll(async () => {
    await desk?.close();
    if (tmp) removeDir(tmp);
  });

  it('an active photo keeps its immutable caching', async () => {
    for (const name of ['thumb', 'preview'] as const) {
      const res = await desk.fetch(url(active, name));
      expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
    }
  });

  it('an embargoed photo is served, but never stored by a cache', async () => {
    for (const name of ['thumb', 'preview'] as const) {
      const res = await desk.fetch(url(embargoed, name));
      expect([res.status, res.headers.get('cache-control')]).toEqual([200, 'private, no-store']);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('a killed photo: 410 to a CMS or a copied URL, the image private and unstored to the desk Details view', async () => {
    // Before the kill it is as any active photo.
    expect((await desk.fetch(url(killed, 'preview'))).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    const res = await desk.fetch('/api/kills', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ target: killed.id, reason: 'x' }),
    });
    expect(res.status).toBe(201);

    for (const name of ['thumb', 'preview'] as const) {
      const gone = await desk.fetch(url(killed, name));
      expect([gone.status, gone.headers.get('cache-control')]).toEqual([410, 'private, no-store']);
      const body = (await gone.json()) as { error: string; message: string };
      expect(body.error).toBe('RENDITION_GONE');
      expect(body.message).toContain(killed.id);
      // The desk's other way of asking (?as=url) is no way round it.
      expect((await desk.fetch(`${url(killed, name)}?as=url`)).status).toBe(410);
      // The header alone, without the browser's word that the desk's own page asks, is not the Details view.
      expect((await desk.fetch(url(killed, name), { headers: { 'x-photowire-view': 'details' } })).status).toBe(410);
      expect(
        (
          await desk.fetch(url(killed, name), {
            headers: { 'x-photowire-view': 'details', 'sec-fetch-site': 'cross-site' },
          })
        ).status,
      ).toBe(410);
      // Without the token it is 401 as before: the kill tells nothing to someone without it.
      expect((await desk.fetch(url(killed, name), { headers: DETAILS, auth: false })).status).toBe(401);
    }

    const shown = await desk.fetch(`${url(killed, 'preview')}?as=url`, { headers: DETAILS });
    expect([shown.status, shown.headers.get('cache-control'), shown.headers.get('content-type')]).toEqual([
      200,
      'private, no-store',
      'image/jpeg',
    ]);
    const meta = await sharp(Buffer.from(await shown.arrayBuffer())).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeGreaterThan(0);

    // The kill did not reach the others.
    expect((await desk.fetch(url(active, 'preview'))).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
  });
});
