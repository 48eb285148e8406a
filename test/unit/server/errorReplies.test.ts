// guards.ts imports the queue board, whose @fastify/static needs content-disposition 3 (ESM-only,
// which jest's CommonJS runtime cannot load on Node 20): the same stand-in as test/helpers/deskServer.ts.
jest.mock('content-disposition', () => ({ create: () => (name: string) => `attachment; filename="${name}"` }));

import Fastify, { type FastifyInstance } from 'fastify';
import { ERRORS, InputError, PhotowireError } from '../../../src/core/errors';
import { guardServer } from '../../../src/server/guards';
import { HttpError } from '../../../src/server/httpError';
import type { RenditionSource } from '../../../src/server/renditionSource';
import { HostPolicy } from '../../../src/server/sameOrigin';

/**
 * The desk's error answers (src/server/guards.ts): every coded error a route throws answers with
 * its code and the status of the one table (src/core/errors.ts), not only HttpError.
 */
describe('HTTP error answers map every coded error through the table', () => {
  let app: FastifyInstance;
  let url = '';
  const logged: string[] = [];

  beforeAll(async () => {
    app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } } });
    const renditions = { storageOrigin: async () => null } as unknown as RenditionSource;
    await guardServer(app, {
      token: null,
      rateLimit: 1000,
      renditions,
      hosts: new HostPolicy([], () => app.server.address()),
    });
    app.get('/storage-full', async () => {
      throw new PhotowireError(
        'STORAGE_FAILED',
        'ENOSPC: no space left on device, open /srv/photowire/data/originals/ab/abcd.jpg',
      );
    });
    app.get('/archived', async () => {
      throw new PhotowireError('BATCH_ARCHIVED', 'batch afp-0912-0123456789ab is archived: read-only');
    });
    app.get('/bad-feed', async () => {
      throw new InputError('FEED_MALFORMED', 'line 3 is not JSON');
    });
    app.get('/coded-plain', async () => {
      throw Object.assign(new Error('the feed file could not be read: /drop/x.xml'), { code: 'FEED_UNREADABLE' });
    });
    app.get('/http', async () => {
      throw new HttpError('NOT_FOUND', 'no batch b');
    });
    app.get('/bug', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (path: string) => {
    const res = await fetch(url + path);
    return { status: res.status, body: (await res.json()) as { error: string; message: string } };
  };

  it('a storage fault thrown by a route answers 503 STORAGE_FAILED, its details kept for the log', async () => {
    const before = logged.length;
    const { status, body } = await get('/storage-full');
    expect(status).toBe(ERRORS.STORAGE_FAILED.httpStatus);
    expect(status).toBe(503);
    expect(body).toEqual({ error: 'STORAGE_FAILED', message: ERRORS.STORAGE_FAILED.message });
    expect(logged.slice(before).join('')).toContain('ENOSPC');
  });

  it('a 4xx coded error answers its status, code and message', async () => {
    expect(await get('/archived')).toEqual({
      status: 409,
      body: { error: 'BATCH_ARCHIVED', message: 'batch afp-0912-0123456789ab is archived: read-only' },
    });
    expect(await get('/bad-feed')).toEqual({
      status: ERRORS.FEED_MALFORMED.httpStatus,
      body: { error: 'FEED_MALFORMED', message: 'line 3 is not JSON' },
    });
  });

  it('an error that only carries a code of the table is mapped the same way', async () => {
    expect(await get('/coded-plain')).toEqual({
      status: 404,
      body: { error: 'FEED_UNREADABLE', message: 'the feed file could not be read: /drop/x.xml' },
    });
  });

  it('HttpError answers as before; an uncoded error stays a bare 500 INTERNAL', async () => {
    expect(await get('/http')).toEqual({ status: 404, body: { error: 'NOT_FOUND', message: 'no batch b' } });
    expect(await get('/bug')).toEqual({
      status: 500,
      body: { error: 'INTERNAL', message: 'internal error: see the server log' },
    });
  });
});
