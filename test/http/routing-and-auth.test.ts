import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { apiRoutes as routes } from '../../src/surfaces/app-server/routes/all.js';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty', auth: 'all' });

describe('unknown routes', () => {
  it('answers 404 {"detail": "Not Found"} for any other path under the base URL', async () => {
    for (const path of ['/api/nothing', '/api/v1/sandboxes/x/y/z', '/api/v1/app-conversations/search/extra', '/']) {
      expect(await call('GET', path)).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    }
  });

  it('answers 405 {"detail": "Method Not Allowed"} with an Allow header for a known path and a wrong method', async () => {
    const { status, body, headers } = await call('PUT', '/api/v1/sandboxes/search');
    expect([status, body]).toEqual([405, { detail: 'Method Not Allowed' }]);
    expect(headers.get('allow')).toBe('GET');
    expect((await call('GET', '/api/v1/sandboxes/abc/pause')).status).toBe(405);
  });

  it('routes before checking the key, as FastAPI does: an unknown path without a key is 404', async () => {
    expect(await call('GET', '/api/nothing', { key: null })).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
  });
});

describe('auth policy "all"', () => {
  it('requires X-Session-API-Key on every endpoint, V1 included', async () => {
    expect(await call('GET', '/api/v1/sandboxes/search', { key: null })).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
    expect((await call('GET', '/api/v1/sandboxes/search', { key: 'test-session-ke' })).status).toBe(401);
    expect((await call('GET', '/api/v1/sandboxes/search')).status).toBe(200);
  });

  it.each(routes.filter((r) => !r.public).map((r) => [r.method, r.path]))(
    '%s %s answers 401 {"detail": "Unauthorized"} without the key',
    async (method, path) => {
      const { status, body } = await call(method, path.replace(/:\w+/g, 'x'), {
        key: null,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect([status, body]).toEqual([401, { detail: 'Unauthorized' }]);
    },
  );

  it('leaves the health routes open (/alive, /health, /ready, /server_info), as the real server does; the sandbox secrets check their own key', async () => {
    expect(
      routes
        .filter((r) => r.public)
        .map((r) => r.path)
        .sort(),
    ).toEqual([
      '/alive',
      '/api/v1/sandboxes/:sandbox_id/settings/secrets',
      '/api/v1/sandboxes/:sandbox_id/settings/secrets/:secret_name',
      '/health',
      '/ready',
      '/server_info',
    ]);
    expect(await call('GET', '/alive', { key: null })).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('a rejected request changes nothing', async () => {
    const before = await env.fake.snapshot();
    expect((await call('POST', '/api/v1/sandboxes', { key: null })).status).toBe(401);
    expect(await env.fake.snapshot()).toEqual(before);
  });
});

describe('auth policies "legacy" (default) and "none"', () => {
  const server = setupServer();
  afterEach(() => server.close());

  it('"legacy" is the default and checks only the non-/api/v1 routes, as the real server with a session key does (the V1 routers never read the header)', async () => {
    const fake = await createFake({ fixture: 'empty', baseUrl: 'http://legacy.test' });
    expect(fake.options.auth).toBe('legacy');
    const ask = (method: string, path: string) => fake.fetch(new Request(`http://legacy.test${path}`, { method }));
    expect((await ask('GET', '/api/v1/sandboxes/search')).status).toBe(200);
    expect((await ask('GET', '/api/conversations')).status).toBe(401);
  });

  it('"none" checks nothing', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty', baseUrl: 'http://none.test' });
    expect((await fake.fetch(new Request('http://none.test/api/conversations'))).status).toBe(200);
  });

  it('serves under a base URL with a path prefix and leaves other origins alone', async () => {
    const fake = await createFake({ fixture: 'empty', baseUrl: 'http://api.test/openhands', auth: 'none' });
    server.resetHandlers(...fake.handlers);
    server.listen({ onUnhandledRequest: 'bypass' });
    expect((await fetch('http://api.test/openhands/api/v1/sandboxes/search')).status).toBe(200);
    expect((await fetch('http://api.test/openhands/api/v1/nothing')).status).toBe(404);
  });
});
