import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadFeed } from '../../../../src/adapters/feeds/loadFeed';
import { makeTmpDir, removeDir } from '../../../helpers/testEnv';

/** NewsML-G2 packages on disk: what loadFeed reads beside the feed, and what it refuses. */
const NS = 'xmlns="http://iptc.org/std/nar/2006-10-01/"';
const pictureItem = (guid: string, href: string) =>
  `<newsItem ${NS} guid="${guid}" version="1"><itemMeta><itemClass qcode="ninat:picture"/></itemMeta><contentMeta><headline>${guid}</headline></contentMeta><contentSet><remoteContent href="${href}" contenttype="image/jpeg"/></contentSet></newsItem>`;
const pkg = (refs: string) =>
  `<packageItem ${NS} guid="pkg" version="1"><groupSet root="g"><group id="g">${refs}</group></groupSet></packageItem>`;
const ref = (residref: string, href: string) =>
  `<itemRef residref="${residref}" href="${href}" contenttype="application/vnd.iptc.g2.newsitem+xml"><itemClass qcode="ninat:picture"/></itemRef>`;

describe('loadFeed on NewsML-G2 packages', () => {
  let dir: string;
  let outside: string;
  beforeAll(() => {
    dir = makeTmpDir('g2pkg');
    outside = makeTmpDir('g2outside');
    mkdirSync(path.join(dir, 'items'));
    writeFileSync(path.join(dir, 'items', 'one.xml'), pictureItem('urn:one', 'one.jpg'));
    writeFileSync(path.join(outside, 'secret.xml'), pictureItem('urn:secret', 'secret.jpg'));
    symlinkSync(path.join(outside, 'secret.xml'), path.join(dir, 'items', 'link.xml'));
  });
  afterAll(() => {
    removeDir(dir);
    removeDir(outside);
  });

  it('takes the pictures whose item files are in the feed folder; lists the missing one and the symlink leaving it as skipped', async () => {
    const feedFile = path.join(dir, 'package.xml');
    writeFileSync(
      feedFile,
      pkg(ref('urn:one', 'items/one.xml') + ref('urn:gone', 'items/gone.xml') + ref('urn:secret', 'items/link.xml')),
    );
    const feed = await loadFeed(feedFile, 10 * 1024 * 1024);
    expect(feed.format).toBe('newsml-g2');
    expect(feed.items.map((i) => [i.agencyId, i.iptc.headline, i.image, i.source.position])).toEqual([
      ['urn:one', 'urn:one', path.join(dir, 'items', 'one.jpg'), 1],
    ]);
    expect(feed.skipped).toEqual({ package: 1, picture: 2 });
    expect(feed.warnings[0]).toBe(`${feedFile}: skipped 1 package item, 2 picture items`);
    expect(feed.warnings.join('\n')).toContain(`items/gone.xml is not in the feed's folder`);
    expect(feed.warnings.join('\n')).toContain(`items/link.xml is not in the feed's folder`);
  });

  it('a message of only text is a feed of 0 items with a warning, not FEED_UNKNOWN_FORMAT', async () => {
    const feedFile = path.join(dir, 'text.xml');
    writeFileSync(
      feedFile,
      `<newsMessage ${NS}><itemSet><newsItem guid="t"><itemMeta><itemClass qcode="ninat:text"/></itemMeta></newsItem></itemSet></newsMessage>`,
    );
    const feed = await loadFeed(feedFile, 10 * 1024 * 1024);
    expect(feed.items).toEqual([]);
    expect(feed.skipped).toEqual({ text: 1 });
    expect(feed.warnings).toEqual([
      `${feedFile}: skipped 1 text item`,
      `${feedFile}: newsItem 0 (t) at line 1: skipped, a text item, not a picture`,
    ]);
  });
});
