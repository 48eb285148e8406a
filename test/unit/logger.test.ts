import pino from 'pino';
import { Writable } from 'node:stream';
import { loggerOptions } from '../../src/logger';

/** A logger built exactly as createLogger builds it, writing into a string. */
function capture(): { logger: pino.Logger; lines: () => string } {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return { logger: pino(loggerOptions('info'), sink), lines: () => out };
}

describe('logs never carry a secret', () => {
  it('masks a Redis password in fields, nested objects, errors and the message', () => {
    const { logger, lines } = capture();
    const url = 'redis://:hunter2pw@10.1.2.3:6379';
    logger.info({ redis: url, nested: { conn: { url } } }, 'worker ready');
    logger.error({ err: new Error(`connect to ${url} failed`) }, 'worker error');
    logger.warn(`could not reach ${url}`);
    logger.info({ other: [url] }, 'list');
    const text = lines();
    expect(text).not.toContain('hunter2pw');
    expect(text.match(/redis:\/\/:\*\*\*@10\.1\.2\.3:6379/g)?.length).toBeGreaterThanOrEqual(5);
    // The error is still useful: its message and stack are there, masked.
    expect(text).toContain('connect to redis://:***@10.1.2.3:6379 failed');
  });

  it('removes tokens and authorization headers whatever they hold', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        token: 'tok-0123456789abcdef',
        req: { headers: { authorization: 'Bearer tok-0123456789abcdef' } },
        apiToken: 'tok-0123456789abcdef',
      },
      'request',
    );
    expect(lines()).not.toContain('tok-0123456789abcdef');
    expect(lines()).toContain('"token":"***"');
  });
});
