import {
  batchKey,
  keyProblem,
  originalKey,
  renditionKey,
  renditionManifestKey,
  renditionPrefix,
  uploadKey,
} from '../../../src/core/storageKeys';
import { DataDir } from '../../../src/adapters/storage/dataDir';

const SHA = 'ab' + 'cd' + 'e'.repeat(60);

describe('storage keys', () => {
  it('content-addressed, in the same layout as the data directory today', () => {
    expect(originalKey(SHA, 'jpg')).toBe(`originals/ab/cd/${SHA}.jpg`);
    expect(originalKey(SHA, 'jpg')).toBe(new DataDir('/x').originalPath(SHA, 'jpg'));
    expect(renditionPrefix(SHA)).toBe(`renditions/ab/cd/${SHA}/`);
    expect(renditionKey(SHA, 'thumb.webp')).toBe(`${new DataDir('/x').renditionDir(SHA)}/thumb.webp`);
    expect(renditionManifestKey(SHA)).toBe(`renditions/ab/cd/${SHA}/renditions.json`);
    expect(batchKey('20240101-abc', 'records.ndjson')).toBe('batches/20240101-abc/records.ndjson');
    expect(uploadKey('u1', 'feed.xml')).toBe('uploads/u1/feed.xml');
  });

  it('refuses what is not a digest, an extension or one name', () => {
    expect(() => originalKey('ABC', 'jpg')).toThrow(/sha256/);
    expect(() => originalKey(SHA, 'j/pg')).toThrow(/extension/);
    expect(() => renditionKey(SHA, '../x')).toThrow(/slash/);
    expect(() => batchKey('..', 'x')).toThrow(/dot folder/);
    expect(() => uploadKey('u', '')).toThrow(/empty/);
  });

  it('keyProblem: the keys both adapters refuse', () => {
    for (const ok of ['a', 'a/b.c', 'renditions/ab/cd/x/thumb.webp', 'é/ü name']) expect(keyProblem(ok)).toBeNull();
    expect(keyProblem('')).toBe('empty');
    expect(keyProblem('/a')).toBe('starts with a slash');
    expect(keyProblem('a//b')).toMatch(/empty segment/);
    expect(keyProblem('a/')).toMatch(/empty segment/);
    expect(keyProblem('a/../b')).toMatch(/dot folder/);
    expect(keyProblem('a\\b')).toMatch(/backslash/);
    expect(keyProblem('x'.repeat(1025))).toMatch(/1024 bytes/);
  });
});
