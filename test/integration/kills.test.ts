import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { presentRecords, type PresentedRecord } from '../../src/app/presentRecords';

/**
 * Kills, withdrawals and embargoes through the real pipeline: agency-style items in
 * test/fixtures/kills, JPEGs made from the shared wire images with exiftool and ImageMagick.
 */
const FIX = path.join(REPO_ROOT, 'test/fixtures/kills');
const exif = (file: string, ...args: string[]) =>
  execFileSync('exiftool', ['-q', '-overwrite_original', ...args, file]);
const caption = (text: string) => [
  `-IPTC:Caption-Abstract=${text}`,
  `-XMP-dc:Description=${text}`,
  `-EXIF:ImageDescription=${text}`,
];
const CAPTION =
  "Britain's Catherine, Princess of Wales, poses with her children Prince George, Princess Charlotte and Prince Louis in a photo released by Kensington Palace in London, March 10, 2024.";

describe('kills reach every copy; embargoes end on their own', () => {
  let desk: Desk;
  let root: string;
  const dir = (name: string) => {
    const d = path.join(root, name);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const ingest = async (d: string) => {
    const [o] = await desk.p.ingest([d]);
    expect(o.error).toBeNull();
    return o.batchId!;
  };
  const records = async (batchId: string): Promise<PresentedRecord[]> =>
    presentRecords(desk.p.rt.ctx, await desk.p.rt.ctx.catalog.getRecords(batchId));
  const byName = (rs: PresentedRecord[], name: string) =>
    rs.find((r) => path.basename(r.source.file) === name || r.agencyId === name)!;

  let batchA: string;
  let batchB: string;

  beforeAll(async () => {
    root = makeTmpDir('kills');
    desk = await startDesk();
    // batch A: the original, AP transmission reference LON805
    const a = dir('a');
    copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), path.join(a, 'LON805.jpg'));
    exif(
      path.join(a, 'LON805.jpg'),
      '-IPTC:OriginalTransmissionReference=LON805',
      ...caption(`${CAPTION} (AP Photo/Kensington Palace)`),
    );
    batchA = await ingest(a);
    // batch B: a byte-identical copy, a later version (new pixels, same reference), a resend with a changed caption
    // (same pixels, another reference), a different photo with a near-identical caption, an unrelated photo
    const b = dir('b');
    copyFileSync(path.join(a, 'LON805.jpg'), path.join(b, 'copy.jpg'));
    execFileSync('convert', [path.join(a, 'LON805.jpg'), '-quality', '70', path.join(b, 'v2.jpg')]);
    exif(path.join(b, 'v2.jpg'), '-IPTC:OriginalTransmissionReference=LON805');
    copyFileSync(path.join(a, 'LON805.jpg'), path.join(b, 'resend.jpg'));
    exif(
      path.join(b, 'resend.jpg'),
      '-IPTC:OriginalTransmissionReference=LON806',
      ...caption(`RESENDING to fix the date. ${CAPTION} (AP Photo/Kensington Palace)`),
    );
    copyFileSync(path.join(WIRE_IMAGES, 'Bush-dog.jpg'), path.join(b, 'lookalike.jpg'));
    // Another photo under the same caption with a name's typo fixed: the same subject (one caption
    // cluster), so a person reviews it. Another place ("in Windsor") would be another subject.
    exif(
      path.join(b, 'lookalike.jpg'),
      '-IPTC:OriginalTransmissionReference=LON900',
      ...caption(`${CAPTION.replace('Charlotte', 'Charlote')} (AP Photo/Kensington Palace)`),
    );
    copyFileSync(path.join(WIRE_IMAGES, 'cech.jpg'), path.join(b, 'unrelated.jpg'));
    batchB = await ingest(b);
  }, 120_000);
  afterAll(async () => {
    await desk.close();
    removeDir(root);
  });

  it('an AP-style MANDATORY KILL quoting LON805 kills the original, its later version, its copy in another batch and its resend', async () => {
    const before = await records(batchB);
    expect(before.map((r) => r.availability.state)).toEqual([
      'publishable',
      'publishable',
      'publishable',
      'publishable',
      'publishable',
    ]);
    const c = dir('c');
    copyFileSync(path.join(FIX, 'ap-mandatory-kill.ndjson'), path.join(c, 'ap-mandatory-kill.ndjson'));
    const batchC = await ingest(path.join(c, 'ap-mandatory-kill.ndjson'));
    const [advisory] = await records(batchC);
    expect(advisory.notice).toBeNull();

    const [orig] = await records(batchA);
    expect(orig.status).toBe('killed');
    expect(orig.reason).toMatch(/LON805|manipulated/);
    expect(orig.notice).toMatchObject({ itemId: advisory.id, kind: 'kill', targets: ['LON805'] });
    expect(orig.availability.state).toBe('killed');
    const b = await records(batchB);
    expect(byName(b, 'copy.jpg').status).toBe('killed');
    expect(byName(b, 'v2.jpg')).toMatchObject({ status: 'killed', photo: { id: orig.photo!.id } });
    expect(byName(b, 'v2.jpg').photo!.version).toBeGreaterThan(1);
    expect(byName(b, 'resend.jpg')).toMatchObject({ status: 'killed', agencyId: 'LON806' });
    expect(byName(b, 'lookalike.jpg').status).toBe('active');
    expect(byName(b, 'unrelated.jpg').status).toBe('active');

    const res = await desk.fetch('/api/kills?since=1h');
    expect(res.status).toBe(200);
    const { kills } = (await res.json()) as {
      kills: Array<{
        targets: string[];
        copies: Array<{ itemId: string; batchId: string; original: string }>;
        reviewCopies: Array<{ itemId: string }>;
      }>;
    };
    expect(kills).toHaveLength(1);
    expect(kills[0].targets).toEqual(['LON805']);
    expect(kills[0].copies.map((x) => x.itemId).sort()).toEqual(
      [orig.id, byName(b, 'copy.jpg').id, byName(b, 'v2.jpg').id, byName(b, 'resend.jpg').id].sort(),
    );
    expect(kills[0].copies.every((x) => x.batchId && x.original.startsWith('originals/'))).toBe(true);
    // a near-identical caption on another photo is listed for a person, not killed
    expect(kills[0].reviewCopies.map((x) => x.itemId)).toContain(byName(b, 'lookalike.jpg').id);

    // the API returns the records struck: status and why
    const page = (await (await desk.fetch(`/api/batches/${batchB}/records`)).json()) as { records: PresentedRecord[] };
    expect(page.records.find((r) => r.id === byName(b, 'copy.jpg').id)!.availability).toMatchObject({
      state: 'killed',
      why: expect.stringMatching(/^killed .*notice .*LON805/),
    });
  });

  it('a photo arriving after the kill with the killed reference is killed on arrival', async () => {
    const d = dir('d');
    execFileSync('convert', [path.join(root, 'a', 'LON805.jpg'), '-quality', '55', path.join(d, 'late.jpg')]);
    exif(path.join(d, 'late.jpg'), '-IPTC:OriginalTransmissionReference=LON805');
    const [late] = await records(await ingest(d));
    expect(late).toMatchObject({ status: 'killed', reason: expect.stringMatching(/LON805/) });
    // stored killed, not only merged at read time
    const [stored] = await desk.p.rt.ctx.catalog.getRecords(late.batchId);
    expect(stored.status).toBe('killed');
    const event = await desk.p.rt.ctx.kills.getEvent(
      late.notice ? (await desk.p.rt.ctx.kills.statusOf([late.id])).get(late.id)!.killId : '',
    );
    expect(event!.items).toContain(late.id);
  });

  it('a Reuters-style NewsML-G2 cancel of the guid kills the picture sent under it', async () => {
    const e = dir('e');
    copyFileSync(path.join(FIX, 'reuters-picture.xml'), path.join(e, 'reuters-picture.xml'));
    copyFileSync(path.join(WIRE_IMAGES, 'cp.jpg'), path.join(e, 'royal-reuters.jpg'));
    const [pic] = await records(await ingest(path.join(e, 'reuters-picture.xml')));
    expect(pic.rights!.restrictions).toEqual(
      expect.arrayContaining(['editorial-only', 'no-sales', 'no-archive', 'third-party-supplied']),
    );
    expect(pic.status).toBe('active');
    const f = dir('f');
    copyFileSync(path.join(FIX, 'reuters-cancel.xml'), path.join(f, 'reuters-cancel.xml'));
    const [cancel] = await records(await ingest(path.join(f, 'reuters-cancel.xml')));
    const [after] = await records(pic.batchId);
    expect(after).toMatchObject({
      status: 'killed',
      notice: { itemId: cancel.id, targets: ['tag:reuters.com,2024:newsml_LYNXMPEK2A0RT'] },
    });
  });

  it('a manual kill from the desk needs the token and reaches the photo by item id', async () => {
    const unrelated = byName(await records(batchB), 'unrelated.jpg');
    const body = JSON.stringify({ target: unrelated.id, reason: 'Wrong caption: not the event described' });
    const refused = await desk.fetch('/api/kills', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      auth: false,
    });
    expect(refused.status).toBe(401);
    const res = await desk.fetch('/api/kills', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { targetKind: string }).targetKind).toBe('item');
    expect((await records(batchB)).find((r) => r.id === unrelated.id)).toMatchObject({
      status: 'killed',
      reason: 'Wrong caption: not the event described',
      notice: { kind: 'manual' },
    });
  });

  it('an embargoed photo is locked, then available when its time comes, with nothing re-ingested', async () => {
    const g = dir('g');
    copyFileSync(path.join(WIRE_IMAGES, 'IPTC.jpg'), path.join(g, 'soon.jpg'));
    const at = new Date(Date.now() + 6000);
    const ymd = at.toISOString().slice(0, 10).replace(/-/g, ':');
    const hms = at.toISOString().slice(11, 19);
    exif(path.join(g, 'soon.jpg'), `-IPTC:ReleaseDate=${ymd}`, `-IPTC:ReleaseTime=${hms}+00:00`);
    const batchG = await ingest(g);
    const url = `/api/batches/${batchG}/records`;
    const locked = ((await (await desk.fetch(url)).json()) as { records: PresentedRecord[] }).records[0];
    expect(locked.release!.embargoUntil!.at).toBe(new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString());
    expect(locked.availability).toMatchObject({
      state: 'embargoed',
      why: expect.stringMatching(/^embargoed until .* left/),
    });
    await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now()) + 500));
    const open = ((await (await desk.fetch(url)).json()) as { records: PresentedRecord[] }).records[0];
    expect(open.availability.state).toBe('publishable');
    expect(open.processedAt).toBe(locked.processedAt);
  });

  it('an embargoed NITF picture and an AFP-style handout with OUT markets', async () => {
    const h = dir('h');
    copyFileSync(path.join(FIX, 'nitf-embargoed.xml'), path.join(h, 'nitf-embargoed.xml'));
    copyFileSync(path.join(WIRE_IMAGES, 'XMP.jpg'), path.join(h, 'embargoed.jpg'));
    const [nitf] = await records(await ingest(path.join(h, 'nitf-embargoed.xml')));
    expect(nitf.release!.embargoUntil!.at).toBe('2099-01-01T00:01:00.000Z');
    expect(nitf.availability.state).toBe('embargoed');
    const i = dir('i');
    copyFileSync(path.join(FIX, 'afp-handout.ndjson'), path.join(i, 'afp-handout.ndjson'));
    const [afp] = await records(await ingest(path.join(i, 'afp-handout.ndjson')));
    expect(afp.rights!.restrictions).toEqual(
      expect.arrayContaining(['editorial-only', 'mandatory-credit', 'no-commercial', 'no-sales', 'handout']),
    );
    expect(afp.rights!.outMarkets.map((m) => m.code)).toEqual(['CA', 'JP']);
  });
});
