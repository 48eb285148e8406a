/**
 * Secrets never reach a log line, an error message or a printed summary: a Redis password in
 * `REDIS_URL`, an S3 key, the desk's API token. Everything that prints a URL or a configuration
 * value passes it through here first.
 */

/** What stands in for a hidden value. */
export const MASK = '***';

/**
 * `scheme://user:password@host` and `scheme://:password@host` become `scheme://user:***@host`;
 * a URL with only a user name (`redis://default@host`, no password) is left as it is.
 * Linear: the character classes exclude what ends them, so no backtracking (test/unit/core/secrets.test.ts).
 */
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]{0,30}:\/\/)([^\s:@/?#]{0,256}):([^\s@/?#]{1,1024})@/gi;

export function maskUrlCredentials(text: string): string {
  return text.replace(URL_CREDENTIALS, (_m, scheme: string, user: string) => `${scheme}${user}:${MASK}@`);
}

/** `Authorization: Bearer abc...` / `token=abc...` in free text (an error that quotes a request). */
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi;

/** Mask every secret-shaped part of a message: URL credentials and authorization values. */
export function maskSecrets(text: string): string {
  return maskUrlCredentials(text).replace(BEARER, (_m, scheme: string) => `${scheme} ${MASK}`);
}

/** A secret value named in a configuration error: its length says enough to spot a truncated paste. */
export function describeHidden(value: string | undefined): string {
  return value === undefined ? 'unset' : `<hidden, ${[...value].length} characters>`;
}
