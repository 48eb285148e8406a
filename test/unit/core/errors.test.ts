import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../../../src/config';
import { errorsMarkdown } from '../../../src/core/errorsDoc';
import {
  ERROR_CODES,
  ERRORS,
  exitCodeOf,
  httpStatusOf,
  InputError,
  isRetryable,
  PhotowireError,
  type PhotowireCode,
} from '../../../src/core/errors';
import { DefaultTextRulesError } from '../../../src/core/metadata/defaultTexts';
import { JsonSyntaxError } from '../../../src/core/credits/jsonPositions';
import { PhraseError } from '../../../src/core/rights/phraseMatcher';
import { NoRedisError } from '../../../src/adapters/redis/ensureRedis';
import { StorageConfigError, StorageError } from '../../../src/adapters/storage/storagePort';
import { UsageError } from '../../../src/cli/usageError';
import { HttpError, notFound, badRequest } from '../../../src/server/httpError';
import { RulesFileError } from '../../../src/core/rulesFile';

const ROOT = path.join(__dirname, '../../..');
const codes = Object.keys(ERRORS) as PhotowireCode[];

describe('the error table', () => {
  it.each(codes)('%s has a message, a retryable flag, an exit code and an HTTP status', (code) => {
    const s = ERRORS[code];
    expect(s.message.trim().length).toBeGreaterThan(5);
    expect(typeof s.retryable).toBe('boolean');
    expect([1, 2]).toContain(s.exitCode);
    expect(Number.isInteger(s.httpStatus)).toBe(true);
    expect(s.httpStatus).toBeGreaterThanOrEqual(400);
    expect(s.httpStatus).toBeLessThanOrEqual(599);
  });

  it('keeps the item codes and their messages (docs/ERRORS.md: never rename one)', () => {
    expect(Object.keys(ERROR_CODES)).toEqual([
      'FEED_UNREADABLE',
      'FEED_UNKNOWN_FORMAT',
      'FEED_MALFORMED',
      'FEED_TOO_LARGE',
      'FEED_LINE_TOO_LONG',
      'XML_ENTITY_REFUSED',
      'ITEM_DUPLICATE_ID',
      'ITEM_INVALID',
      'PATH_OUTSIDE_FEED',
      'IMAGE_NOT_FOUND',
      'IMAGE_UNSUPPORTED',
      'IMAGE_CORRUPT',
      'IMAGE_TOO_LARGE',
      'STORAGE_FAILED',
      'WORKER_LOST',
      'FETCH_REFUSED',
      'FETCH_FAILED',
      'INTERNAL',
      'PICTURE_MISSING',
      'FEED_EMPTY',
    ]);
    for (const [code, message] of Object.entries(ERROR_CODES))
      expect(ERRORS[code as PhotowireCode].message).toBe(message);
    expect(ERROR_CODES.IMAGE_CORRUPT).toBe('the image could not be decoded');
  });

  it('only transient faults are retryable: network, 5xx, timeouts, storage, Redis (and an uncoded error, as BullMQ always retried)', () => {
    expect(codes.filter((c) => ERRORS[c].retryable).sort()).toEqual([
      'FETCH_FAILED',
      'INTERNAL',
      'REDIS_OUT_OF_MEMORY',
      'REDIS_UNAVAILABLE',
      'STORAGE_FAILED',
    ]);
  });

  it('exit 2 for configuration, Redis, rules files, usage and a lost ledger; 1 for what an item or feed fails with', () => {
    expect(codes.filter((c) => ERRORS[c].exitCode === 2).sort()).toEqual(
      [
        'BOILERPLATE_RULES_INVALID',
        'BOILERPLATE_RULES_UNREADABLE',
        'CONFIG_INVALID',
        'CREDIT_RULES_INVALID',
        'CREDIT_RULES_UNREADABLE',
        'DEFAULT_TEXT_RULES_INVALID',
        'DEFAULT_TEXT_RULES_UNREADABLE',
        'HOT_FOLDER_INVALID',
        'JSON_SYNTAX',
        'KILL_TARGET_AMBIGUOUS',
        'LEDGER_LOST',
        'REDIS_OUT_OF_MEMORY',
        'REDIS_UNAVAILABLE',
        'RIGHTS_RULES_INVALID',
        'RIGHTS_RULES_UNREADABLE',
        'RULES_PHRASE_INVALID',
        'SCHEDULE_INVALID',
        'STORAGE_CONFIG',
        'USAGE',
      ].sort(),
    );
    for (const code of Object.keys(ERROR_CODES) as PhotowireCode[]) expect(ERRORS[code].exitCode).toBe(1);
  });
});

