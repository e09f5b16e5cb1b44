/**
 * The same recorded sequence of requests, good and bad, through msw's setupServer and through
 * the standalone HTTP server over real sockets, per-route handlers and `fake.fetch`: identical
 * statuses and bodies, for the API, the control API and the OpenAPI document alike.
 */
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { allRoutes } from '../../src/http/routes/index.js';
import { createFakeServer, type FakeServer } from '../../src/server/http-server.js';

const KEY = 'differential-key';
const OPTIONS = { apiKey: KEY, seed: 77, fixture: 'default', checkResponses: true, auth: 'all', clock: 'manual' } as const;

type Step = { method: string; path: string; body?: string; headers?: Record<string, string>; advance?: number };

/** A session a UI might have, with mistakes in it. `{sandbox}` is the first sandbox of the search. */
const SEQUENCE: Step[] = [
  { method: 'GET', path: '/api/v1/sandbox-specs/search?limit=2' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=3' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=3&page_id=3' },
  { method: 'POST', path: '/api/v1/sandboxes' },
  { method: 'POST', path: '/api/v1/sandboxes?sandbox_spec_id=nope' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=1', advance: 2500 },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/pause' },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/pause' },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/resume' },
  { method: 'POST', path: '/api/v1/sandboxes/nope/resume' },
  { method: 'DELETE', path: '/api/v1/sandboxes/nope' },
  { method: 'POST', path: '/api/v1/app-conversations', body: '{"selected_repository": "a/b", "initial_message": {"content": [{"type": "text", "text": "hi"}]}}' },
  { method: 'GET', path: '/api/v1/app-conversations/start-tasks/search?limit=2', advance: 6000 },
  { method: 'GET', path: '/api/v1/app-conversations/search?limit=2' },
  { method: 'GET', path: '/api/v1/app-conversations/count?title__contains=a' },
  { method: 'GET', path: '/api/v1/app-conversations?ids=not-a-uuid' },
  { method: 'GET', path: '/api/v1/app-conversations/search?limit=500&sort_order=X' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": "a/b", "git_provider": "github"}' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": 1, "extra": true}' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": ' },
  { method: 'POST', path: '/api/conversations', body: 'plain text', headers: { 'content-type': 'text/plain' } },
  { method: 'POST', path: '/api/conversations' },
  { method: 'GET', path: '/api/conversations?limit=3' },
  { method: 'GET', path: `/api/conversations/${'x'.repeat(101)}` },
  { method: 'PATCH', path: '/api/conversations/nope', body: '{"title": "x"}' },
  { method: 'DELETE', path: '/api/v1/sandboxes/nope?sandbox_id=nope' },
  { method: 'POST', path: '/api/add-git-providers', body: '{"provider_tokens": {"github": {"token": "ghp_x"}, "nope": {}}}' },
  { method: 'POST', path: '/api/add-git-providers', body: '{"provider_tokens": {"github": {"token": "ghp_x"}}}' },
  { method: 'GET', path: '/api/v1/sandboxes/search', headers: { 'x-session-api-key': 'wrong' } },
  { method: 'PUT', path: '/api/v1/sandboxes/search' },
  { method: 'GET', path: '/api/v1/nothing/here' },
  { method: 'GET', path: '/api/v1/sandboxes?id=a&id=b' },
  // The control API and the OpenAPI document are routes of the same pipeline.
  { method: 'GET', path: '/_fakehands/health', headers: { 'x-session-api-key': '' } },
  { method: 'GET', path: '/_fakehands/clock' },
  { method: 'GET', path: '/_fakehands/faults', headers: { 'x-session-api-key': 'wrong' } },
  { method: 'POST', path: '/_fakehands/faults', body: '{"kind": "status", "path": "/api/v1/sandboxes/search", "status": 503}' },
  { method: 'GET', path: '/api/v1/sandboxes/search' },
  { method: 'POST', path: '/_fakehands/faults', body: '{"kind": "teleport", "path": "/"}' },
  { method: 'POST', path: '/_fakehands/clock', body: '{"advance_ms": 1000}' },
  { method: 'POST', path: '/_fakehands/clock', body: '{"advance_ms": ' },
  { method: 'PATCH', path: '/_fakehands/clock' },
  { method: 'POST', path: '/_fakehands/reset', body: '{"fixture": "/etc/passwd"}' },
  { method: 'GET', path: '/_fakehands/requests?limit=0' },
  { method: 'GET', path: '/openapi.json', headers: { 'x-session-api-key': '' } },
  { method: 'POST', path: '/_fakehands/reset', body: '{"fixture": "empty", "seed": 3}' },
  { method: 'GET', path: '/_fakehands/state' },
];

/** Plays the sequence through `send`, moving the fake's clock where a step says so. */
async function play(send: (step: Step) => Promise<Response>, advance: (ms: number) => void): Promise<{ status: number; body: string }[]> {
  const results: { status: number; body: string }[] = [];
  let sandbox = '';
  for (const step of SEQUENCE) {
    if (step.advance) advance(step.advance);
    const response = await send({ ...step, path: step.path.replace('{sandbox}', sandbox) });
    const body = await response.text();
    if (!sandbox && step.path.startsWith('/api/v1/sandboxes/search')) sandbox = (JSON.parse(body) as { items: { id: string }[] }).items[0]!.id;
    results.push({ status: response.status, body });
  }
  return results;
}

const init = (step: Step, base: string): [string, RequestInit] => [`${base}${step.path}`, {
  method: step.method,
  headers: { 'x-session-api-key': KEY, ...(step.body ? { 'content-type': 'application/json' } : {}), ...step.headers },
  body: step.body,
}];

describe('in-process and over-the-wire answers', () => {
  let server: FakeServer | undefined;
  afterAll(async () => server?.close());

  it('are identical for a recorded sequence of good and bad requests (one handler, per-route handlers, real sockets)', async () => {
    const inProcess = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
    const msw = setupServer(...inProcess.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    const viaMsw = await play((step) => fetch(...init(step, 'http://fake.test')), (ms) => inProcess.clock.advance(ms));
    msw.close();

    const overTheWire = await createFake({ ...OPTIONS, baseUrl: 'http://localhost' });
    server = createFakeServer(overTheWire);
    const url = await server.listen(0, '127.0.0.1');
    const viaHttp = await play((step) => fetch(...init(step, url)), (ms) => overTheWire.clock.advance(ms));

    expect(viaHttp).toEqual(viaMsw);

    const perRoute = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
    const routeServer = setupServer(...perRoute.routeHandlers);
    routeServer.listen({ onUnhandledRequest: 'error' });
    const viaRouteHandlers = await play((step) => fetch(...init(step, 'http://fake.test')), (ms) => perRoute.clock.advance(ms));
    routeServer.close();
    expect(viaRouteHandlers).toEqual(viaMsw);
    expect(perRoute.routeHandlers).toHaveLength(allRoutes.length + 1);

    const direct = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
    const viaFakeFetch = await play((step) => direct.fetch(new Request(...init(step, 'http://fake.test'))), (ms) => direct.clock.advance(ms));
    expect(viaFakeFetch).toEqual(viaMsw);
    const statuses = new Set(viaMsw.map((r) => r.status));
    expect([...statuses].sort()).toEqual([200, 400, 401, 404, 405, 422, 503]);
    const health = viaMsw[SEQUENCE.findIndex((step) => step.path === '/_fakehands/health')]!;
    expect(health).toEqual({ status: 200, body: '{"status":"ok"}' });
  });
});
