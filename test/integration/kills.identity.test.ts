import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { startDesk, type Desk } from '../helpers/deskServer';
import { runCli } from '../helpers/cli';
import { WIRE_IMAGES, makeTmpDir, pipelineEnv, removeDir } from '../helpers/testEnv';
import { presentRecords, type PresentedRecord } from '../../src/app/presentRecords';
import { ingestPaths } from '../../src/cli/ingestPaths';
import { waitForBatches } from '../../src/cli/waitForBatches';

/**
 * What a kill names, and whose photo it is: an item id typed while the item is still queued, two
 * agencies that both number their items "1", a mistyped kill and its undo. Real Redis, real
 * workers, real JPEGs, the built CLI as a desk operator types it.
 */
jest.setTimeout(180_000);

describe('kills: what they name and whose photo it is', () => {
  let desk: Desk;
  let root: string;
  let env: Record<string, string | undefined>;
  const cli = (...args: string[]) => runCli(args, { ...env, PHOTOWIRE_OPERATOR: 'night-desk' });
  const records = async (batchId: string): Promise<PresentedRecord[]> =>
    presentRecords(desk.p.rt.ctx, await desk.p.rt.ctx.catalog.getRecords(batchId));
  /** A JPEG with no metadata of its own: the manifest's credit is the only one. */
  const bare = (from: string, to: string) => {
    copyFileSync(path.join(WIRE_IMAGES, from), to);
    execFileSync('exiftool', ['-q', '-q', '-overwrite_original', '-all=', to]);
  };
  const manifest = (name: string, item: Record<string, unknown>, photo: string) => {
    const d = path.join(root, name);
    mkdirSync(d, { recursive: true });
    bare(photo, path.join(d, 'photo.jpg'));
    writeFileSync(path.join(d, 'manifest.json'), JSON.stringify([{ ...item, image: 'photo.jpg' }]));
    return path.join(d, 'manifest.json');
  };

  beforeAll(async () => {
    root = makeTmpDir('kill-identity');
    // no workers yet: the first test kills an item while it is still queued
    desk = await startDesk({ workers: false });
    env = pipelineEnv(desk.p.config.prefix, desk.p.config.dataDir);
  });
  afterAll(async () => {
    await desk.close();
    removeDir(root);
  });

  it('a kill by item id typed while the item is queued is standing, says so, and kills it when it arrives', async () => {
    const feed = manifest(
      'queued',
      { id: 'Q-77', caption: 'A queued photo of a harbour at dawn.', credit: 'Jane Roe/Reuters' },
      'cp.jpg',
    );
    const [o] = await ingestPaths(desk.p.rt, [feed]);
    expect(o.error).toBeNull();
    const itemId = `${o.batchId}-0001`;

    const killed = await cli('kill', itemId, '--reason', 'Wrong caption');
    expect(killed.stdout).toContain('nothing matched now; standing for later arrivals');
    expect(killed.stdout).toContain(`item id ${itemId}`);
    expect(killed.stdout).not.toMatch(/^killed /m);
    expect(killed.code).toBe(3);
    // --expect-none: the same situation, meant so
    expect((await cli('kill', `${o.batchId}-0002`, '--reason', 'not sent yet', '--expect-none')).code).toBe(0);

    await desk.p.rt.startWorkers(2);
    await waitForBatches(desk.p.rt, [o.batchId!], { progress: false, timeoutMs: 120_000 });
    const [r] = await records(o.batchId!);
    expect(r).toMatchObject({
      id: itemId,
      status: 'killed',
      reason: 'Wrong caption',
      availability: { state: 'killed' },
    });
    // the export a CMS imports from says the same
    const exported = await cli('export', o.batchId!);
    expect(exported.stdout).not.toContain(`"${itemId}"`);
  });

  it('two feeds\' bare id "1" are two photos: not versions of each other, and a kill of one asks whose', async () => {
    const [dpa] = await desk.p.ingest([
      manifest(
        'dpa',
        { id: '1', caption: 'Cyclists ride past the Brandenburg Gate in Berlin.', credit: 'Kay Nietfeld/dpa' },
        'getty.jpg',
      ),
    ]);
    const [kyodo] = await desk.p.ingest([
      manifest(
        'kyodo',
        { id: '1', caption: 'Commuters cross a street in Tokyo at rush hour.', credit: 'Kyodo' },
        'corbis.jpg',
      ),
    ]);
    const [d] = await records(dpa.batchId!);
    const [k] = await records(kyodo.batchId!);
    expect(d.agencyId).toBe('1');
    expect(k.agencyId).toBe('1');
    expect(k.photo!.id).not.toBe(d.photo!.id);
    expect(k.photo!.version).toBe(1);

    const ambiguous = await cli('kill', '1', '--reason', 'Wrong person');
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/more than one provider: .*DPA.*KYODO|more than one provider: .*KYODO.*DPA/);
    expect(ambiguous.stderr).toContain('--agency');
    expect((await records(dpa.batchId!))[0].status).toBe('active');

    const one = await cli('kill', '1', '--agency', 'dpa', '--reason', 'Wrong person', '--json');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({
      matched: true,
      provider: 'DPA',
      event: { items: [d.id], groups: ['a:DPA/1'] },
    });
    expect((await records(dpa.batchId!))[0]).toMatchObject({ status: 'killed' });
    expect((await records(kyodo.batchId!))[0]).toMatchObject({
      status: 'active',
      availability: { state: 'publishable' },
    });
  });

  it('a mistyped kill exits 3, can be lifted with a reason, and the lift is kept with who and when', async () => {
    const typo = await cli('kill', 'nosuch-typo', '--reason', 'Wrong person');
    expect(typo.code).toBe(3);
    const killId = /kill id ([0-9a-f]{20})/.exec(typo.stdout)![1];

    const lifted = await cli('unkill', killId, '--reason', 'typo');
    expect(lifted.code).toBe(0);
    expect(lifted.stdout).toContain(`lifted killed nosuch-typo (kill ${killId})`);
    // a later arrival with that id is not killed by the lifted kill
    const [late] = await desk.p.ingest([
      manifest(
        'late',
        { id: 'nosuch-typo', caption: 'A photo that arrives with the mistyped id.', credit: 'AP' },
        'pa.jpg',
      ),
    ]);
    expect((await records(late.batchId!))[0]).toMatchObject({ status: 'active' });

    const listed = await cli('kills', '--json');
    expect(listed.stdout).not.toContain(killId);
    const all = (await cli('kills', '--all', '--json')).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(all.find((k) => k.id === killId)).toMatchObject({
      by: 'night-desk',
      lifted: { by: 'night-desk', reason: 'typo' },
    });
    expect((await cli('unkill', 'ffffffffffffffffffff', '--reason', 'x')).code).not.toBe(0);
  });

  it('lifting a real kill makes its records publishable again, unless another live kill still names them', async () => {
    const feed = manifest(
      'lift',
      { id: 'LIFT-9', caption: 'Fans celebrate a late goal at the stadium.', credit: 'John Doe/AP' },
      'IPTC.jpg',
    );
    const [o] = await desk.p.ingest([feed]);
    const first = JSON.parse((await cli('kill', 'LIFT-9', '--reason', 'Wrong match', '--json')).stdout);
    const second = JSON.parse((await cli('kill', `${o.batchId}-0001`, '--reason', 'Also wrong', '--json')).stdout);
    expect((await records(o.batchId!))[0].status).toBe('killed');
    await cli('unkill', first.event.id, '--reason', 'sent in error');
    // the item-id kill still stands
    expect((await records(o.batchId!))[0]).toMatchObject({ status: 'killed', reason: 'Also wrong' });
    const res = await desk.fetch(`/api/kills/${second.event.id}/lift`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'both in error' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      state: 'lifted',
      restored: 1,
      kill: { lifted: { by: 'desk', reason: 'both in error' } },
    });
    expect((await records(o.batchId!))[0]).toMatchObject({ status: 'active', availability: { state: 'publishable' } });
  });
});
