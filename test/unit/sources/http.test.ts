import { checkFetchAllowed, hostAllowed } from '../../../src/adapters/http/allowList';
import { backoffMs, classifyStatus, retryAfterMs } from '../../../src/adapters/http/retry';

describe('PHOTOWIRE_FETCH_ALLOW', () => {
  const allow = ['feeds.example.com', '127.0.0.1:8080', '*.agency.example'];
  it.each([
    ['https://feeds.example.com/ap.xml', true],
    ['http://FEEDS.example.com:9000/ap.xml', true],
    ['http://127.0.0.1:8080/feed.xml', true],
    ['http://127.0.0.1:8081/feed.xml', false],
    ['https://img.agency.example/p.jpg', true],
    ['https://agency.example/p.jpg', false],
    ['https://evilagency.example/p.jpg', false],
    ['https://feeds.example.com.evil.test/ap.xml', false],
    ['http://169.254.169.254/latest/meta-data', false],
  ])('%s allowed: %s', (url, ok) => {
    expect(hostAllowed(new URL(url), allow)).toBe(ok);
  });

  it('refuses with a clear error naming the URL and what is allowed', () => {
    expect(() => checkFetchAllowed('http://10.0.0.5/x.jpg', allow)).toThrow(
      /http:\/\/10.0.0.5\/x.jpg: host 10.0.0.5 is not in PHOTOWIRE_FETCH_ALLOW \(allowed: feeds.example.com/,
    );
    expect(() => checkFetchAllowed('http://feeds.example.com/x', [])).toThrow(/PHOTOWIRE_FETCH_ALLOW is empty/);
    expect(() => checkFetchAllowed('file:///etc/passwd', allow)).toThrow(/only http and https/);
    expect(() => checkFetchAllowed('not a url', allow)).toThrow(/not a valid URL/);
    let code: string | undefined;
    try {
      checkFetchAllowed('gopher://x', allow);
    } catch (err) {
      code = (err as { code: string }).code;
    }
    expect(code).toBe('FETCH_REFUSED');
  });
});

describe('download retries', () => {
  it('classifies answers', () => {
    expect(classifyStatus(200)).toBe('ok');
    expect(classifyStatus(302)).toBe('redirect');
    expect(classifyStatus(503)).toBe('retry');
    expect(classifyStatus(429)).toBe('retry');
    expect(classifyStatus(404)).toBe('permanent');
    expect(classifyStatus(403)).toBe('permanent');
  });
  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n))).toEqual([500, 1000, 2000, 4000]);
    expect(backoffMs(20)).toBe(30_000);
  });
  it("honours a server's Retry-After, within the cap", () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('3600', 0)).toBe(30_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null, 0)).toBeNull();
    expect(retryAfterMs('soon', 0)).toBeNull();
  });
});
