import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseCsvManifest } from '../../../../../src/core/feeds/csvManifest';
import { parseNewsmlG2 } from '../../../../../src/core/feeds/xml/newsmlG2';
import { parseNitf } from '../../../../../src/core/feeds/xml/nitf';
import type { FeedItem } from '../../../../../src/schemas/feedItem';

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/feeds');
const read = (name: string) => {
  const file = path.join(FIXTURES, name);
  return { file, text: readFileSync(file, 'utf8') };
};

/** What a record keeps of an item, whichever format it came in. */
const essence = (item: FeedItem) => ({
  agencyId: item.agencyId,
  agencyVersion: item.agencyVersion,
  captionRaw: item.captionRaw,
  iptc: item.iptc,
  image: item.image,
  error: item.error,
});

// The integration tests drop these three files next to a generated photo.jpg and expect the
// same record from each; this keeps the fixtures from drifting apart.
describe('the three sample feeds describe the same photo', () => {
  const g2 = read('newsml-g2-picture.xml');
  const nitf = read('nitf-picture.xml');
  const csv = read('manifest.csv');

  it('NewsML-G2, NITF and the CSV manifest give equal items', () => {
    const fromG2 = parseNewsmlG2(g2.text, g2.file).map(essence);
    const fromNitf = parseNitf(nitf.text, nitf.file).map(essence);
    const manifest = parseCsvManifest(csv.text, csv.file);
    expect(manifest.errors).toEqual([]);
    expect(manifest.warnings).toEqual([]);
    expect(fromG2).toHaveLength(1);
    expect(fromNitf).toEqual(fromG2);
    expect(manifest.items.map(essence)).toEqual(fromG2);
    expect(fromG2[0].image).toBe(path.join(FIXTURES, 'photo.jpg'));
  });
});