describe('isRetryable', () => {
  it('bad input never, whatever its code says', () => {
    expect(isRetryable(new InputError('ITEM_INVALID', 'x'))).toBe(false);
    expect(isRetryable(new InputError('FETCH_FAILED', 'http://h/a.jpg: HTTP 404'))).toBe(false);
    expect(isRetryable(new InputError('STORAGE_FAILED', 'x'))).toBe(false);
  });

  it('a PhotowireError of a transient code, unless the thrower says otherwise', () => {
    expect(isRetryable(new PhotowireError('FETCH_FAILED', 'http://h/a.jpg: HTTP 503'))).toBe(true);
    expect(isRetryable(new PhotowireError('FETCH_FAILED', 'x', { retryable: false }))).toBe(false);
    expect(isRetryable(new InputError('FETCH_FAILED', 'timeout', { retryable: true }))).toBe(true);
    expect(isRetryable(new NoRedisError('nothing answers'))).toBe(true);
    expect(isRetryable(new ConfigError(['X=1: bad']))).toBe(false);
    expect(isRetryable(new UsageError('no feed'))).toBe(false);
  });

  it('an error with a known code property follows the table; one without a code is retried', () => {
    expect(isRetryable(new StorageError('disk full'))).toBe(true);
    expect(isRetryable(Object.assign(new Error('cannot write'), { code: 'STORAGE_FAILED' }))).toBe(true);
    expect(isRetryable(Object.assign(new Error('bad'), { code: 'ITEM_INVALID' }))).toBe(false);
    expect(isRetryable(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isRetryable(new Error('boom'))).toBe(true);
  });
});

describe('exitCodeOf and httpStatusOf, class by class', () => {
  const cases: Array<[string, unknown, number, number]> = [
    ['ConfigError', new ConfigError(['PHOTOWIRE_CONCURRENCY="x": bad']), 2, 500],
    ['StorageConfigError', new StorageConfigError('bucket-missing', 'no bucket b at http://s3'), 2, 503],
    ['NoRedisError', new NoRedisError('nothing answers', { hint: false }), 2, 503],
    ['UsageError', new UsageError('run: nothing to run', 'photowire run path'), 2, 400],
    ['RulesFileError (credit rules)', new RulesFileError('CREDIT_RULES_INVALID', 'r.json', 3, 'bad'), 2, 500],
    [
      'RulesFileError (boilerplate rules)',
      new RulesFileError('BOILERPLATE_RULES_UNREADABLE', 'b.json', null, 'ENOENT'),
      2,
      500,
    ],
    ['RulesFileError (rights rules)', new RulesFileError('RIGHTS_RULES_INVALID', 'x.json', 1, 'bad', 2), 2, 500],
    ['DefaultTextRulesError', new DefaultTextRulesError('DEFAULT_TEXT_RULES_INVALID', 'd.json', 4, 'bad'), 2, 500],
    ['PhraseError', new PhraseError('the phrase is empty'), 2, 400],
    ['JsonSyntaxError', new JsonSyntaxError('unexpected end', 4), 2, 400],
    ['InputError FEED_MALFORMED', new InputError('FEED_MALFORMED', 'f.ndjson, line 2: not JSON'), 1, 422],
    ['InputError FEED_UNREADABLE', new InputError('FEED_UNREADABLE', 'f: no such file or folder'), 1, 404],
    ['InputError IMAGE_TOO_LARGE', new InputError('IMAGE_TOO_LARGE', 'a.jpg: over the cap'), 1, 413],
    ['PhotowireError FETCH_FAILED', new PhotowireError('FETCH_FAILED', 'HTTP 503'), 1, 502],
    ['HttpError NOT_FOUND', notFound('no batch b'), 1, 404],
    ['HttpError BAD_REQUEST', badRequest('bad'), 1, 400],
    ['HttpError UPLOAD_TOO_LARGE (older form)', new HttpError(413, 'UPLOAD_TOO_LARGE', 'too big'), 1, 413],
    ['StorageError (a code property)', new StorageError('disk full'), 1, 503],
    [
      'a lost ledger (a LEDGER_LOST code property)',
      Object.assign(new Error('batch b has no ledger'), { code: 'LEDGER_LOST' }),
      2,
      503,
    ],
    ['a plain Error (a bug)', new Error('boom'), 1, 500],
    ['an errno error', Object.assign(new Error('EACCES'), { code: 'EACCES' }), 1, 500],
    ['fastify: too many requests', Object.assign(new Error('rate limit'), { statusCode: 429 }), 1, 429],
    ['a thrown string', 'boom', 1, 500],
  ];
  it.each(cases)('%s', (_name, err, exit, status) => {
    expect(exitCodeOf(err)).toBe(exit);
    expect(httpStatusOf(err)).toBe(status);
  });

  it('every error class is a PhotowireError with its code, message and name', () => {
    const e = new RulesFileError('RIGHTS_RULES_INVALID', 'x.json', 1, 'bad', 2);
    expect(e).toBeInstanceOf(PhotowireError);
    expect(e.code).toBe('RIGHTS_RULES_INVALID');
    expect(e.message).toBe('rights rules file x.json, line 1, column 2: bad');
    expect(e.name).toBe('RulesFileError');
    const h = notFound('no batch b');
    expect([h.status, h.code, h.message, h.name]).toEqual([404, 'NOT_FOUND', 'no batch b', 'HttpError']);
    const c = new PhotowireError('INTERNAL', 'x', { cause: new Error('inner') });
    expect((c.cause as Error).message).toBe('inner');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('statuses come from the table', () => {
  it("every `new HttpError(status, CODE, ...)` in src/ gives the table's status for CODE", () => {
    const calls = sourceFiles(path.join(ROOT, 'src')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/new HttpError\(\s*(\d{3}),\s*'([A-Z_]+)'/g)].map((m) => ({
        file: path.relative(ROOT, file),
        status: Number(m[1]),
        code: m[2],
      })),
    );
    for (const call of calls) {
      expect(`${call.file}: ${call.code} ${call.status}`).toBe(
        `${call.file}: ${call.code} ${ERRORS[call.code as PhotowireCode]?.httpStatus}`,
      );
    }
  });

  it('docs/ERRORS.md is generated from the table: every code with its meaning, retryable, exit code and HTTP status (`npm run docs`)', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/ERRORS.md'), 'utf8');
    for (const code of Object.keys(ERRORS) as PhotowireCode[]) {
      const s = ERRORS[code];
      expect(doc).toMatch(
        new RegExp(
          `^\\| \`${code}\` \\| .+ \\| ${s.retryable ? 'yes' : 'no'} \\| ${s.exitCode} \\| ${s.httpStatus} \\|$`,
          'm',
        ),
      );
    }
    // the whole file, so an edit by hand or a table changed without `npm run docs` fails here
    expect(doc).toBe(errorsMarkdown());
  });
});
