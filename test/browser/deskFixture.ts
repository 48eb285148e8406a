import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildIimBlock, insertIptcIntoJpeg } from '../../src/core/metadata';
import type { IptcFields } from '../../src/schemas/feedItem';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';

const LISBON = 'A commuter walks past a mural in central Lisbon, Portugal, 29 November 2026. (AP Photo/Armando Franca)';

/** Our own captions in agency styles; two photos share a caption, one credit is unusual. */
export const DESK_PHOTOS: Array<{ name: string; seed: number; iptc: IptcFields }> = [
  {
    name: '01-tulips.jpg',
    seed: 11,
    iptc: {
      caption: 'Growers inspect tulip bulbs near Lisse, the Netherlands, 30 October 2026. EPA-EFE/KOEN VAN WEEL',
      byline: ['KOEN VAN WEEL'],
      credit: 'EPA-EFE',
      copyright: 'EPA',
    },
  },
  { name: '02-lisbon.jpg', seed: 12, iptc: { caption: LISBON, byline: ['Armando Franca'], credit: 'AP' } },
  { name: '03-lisbon-wide.jpg', seed: 13, iptc: { caption: LISBON, byline: ['Armando Franca'], credit: 'AP' } },
  {
    name: '04-harbour.jpg',
    seed: 14,
    iptc: { caption: 'Fishing boats return to the harbour of Peniche, Portugal, at dawn. REUTERS/Pedro Nunes' },
  },
  {
    name: '05-council.jpg',
    seed: 15,
    iptc: {
      caption: 'Councillors vote on the new cycling plan at the town hall of Haarlem.',
      byline: ['J. Smith'],
      credit: 'Daily Bugle Ltd',
    },
  },
];
export const BROKEN_NAME = '06-truncated.jpg';

export async function deskPhoto(i: number): Promise<Buffer> {
  const p = DESK_PHOTOS[i];
  return insertIptcIntoJpeg(
    await syntheticPhoto({ width: 1200, height: 800, seed: p.seed }),
    buildIimBlock(p.iptc, { utf8: true }),
  );
}

/** A good photo to put in place of the broken one before a retry. */
export async function repairPhoto(): Promise<Buffer> {
  return insertIptcIntoJpeg(
    await syntheticPhoto({ width: 1200, height: 800, seed: 16 }),
    buildIimBlock(
      {
        caption: 'Volunteers clear the beach at Scheveningen after the storm. ANP/REMKO DE WAAL',
        byline: ['REMKO DE WAAL'],
        credit: 'ANP',
      },
      { utf8: true },
    ),
  );
}

/** A folder feed of photos with IPTC, and one truncated JPEG that fails as IMAGE_CORRUPT. */
export async function writeDeskPhotoFeed(dir: string): Promise<{ broken: string }> {
  for (let i = 0; i < DESK_PHOTOS.length; i++) writeFileSync(path.join(dir, DESK_PHOTOS[i].name), await deskPhoto(i));
  const good = await syntheticPhoto({ width: 1200, height: 800, seed: 16 });
  const broken = path.join(dir, BROKEN_NAME);
  writeFileSync(broken, good.subarray(0, Math.floor(good.length / 3)));
  return { broken };
}
