import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { TestPipeline } from '../helpers/pipeline';
import { WIRE_IMAGES, makeTmpDir, removeDir } from '../helpers/testEnv';
import { presentRecords } from '../../src/app/presentRecords';
import { manualKill } from '../../src/app/kills';
import { scaledMs } from '../helpers/deadline';

/**
 * A photo that fails to render still says what a desk may do with it: its record keeps
 * the rights, the embargo and the status read from its metadata. The photos are shared wire images
 * with restrictions and an embargo written by exiftool, then cut in half so they cannot be decoded.
 */
jest.setTimeout(scaledMs(120_000));

const exif = (file: string, ...args: string[]) =>
  execFileSync('exiftool', ['-q', '-overwrite_original', ...args, file]);
const truncate = (file: string) => {
  const bytes = readFileSync(file);
  writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
};

describe('failed records keep rights', () => {
  let p: TestPipeline;
  let root: string;
  beforeAll(async () => {
    p = await TestPipeline.start();
    root = makeTmpDir('failed-rights');
  });
  afterAll(async () => {
    await p.close();
    removeDir(root);
  });

  it('an undecodable photo keeps its restrictions, its embargo and a kill it carries about itself', async () => {
    const d = path.join(root, 'broken');
    mkdirSync(d);
    const restricted = path.join(d, '01-restricted.jpg');
    copyFileSync(path.join(WIRE_IMAGES, 'getty.jpg'), restricted);
    exif(
      restricted,
      '-IPTC:SpecialInstructions=EDITORIAL USE ONLY. NO SALES. MAGS OUT',
      '-IPTC:ReleaseDate=2099:01:01',
      '-IPTC:ReleaseTime=00:01:00+00:00',
    );
    truncate(restricted);
    const killed = path.join(d, '02-killed.jpg');
    copyFileSync(path.join(WIRE_IMAGES, 'corbis.jpg'), killed);
    exif(
      killed,
      '-IPTC:OriginalTransmissionReference=NYPS404',
      '-IPTC:SpecialInstructions=MANDATORY KILL: THIS PHOTO HAS BEEN KILLED. PLEASE DELETE FROM ALL YOUR SYSTEMS.',
    );
    truncate(killed);

    const [o] = await p.ingest([d]);
    const records = await presentRecords(p.rt.ctx, await p.rt.ctx.catalog.getRecords(o.batchId!));
    const [r1, r2] = records;
    expect(r1.error?.code).toBe('IMAGE_CORRUPT');
    expect(r1.rights!.restrictions).toEqual(expect.arrayContaining(['editorial-only', 'no-sales', 'no-magazines']));
    expect(r1.release!.embargoUntil!.at).toBe('2099-01-01T00:01:00.000Z');
    expect(r1.availability.state).toBe('embargoed');

    expect(r2.error?.code).toBe('IMAGE_CORRUPT');
    expect(r2).toMatchObject({
      status: 'killed',
      reason: expect.any(String),
      notice: { itemId: r2.id, kind: 'kill' },
      availability: { state: 'killed' },
    });
  });

  it('a kill notice whose photo is missing still kills what it names; a failed photo is reached by a later kill of its reference', async () => {
    const d = path.join(root, 'night');
    mkdirSync(d);
    const good = path.join(d, '01-NYPS505.jpg');
    copyFileSync(path.join(WIRE_IMAGES, 'pa.jpg'), good);
    exif(good, '-IPTC:OriginalTransmissionReference=NYPS505');
    const broken = path.join(d, '02-NYPS606.jpg');
    copyFileSync(path.join(WIRE_IMAGES, 'cp.jpg'), broken);
    exif(broken, '-IPTC:OriginalTransmissionReference=NYPS606');
    truncate(broken);
    const [night] = await p.ingest([d]);
    const m = path.join(root, 'notice');
    mkdirSync(m);
    writeFileSync(
      path.join(m, 'kill.ndjson'),
      JSON.stringify({
        id: 'APKILL0505',
        image: 'APKILL0505.jpg',
        caption: 'MANDATORY KILL',
        specialInstructions: 'MANDATORY KILL: transmission reference NYPS505. PLEASE DELETE FROM ALL YOUR SYSTEMS.',
      }) + '\n',
    );
    const [notice] = await p.ingest([path.join(m, 'kill.ndjson')]);
    const [failedNotice] = await p.rt.ctx.catalog.getRecords(notice.batchId!);
    expect(failedNotice.error).not.toBeNull();
    const records = async () => presentRecords(p.rt.ctx, await p.rt.ctx.catalog.getRecords(night.batchId!));
    expect((await records())[0]).toMatchObject({
      status: 'killed',
      notice: { itemId: failedNotice.id, targets: ['NYPS505'] },
    });

    expect((await records())[1]).toMatchObject({ error: { code: 'IMAGE_CORRUPT' }, status: 'active' });
    const out = await manualKill({ ...p.rt.ctx, logger: p.rt.logger }, 'NYPS606', 'Wrong person named');
    expect(out.event.items).toEqual([(await records())[1].id]);
    expect((await records())[1]).toMatchObject({
      status: 'killed',
      reason: 'Wrong person named',
      availability: { state: 'killed' },
    });
  });
});
