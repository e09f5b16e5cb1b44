/**
 * Routes loaded on first need (issue 23): a surface serves its first routes at once and loads the
 * rest with a dynamic import the first time a request finds no route among those loaded. Nothing a
 * client sees may change: the same answers, the same 404 and 405, whichever request came first.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineRoute, type Route } from '../../src/http/route.js';
import { Router } from '../../src/http/router.js';
import { json } from '../../src/http/responses.js';
import { createFakeCore } from '../../src/fake.js';
import { defineSurface } from '../../src/surfaces/surface.js';
import { OPENAPI_PATH, appServerSurface } from '../../src/surfaces/app-server/index.js';
import { agentServerSurface } from '../../src/surfaces/agent-server/index.js';
import { controlSurface } from '../../src/surfaces/control/index.js';
import { firstRoutes } from '../../src/surfaces/app-server/routes/index.js';
import { apiRoutes } from '../../src/surfaces/app-server/routes/all.js';

const ok = (path: string, method: 'GET' | 'POST' = 'GET'): Route =>
  defineRoute({ method, path, summary: path, response: z.object({ path: z.string() }), handle: async () => ({ path }) });

/** A surface of one first route and one later route, counting how often its later routes were loaded. */
function countingSurface(fail = 0) {
  const loads = { count: 0, failuresLeft: fail };
  const surface = defineSurface({
    name: 'test',
    routes: [ok('/first')],
    later: async () => {
      loads.count += 1;
      if (loads.failuresLeft-- > 0) throw new Error('chunk failed to load');
      return [ok('/later'), ok('/first', 'POST')];
    },
    authorize: () => null,
    refusalAnswer: (refusal) => json(404, { detail: refusal.detail }),
    faultable: false,
    journaled: false,
  });
  return { surface, loads };
}

describe('a surface with later routes', () => {
  it('routes a first route at once, without loading the later ones', () => {
    const { surface, loads } = countingSurface();
    const routing = surface.route('GET', '/first');
    expect(routing).not.toBeInstanceOf(Promise);
    expect(routing).toMatchObject({ kind: 'match', match: { route: { path: '/first' } } });
    expect(loads.count).toBe(0);
    expect(surface.routes.map((r) => r.path)).toEqual(['/first']);
  });

  it('loads the later routes once, on the first request no loaded route matches', async () => {
    const { surface, loads } = countingSurface();
    const [a, b] = await Promise.all([surface.route('GET', '/later'), surface.route('GET', '/later')]);
    expect(a).toMatchObject({ kind: 'match', match: { route: { path: '/later' } } });
    expect(b).toMatchObject({ kind: 'match' });
    expect(loads.count).toBe(1);
    expect(surface.route('GET', '/nothing')).toEqual({ kind: 'none' }); // loaded: answered at once
    expect(loads.count).toBe(1);
  });

  it("finds a later route of another method on a first route's path (no 405 before loading)", async () => {
    const { surface } = countingSurface();
    expect(await surface.route('POST', '/first')).toMatchObject({ kind: 'match', match: { route: { method: 'POST', path: '/first' } } });
  });

  it('asks again for later routes that failed to load (a dropped chunk request is not remembered)', async () => {
    const { surface, loads } = countingSurface(1);
    await expect(surface.route('GET', '/later')).rejects.toThrow('chunk failed to load');
    expect(await surface.route('GET', '/later')).toMatchObject({ kind: 'match' });
    expect(loads.count).toBe(2);
  });

  it('lists every route once allRoutes() resolves', async () => {
    const { surface } = countingSurface();
    expect((await surface.allRoutes()).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /first', 'GET /later', 'POST /first']);
    expect(surface.routes).toHaveLength(3);
  });
});

describe("the app server's first routes", () => {
  const sample = (path: string) => path.replace(/:(\w+)\*?/g, '$1-x');
  const laterOnly = apiRoutes.filter((route) => !firstRoutes.includes(route));

  it('never answer a path that belongs to a later route (no first route shadows one)', () => {
    const first = new Router(firstRoutes);
    const all = new Router(apiRoutes);
    const shadowed = laterOnly.filter((route) => {
      const path = sample(route.path);
      const full = all.find(route.method, path);
      return full.kind === 'match' && full.match.route === route && first.find(route.method, path).kind === 'match';
    });
    expect(laterOnly.length).toBeGreaterThan(50);
    expect(shadowed.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('lie, with every later route and the OpenAPI document, under the paths the surface says it answers', () => {
    const paths = [...apiRoutes.map((route) => route.path.replace(/:(\w+)\*?/g, 'x')), OPENAPI_PATH];
    expect(paths.filter((path) => !appServerSurface.owns(path))).toEqual([]);
    expect(['/', '/app.js', '/assets/index-x.js', '/favicon.ico', '/apis'].filter((path) => appServerSurface.owns(path))).toEqual([]);
  });

  it("hold the V1 conversations, start tasks, sandboxes and sandbox specs a page calls first, and nothing of a conversation page or a sandbox's agent", () => {
    const paths = firstRoutes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      'GET /api/v1/app-conversations/search',
      'POST /api/v1/app-conversations',
      'GET /api/v1/app-conversations/start-tasks',
      'GET /api/v1/sandboxes/search',
      'POST /api/v1/sandboxes/:sandbox_id/pause',
      'GET /api/v1/sandbox-specs/search',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(paths.filter((p) => /^\w+ \/api\/((v1\/)?(settings|secrets|user|options)|conversations)\b/.test(p))).toEqual([]);
    // A conversation's events and the secrets a sandbox's agent looks up come with the later routes.
    expect(paths.filter((p) => /\/events\b|\/settings\/secrets/.test(p))).toEqual([]);
  });
});

describe('a fake whose first request needs a later route', () => {
  it('answers it exactly as it answers it once loaded: settings, the OpenAPI document, the control API', async () => {
    const fake = await createFakeCore({ fixture: 'default', auth: 'none', timings: 'instant' });
    const get = async (path: string) => {
      const response = await fake.fetch(new Request(`${fake.options.baseUrl}${path}`));
      return { status: response.status, body: await response.text() };
    };
    expect(appServerSurface.routes).toHaveLength(firstRoutes.length);
    expect(controlSurface.routes).toHaveLength(0);
    const paths = ['/api/settings', '/openapi.json', '/_fakehands/health', '/api/options/models', '/api/nothing'];
    const before = [];
    for (const path of paths) before.push(await get(path));
    expect(appServerSurface.routes).toHaveLength(apiRoutes.length + 1); // and the document
    expect(controlSurface.routes.length).toBeGreaterThan(5);
    expect(before.map((a) => a.status)).toEqual([200, 200, 200, 200, 404]);
    for (const [i, path] of paths.entries()) expect(await get(path), path).toEqual(before[i]);
  });

  it('loads the agent host on its first request', async () => {
    const fake = await createFakeCore({ fixture: 'default', auth: 'none', timings: 'instant', agentUrl: 'http://localhost:3001' });
    expect(agentServerSurface.routes).toHaveLength(0);
    const response = await fake.fetch(new Request(`${fake.options.agentUrl}/alive`));
    expect([response.status, await response.json()]).toEqual([200, { status: 'ok' }]);
    expect(agentServerSurface.routes.length).toBeGreaterThan(20);
  });
});
