import { isTempName, isTempNameInsideFolder, markedName, markerName, roleOf } from '../../../src/app/hotFolder/names';

describe('drop-folder naming conventions', () => {
  it.each([
    ['photo.jpg.part', true],
    ['photo.jpg.PART', true],
    ['feed.xml.tmp', true],
    ['upload.filepart', true],
    ['photo.jpg.crdownload', true],
    ['.photo.jpg.Xa81Kq', true], // rsync
    ['photo.jpg~', true],
    ['~photo.jpg', true],
    ['photo.jpg', false],
    ['partners.xml', false],
    ['tmpfile.xml', false],
    ['photo.part.jpg', false],
  ])('%s is temporary: %s', (name, temp) => {
    expect(isTempName(name)).toBe(temp);
  });

  it('gives each top-level entry a role', () => {
    expect(roleOf('photo.jpg', false)).toBe('candidate');
    expect(roleOf('photo.jpg.done', false)).toBe('marker');
    expect(roleOf('gallery', true)).toBe('candidate');
    expect(roleOf('gallery.done', true)).toBe('candidate'); // a folder is never a marker
    expect(roleOf('processed', true)).toBe('reserved');
    expect(roleOf('failed', true)).toBe('reserved');
    expect(roleOf('processed', false)).toBe('candidate'); // a file that happens to be called so
    expect(roleOf('.done', false)).toBe('temp');
    expect(roleOf('photo.jpg.part', false)).toBe('temp');
  });

  it('pairs a marker with the entry it announces', () => {
    expect(markerName('photo.jpg')).toBe('photo.jpg.done');
    expect(markedName('photo.jpg.done')).toBe('photo.jpg');
    expect(markedName(markerName('gallery'))).toBe('gallery');
  });

  it('inside a folder feed, dot files left by uploads do not hold it back; temp names do', () => {
    expect(isTempNameInsideFolder('.DS_Store')).toBe(false);
    expect(isTempNameInsideFolder('a.jpg.part')).toBe(true);
    expect(isTempNameInsideFolder('a.jpg')).toBe(false);
  });
});
