import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { makeTmpDir, removeDir } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import type { IptcFields } from '../../src/schemas/feedItem';

const CAPTION =
  'Growers inspect tulip bulbs before planting at a nursery near Lisse, the Netherlands, 30 October 2026. The bulb harvest was smaller than usual after a dry summer, growers said, and prices at the auction in Aalsmeer rose for the third week running as exporters competed for stock.';

describe('a re-sent photo is a new version of the same photo (real Redis)', () => {
  let p: TestPipeline;
  const dirs: string[] = [];
  const drop = async (name: string, bytes: Buffer) => {
    const dir = makeTmpDir('resend');
    dirs.push(dir);
    writeFileSync(path.join(dir, name), bytes);
    const [o] = await p.ingest([dir]);
    const [r] = await p.rt.ctx.catalog.getRecords(o.batchId!);
    expect(r.error).toBeNull();
    return r;
  };
  const withIptc = (jpeg: Buffer, f: IptcFields) => insertIptcIntoJpeg(jpeg, buildIimBlock(f, { utf8: true }));

  beforeAll(async () => {
    p = await TestPipeline.start();
  });
  afterAll(async () => {
    await p.close();
    dirs.forEach(removeDir);
  });

  it('links a corrected caption on the same pixels to the first version, and flags the resend', async () => {
    const pixels = await syntheticPhoto({ width: 1200, height: 800, seed: 42 });
    const first = await drop(
      'tulips.jpg',
      withIptc(pixels, { caption: `${CAPTION} EPA-EFE/KOEN VAN WEEL`, transmissionReference: 'EPA001' }),
    );
    expect(first.photo).toEqual({ id: first.image!.sha256, version: 1, previousSha256: null, previousItemId: null });
    expect(first.probableResend).toBe(false);

    // Same pixels, resent with the credit corrected to another photographer: new bytes, same photo.
    const corrected = withIptc(pixels, {
      caption: `${CAPTION} EPA-EFE/REMKO DE WAAL`,
      transmissionReference: 'EPA001',
    });
    const second = await drop('tulips-corrected.jpg', corrected);
    expect(second.image!.sha256).not.toBe(first.image!.sha256);
    expect(second.photo).toEqual({
      id: first.photo!.id,
      version: 2,
      previousSha256: first.image!.sha256,
      previousItemId: first.id,
    });
    expect(second.cluster).toMatchObject({ id: first.cluster!.id, exact: true });
    expect(second.credit.creators).toEqual(['Remko de Waal']);
    expect(second.probableResend).toBe(true);

    // The same bytes again: the same version, rendered once.
    const again = await drop('tulips-corrected-copy.jpg', corrected);
    expect(again.photo).toMatchObject({ id: first.photo!.id, version: 2 });
    expect(again.renditions).toEqual(second.renditions);
  });

  it('links by the agency id when the pixels changed too (a re-crop), within one provider', async () => {
    const a = await drop(
      'crop-a.jpg',
      withIptc(await syntheticPhoto({ width: 900, height: 600, seed: 7 }), {
        caption: 'A quiet harbour at dawn.',
        transmissionReference: 'HBT900',
        credit: 'AP',
      }),
    );
    const b = await drop(
      'crop-b.jpg',
      withIptc(await syntheticPhoto({ width: 800, height: 600, seed: 8 }), {
        caption: 'A quiet harbour at dawn.',
        transmissionReference: 'HBT900',
        credit: 'AP',
      }),
    );
    expect(b.photo).toMatchObject({ id: a.photo!.id, version: 2, previousItemId: a.id });
    // another agency's HBT900 is another photo: its own version 1 (src/core/kills/identity.ts)
    const c = await drop(
      'crop-c.jpg',
      withIptc(await syntheticPhoto({ width: 700, height: 600, seed: 9 }), {
        caption: 'A quiet harbour at dawn.',
        transmissionReference: 'HBT900',
        credit: 'Reuters',
      }),
    );
    expect(c.photo).toMatchObject({ version: 1, previousItemId: null });
    expect(c.photo!.id).not.toBe(a.photo!.id);
  });

  it('keeps a different photo with a different caption apart', async () => {
    const c = await drop(
      'other.jpg',
      withIptc(await syntheticPhoto({ width: 640, height: 480, seed: 99 }), {
        caption: 'Fans queue outside the stadium before the final.',
      }),
    );
    expect(c.photo).toMatchObject({ version: 1, previousItemId: null });
    expect(c.probableResend).toBe(false);
  });
});
