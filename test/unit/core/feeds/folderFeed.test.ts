import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { assembleFolderFeed, wireXmlNames, type FolderPart } from '../../../../src/core/feeds/folderFeed';
import { parseWireXml } from '../../../../src/core/feeds/xml/parseWireXml';
import type { FeedItem } from '../../../../src/schemas/feedItem';
import { SHARED_DIR } from '../../../helpers/sharedDir';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';
import { loadFeed } from '../../../../src/adapters/feeds/loadFeed';

/**
 * The delivery folder's assembly (pure), on the real dpa, Reuters and NITF files
 * (test/fixtures/shared/fixtures/real-wire/MANIFEST.txt names each origin).
 */
const WIRE = path.join(SHARED_DIR, 'fixtures/real-wire');
const REUTERS_XML = path.join(WIRE, 'reuters/tag_reuters.com_0000_newsml_GM1EA7M13RP01_version_484616934');
const DPA_XML = path.join(WIRE, 'dpa/urn_newsml_dpa.com_20090101_171117-90-000086.xml');
const rendition = (n: string) => path.join(WIRE, `reuters/tag_reuters.com_0000_binary_GM1EA7M13RP01-${n}`);
const picture = (file: string): FolderPart => ({
  file,
  picture: true,
  items: [{ source: { file, position: 0, format: 'image' }, captionRaw: '', iptc: {}, image: file } as FeedItem],
});
const feed = (file: string, localFile: (p: string) => boolean): FolderPart => {
  const text = readFileSync(file, 'utf8');
  return {
    file,
    picture: false,
    items: parseWireXml(text, file, { localFile }).items,
    names: wireXmlNames(text, file),
  };
};

describe('a delivery folder assembled (src/core/feeds/folderFeed.ts)', () => {
  it('Reuters: the item names its three renditions by residref; only the item is a record, with the base image', () => {
    expect(wireXmlNames(readFileSync(REUTERS_XML, 'utf8'), REUTERS_XML)).toEqual(
      expect.arrayContaining([rendition('BASEIMAGE'), rendition('VIEWIMAGE'), rendition('THUMBNAIL')]),
    );
    const files = new Set(['BASEIMAGE', 'THUMBNAIL', 'VIEWIMAGE'].map(rendition));
    const parts = [
      picture(rendition('BASEIMAGE')),
      picture(rendition('THUMBNAIL')),
      picture(rendition('VIEWIMAGE')),
      feed(REUTERS_XML, (p) => files.has(p)),
    ];
    const out = assembleFolderFeed(parts, (p) => files.has(p));
    expect(out.items.map((i) => [i.agencyId, i.image, i.source.position])).toEqual([
      ['tag_reuters.com_0000_newsml_GM1EA7M13RP01', rendition('BASEIMAGE'), 0],
    ]);
    expect(out.paired).toBe(3);
  });

  it('dpa: the href names the picture beside it; absent, the item keeps its caption and fails PICTURE_MISSING', () => {
    const jpeg = path.join(WIRE, 'dpa/urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg');
    const present = assembleFolderFeed([picture(jpeg), feed(DPA_XML, () => true)], () => true);
    expect(present.items.map((i) => [i.image, i.error ?? null])).toEqual([[jpeg, null]]);
    const absent = assembleFolderFeed([feed(DPA_XML, () => false)], () => false);
    expect(absent.items.map((i) => [i.captionRaw.slice(0, 26), i.error?.code])).toEqual([
      ['Florian David Fitz kommt a', 'PICTURE_MISSING'],
    ]);
    expect(absent.items[0]!.error!.message).toBe(
      `${DPA_XML}: item 1 (urn:newsml:dpa.com:20090101:171117-90-000086): its picture ${jpeg} is not in the delivery folder`,
    );
  });

  it('a picture no item names is its own record, in name order with the items', () => {
    const lone = path.join(WIRE, 'images/exiv2-table.jpg');
    const jpeg = path.join(WIRE, 'dpa/urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg');
    const out = assembleFolderFeed([picture(jpeg), feed(DPA_XML, () => true), picture(lone)], () => true);
    expect(out.items.map((i) => [path.basename(i.source.file), path.basename(i.image!), i.source.position])).toEqual([
      [path.basename(DPA_XML), path.basename(jpeg), 0],
      ['exiv2-table.jpg', 'exiv2-table.jpg', 1],
    ]);
  });

  it('NITF: the media-reference source is the picture it names', () => {
    const nitf = path.join(WIRE, 'nitf/nitf-fishing.xml');
    expect(wireXmlNames(readFileSync(nitf, 'utf8'), nitf)).toEqual([path.join(WIRE, 'nitf/high-tide.jpg')]);
  });
});

describe('a local folder feed (loadFeed) names what it does not read', () => {
  it('a file over the feed cap that is not a picture (a video beside the photos) is skipped and counted, never a failed item', async () => {
    const dir = makeTmpDir('folder-feed');
    try {
      copyFileSync(path.join(WIRE, 'images/exiv2-table.jpg'), path.join(dir, 'a.jpg'));
      writeFileSync(path.join(dir, 'clip.mov'), Buffer.alloc(4096, 1));
      const feed = await loadFeed(dir, 2048);
      expect(feed.items.map((i) => [path.basename(i.image!), i.error ?? null])).toEqual([['a.jpg', null]]);
      expect(feed.skipped).toEqual({ file: 1 });
      expect(feed.warnings).toContain(
        `${path.join(dir, 'clip.mov')}: skipped, not a picture, and at 0.0 MB over the feed cap (PHOTOWIRE_MAX_FEED_MB): not read`,
      );
    } finally {
      removeDir(dir);
    }
  });
});
