import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { REPO_ROOT, WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { presentRecords, type PresentedRecord } from '../../src/app/presentRecords';
import { scaledMs } from '../helpers/deadline';

/**
 * AP's transmission references (NYPS101) come back every day: a kill naming one reaches only the
 * records received within PHOTOWIRE_KILL_REF_WINDOW_HOURS of the notice, and kills on arrival only
 * within that window after it. The window is 0.002 h (7.2 s) here so the test can wait it out in
 * real time; the default is 72 h (docs/RIGHTS.md).
 */
jest.setTimeout(scaledMs(120_000));

const FIX = path.join(REPO_ROOT, 'test/fixtures/kills');
const WINDOW_MS = 0.002 * 3_600_000;
const SUBJECTS: Record<string, string> = {
  old: 'Firefighters battle a warehouse blaze in the Bronx at dawn',
  recent: 'The mayor speaks to reporters outside City Hall about the budget',
  soon: 'Fans queue for tickets outside the stadium before the final',
  next: 'A cyclist rides along the river path as the sun sets over the bridge',
  guid1: 'Children play in a fountain during a heat wave in the park',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a kill naming a reused transmission reference', () => {
  let desk: Desk;
  let root: string;
  const photo = (name: string, from: string, ref: string) => {
    const d = path.join(root, name);
    mkdirSync(d, { recursive: true });
    const file = path.join(d, `${name}.jpg`);
    copyFileSync(path.join(WIRE_IMAGES, from), file);
    // AP photos: a reference is an id in its provider's space, and the notice below is AP's
    // each its own subject: near-identical captions would make the later photo a resend of the earlier
    const caption = `${SUBJECTS[name] ?? `A photo named ${name}`}. (AP Photo/Staff)`;
    execFileSync('exiftool', [
      '-q',
      '-overwrite_original',
      `-IPTC:OriginalTransmissionReference=${ref}`,
      `-XMP-photoshop:TransmissionReference=${ref}`,
      '-IPTC:Credit=AP',
      '-IPTC:Source=AP',
      '-XMP-photoshop:Credit=AP',
      `-IPTC:Caption-Abstract=${caption}`,
      `-XMP-dc:Description=${caption}`,
      `-EXIF:ImageDescription=${caption}`,
      file,
    ]);
    return d;
  };
  const ingestOne = async (p: string): Promise<PresentedRecord> => {
    const [o] = await desk.p.ingest([p]);
    expect(o.error).toBeNull();
    const [r] = await presentRecords(desk.p.rt.ctx, await desk.p.rt.ctx.catalog.getRecords(o.batchId!));
    return r;
  };
  const now = async (r: PresentedRecord) =>
    (await presentRecords(desk.p.rt.ctx, await desk.p.rt.ctx.catalog.getRecords(r.batchId)))[0];

  beforeAll(async () => {
    root = makeTmpDir('kill-window');
    desk = await startDesk({ overrides: { PHOTOWIRE_KILL_REF_WINDOW_HOURS: '0.002' } });
  });
  afterAll(async () => {
    await desk.close();
    removeDir(root);
  });

  it('leaves an older photo with the same reference active, kills the recent one, and kills later arrivals only within the window', async () => {
    const old = await ingestOne(photo('old', 'getty.jpg', 'NYPS101'));
    expect(old.agencyId).toBe('NYPS101');
    await sleep(WINDOW_MS + 1000);
    const recent = await ingestOne(photo('recent', 'corbis.jpg', 'NYPS101'));
    const d = path.join(root, 'notice');
    mkdirSync(d);
    copyFileSync(path.join(FIX, 'ap-eliminate-nyps101.ndjson'), path.join(d, 'ap-eliminate-nyps101.ndjson'));
    const notice = await ingestOne(path.join(d, 'ap-eliminate-nyps101.ndjson'));

    expect(await now(recent)).toMatchObject({
      status: 'killed',
      notice: { itemId: notice.id, targets: ['NYPS101'] },
      availability: { state: 'killed' },
    });
    expect(await now(old)).toMatchObject({ status: 'active', availability: { state: 'publishable' } });
    const { kills } = (await (await desk.fetch('/api/kills?since=1h')).json()) as {
      kills: Array<{ copies: Array<{ itemId: string }> }>;
    };
    expect(kills.map((k) => k.copies.map((c) => c.itemId))).toEqual([[recent.id]]);

    // within the window after the kill: killed on arrival (and stored so)
    const soon = await ingestOne(photo('soon', 'pa.jpg', 'NYPS101'));
    expect(soon).toMatchObject({ status: 'killed', notice: { itemId: notice.id } });
    // past it: the reference is today's new photo, not the killed one
    await sleep(WINDOW_MS + 1000);
    const nextDay = await ingestOne(photo('next', 'cp.jpg', 'NYPS101'));
    expect(nextDay).toMatchObject({ status: 'active', availability: { state: 'publishable' } });
  });

  it('a guid is unique: a kill of it reaches every record with it, whatever its age', async () => {
    const first = await ingestOne(photo('guid1', 'IPTC.jpg', 'urn:ap:20240310:PIC1'));
    await sleep(WINDOW_MS + 1000);
    const res = await desk.fetch('/api/kills', {
      method: 'POST',
      body: JSON.stringify({ target: 'urn:ap:20240310:PIC1', reason: 'Wrong person named' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    expect(await now(first)).toMatchObject({ status: 'killed', reason: 'Wrong person named' });
  });
});
