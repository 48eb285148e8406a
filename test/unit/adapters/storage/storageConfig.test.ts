import * as path from 'node:path';
import { ConfigError } from '../../../../src/config';
import { describeStorage } from '../../../../src/adapters/storage/storageConfig';
import { parseStorageConfig } from '../../../../src/config';

describe('parseStorageConfig (PHOTOWIRE_STORAGE, S3_*)', () => {
  it('unset: the local folder PHOTOWIRE_DATA_DIR (default ./data); a path: that folder', () => {
    expect(parseStorageConfig({})).toEqual({ kind: 'local', root: path.resolve('data') });
    expect(parseStorageConfig({ PHOTOWIRE_DATA_DIR: '/srv/pw' })).toEqual({ kind: 'local', root: '/srv/pw' });
    expect(parseStorageConfig({ PHOTOWIRE_STORAGE: '/mnt/photos', PHOTOWIRE_DATA_DIR: '/srv/pw' })).toEqual({
      kind: 'local',
      root: '/mnt/photos',
    });
    expect(parseStorageConfig({ PHOTOWIRE_STORAGE: '' })).toEqual({ kind: 'local', root: path.resolve('data') });
  });

  it('s3://bucket/prefix with an endpoint: path style by default, the prefix ends in one slash', () => {
    expect(
      parseStorageConfig({ PHOTOWIRE_STORAGE: 's3://wire-photos/prod//', S3_ENDPOINT: 'http://127.0.0.1:9000/' }),
    ).toEqual({
      kind: 's3',
      bucket: 'wire-photos',
      prefix: 'prod/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      attempts: 4,
      timeoutMs: 30000,
    });
  });

  it('AWS S3 (no endpoint): virtual-host style, region from S3_REGION or AWS_REGION, no prefix', () => {
    expect(parseStorageConfig({ PHOTOWIRE_STORAGE: 's3://wire-photos', AWS_REGION: 'eu-west-1' })).toMatchObject({
      bucket: 'wire-photos',
      prefix: '',
      endpoint: undefined,
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(
      parseStorageConfig({
        PHOTOWIRE_STORAGE: 's3://wire-photos/a/b',
        S3_REGION: 'eu-central-1',
        AWS_REGION: 'eu-west-1',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toMatchObject({
      prefix: 'a/b/',
      region: 'eu-central-1',
      forcePathStyle: true,
    });
  });

  const bad: [Record<string, string>, RegExp][] = [
    [
      { PHOTOWIRE_STORAGE: 'gs://bucket/x' },
      /PHOTOWIRE_STORAGE="gs:\/\/bucket\/x": a folder path or s3:\/\/bucket\/prefix/,
    ],
    [{ PHOTOWIRE_STORAGE: 's3://Bad_Bucket/x' }, /bucket name "Bad_Bucket" is not one S3 accepts/],
    [{ PHOTOWIRE_STORAGE: 's3://ab' }, /bucket name "ab"/],
    [{ PHOTOWIRE_STORAGE: 's3:///x' }, /bucket name ""/],
    [{ PHOTOWIRE_STORAGE: 's3://bucket/a/../b' }, /the prefix "a\/..\/b" segment ".." is a dot folder/],
    [
      { PHOTOWIRE_STORAGE: 's3://bucket/x', S3_ENDPOINT: 'ftp://host' },
      /S3_ENDPOINT="ftp:\/\/host": an http:\/\/ or https:\/\/ URL/,
    ],
    [{ PHOTOWIRE_STORAGE: 's3://bucket/x', S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE="yes": true or false/],
    [{ PHOTOWIRE_STORAGE_ATTEMPTS: '0' }, /PHOTOWIRE_STORAGE_ATTEMPTS="0"/],
  ];
  it.each(bad)('refuses %j with a ConfigError naming the variable', (env, message) => {
    expect(() => parseStorageConfig(env)).toThrow(ConfigError);
    expect(() => parseStorageConfig(env)).toThrow(message);
  });

  it('an endpoint with a password in it is refused, and the password is never shown', () => {
    let msg = '';
    try {
      parseStorageConfig({
        PHOTOWIRE_STORAGE: 's3://bucket/x',
        S3_ENDPOINT: 'http://key:hunter2secret@127.0.0.1:9000',
      });
    } catch (err) {
      msg = (err as Error).message;
    }
    expect(msg).toContain('no user or password in the URL');
    expect(msg).not.toContain('hunter2secret');
  });

  it('describeStorage names bucket, prefix and endpoint', () => {
    expect(
      describeStorage(parseStorageConfig({ PHOTOWIRE_STORAGE: 's3://wire/p', S3_ENDPOINT: 'http://127.0.0.1:9000' })),
    ).toBe('s3://wire/p/ at http://127.0.0.1:9000');
    expect(describeStorage(parseStorageConfig({ PHOTOWIRE_STORAGE: 's3://wire' }))).toBe(
      's3://wire/ at AWS S3 (us-east-1)',
    );
  });
});
