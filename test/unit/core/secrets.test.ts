import { describeHidden, maskSecrets, maskUrlCredentials } from '../../../src/core/secrets';
import { cpuMs } from '../../helpers/cpuTime';

describe('secrets are masked before anything prints them', () => {
  it.each([
    ['redis://:s3cret@10.0.0.5:6379/0', 'redis://:***@10.0.0.5:6379/0'],
    ['rediss://default:s3cret@cache.example.com:6380', 'rediss://default:***@cache.example.com:6380'],
    ['REDIS_URL=redis://user:p%40ss@h:1 does not answer', 'REDIS_URL=redis://user:***@h:1 does not answer'],
    ['s3://AKIAEXAMPLE:wJalrXUtnFEMI@bucket/prefix', 's3://AKIAEXAMPLE:***@bucket/prefix'],
    ['two: redis://:a@h1 and redis://:b@h2', 'two: redis://:***@h1 and redis://:***@h2'],
  ])('%s', (input, expected) => {
    expect(maskUrlCredentials(input)).toBe(expected);
  });

  it('leaves URLs without a password alone', () => {
    for (const url of [
      'redis://127.0.0.1:6379',
      'redis://default@h:6379',
      'https://feeds.example.com/a:b@c',
      'http://h/x?y=a:b@c',
    ]) {
      expect(maskUrlCredentials(url)).toBe(url);
    }
  });

  it('masks authorization values quoted in free text', () => {
    expect(maskSecrets('request had Authorization: Bearer abcdef0123456789abcdef')).toBe(
      'request had Authorization: Bearer ***',
    );
    expect(maskSecrets('Basic dXNlcjpwYXNzd29yZA==')).toBe('Basic ***');
  });

  it('names a hidden value by its length only', () => {
    expect(describeHidden('short')).toBe('<hidden, 5 characters>');
    expect(describeHidden(undefined)).toBe('unset');
  });

  it('takes linear time on hostile text', () => {
    const hostile = 'redis://' + ':'.repeat(200_000) + 'a'.repeat(200_000);
    const ms = cpuMs(() => {
      maskSecrets(hostile);
      maskSecrets('x://'.repeat(100_000));
    });
    expect(ms).toBeLessThan(1000);
  });
});
