import { isInputError } from '../../../src/core/errors';
import { confineStorageRef, storageFolderOf, storageKeyOf, storedPhotoKey } from '../../../src/core/feeds/storageFeed';
import { resolveImageRef } from '../../../src/core/feeds/xml/resolveImageRef';
import { uploadFeedRefs, uploadIdOf, uniqueName } from '../../../src/core/uploads';

const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (err) {
    return isInputError(err) ? err.code : 'not an InputError';
  }
};

describe('feeds in storage (desk uploads)', () => {
  const feed = 'storage:uploads/0123456789abcdef/wire.ndjson';
  const root = 'storage:uploads/0123456789abcdef/';

  it('resolves a photo reference below the feed folder to a storage reference', () => {
    expect(storageFolderOf(feed)).toBe(root);
    expect(confineStorageRef(feed, 'a.jpg')).toBe(`${root}a.jpg`);
    expect(confineStorageRef(feed, './sub/../a.jpg')).toBe(`${root}a.jpg`);
    expect(resolveImageRef(feed, 'a b.jpg', false, 'item 1')).toEqual({ image: `${root}a b.jpg` });
    expect(resolveImageRef(feed, 'https://agency.example/p.jpg', false, 'item 1')).toEqual({
      image: 'https://agency.example/p.jpg',
    });
  });

  it('refuses references that leave the folder or are no key, as PATH_OUTSIDE_FEED naming them', () => {
    for (const ref of [
      '../x.jpg',
      '../../uploads/other/x.jpg',
      '/etc/passwd',
      'file:///etc/passwd',
      'a\\..\\..\\x.jpg',
      '.',
      'a\u0001.jpg',
    ]) {
      expect([ref, codeOf(() => confineStorageRef(feed, ref))]).toEqual([ref, 'PATH_OUTSIDE_FEED']);
    }
    const r = resolveImageRef(feed, '../x.jpg', false, 'wire.ndjson:2: item 2');
    expect(r.image).toBeNull();
    expect(r.error).toEqual({ code: 'PATH_OUTSIDE_FEED', message: expect.stringContaining('"../x.jpg"') });
  });

  it('checks in the item stage that the photo belongs to the job root, whatever the payload says', () => {
    expect(storedPhotoKey(root, `${root}a.jpg`)).toBe('uploads/0123456789abcdef/a.jpg');
    expect(codeOf(() => storedPhotoKey(root, 'storage:uploads/fedcba9876543210/a.jpg'))).toBe('PATH_OUTSIDE_FEED');
    expect(codeOf(() => storedPhotoKey(root, `${root}../x.jpg`))).toBe('PATH_OUTSIDE_FEED');
    expect(codeOf(() => storedPhotoKey(root, root))).toBe('PATH_OUTSIDE_FEED');
    expect(codeOf(() => storedPhotoKey('/data/feeds/', `${root}a.jpg`))).toBe('PATH_OUTSIDE_FEED');
    expect(codeOf(() => storedPhotoKey(root, '/data/feeds/a.jpg'))).toBe('PATH_OUTSIDE_FEED');
    expect(codeOf(() => storageKeyOf('storage:/abs'))).toBe('FEED_UNREADABLE');
  });

  it('names an upload by its files, and ingests its feed files, else its photo or its folder', () => {
    const a = uploadIdOf([
      { name: 'b.jpg', sha256: 'b'.repeat(64) },
      { name: 'a.jpg', sha256: 'a'.repeat(64) },
    ]);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(
      uploadIdOf([
        { name: 'a.jpg', sha256: 'a'.repeat(64) },
        { name: 'b.jpg', sha256: 'b'.repeat(64) },
      ]),
    ).toBe(a);
    expect(
      uploadIdOf([
        { name: 'a.jpg', sha256: 'a'.repeat(64) },
        { name: 'b.jpg', sha256: 'c'.repeat(64) },
      ]),
    ).not.toBe(a);
    expect(uploadFeedRefs(a, ['b.jpg', 'wire.ndjson', 'a.jpg'])).toEqual([`storage:uploads/${a}/`]);
    expect(uploadFeedRefs(a, ['a.jpg'])).toEqual([`storage:uploads/${a}/a.jpg`]);
    expect(uploadFeedRefs(a, ['b.jpg', 'a.jpg'])).toEqual([`storage:uploads/${a}/`]);
    expect(uniqueName('a.jpg', new Set(['a.jpg', 'a (2).jpg']))).toBe('a (3).jpg');
  });
});
