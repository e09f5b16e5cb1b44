/**
 * The request pipeline: its stages run in the documented order (route → auth → faults → parse →
 * handle → check), and the contract check stops an answer that breaks its route's schema.
 */
import * as z from 'zod/mini';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { createFake, FakehandsError } from '../../src/index.js';
import { defineRoute } from '../../src/http/route.js';
import { answer } from '../../src/http/pipeline.js';
import { createFaults, type Fault } from '../../src/instance/faults.js';
import { Fault as FaultSchema } from '../../src/schemas/control.js';
import { createJournal } from '../../src/instance/journal.js';
import type { Instance } from '../../src/instance/instance.js';
import { defineSurface } from '../../src/surfaces/surface.js';
import { fastApiRefusal } from '../../src/http/fastapi-refusal.js';

const BASE = 'http://localhost:3000';
const KEY = 'pipeline-key';

/** A route whose operation answers `body`, declared to answer `{ ok: true }`. */
function pipelineAnswering(body: unknown, checkResponses: boolean) {
  const route = defineRoute({
    method: 'GET',
    path: '/api/v1/probe',
    summary: 'A probe',
    response: z.object({ ok: z.literal(true) }),
    handle: async () => body as { ok: true },
  });
  const instance = {
    faults: createFaults(),
    journal: createJournal(),
    options: { checkResponses },
    nextLatency: () => 0,
  } as unknown as Instance;
  const surface = defineSurface({
    name: 'probe',
    routes: [route],
    authorize: () => null,
    refusalAnswer: fastApiRefusal,
    faultable: true,
    journaled: true,
  });
  return { answer: (request: Request) => answer(instance, surface, new URL(request.url).pathname, request) };
}

const request = (path: string, key: string | null = KEY, method = 'GET') =>
  new Request(`${BASE}${path}`, { method, headers: key === null ? {} : { 'x-session-api-key': key } });

describe('stage check (checkResponses)', () => {
  it('lets an answer that matches its schema through', async () => {
    const answer = await pipelineAnswering({ ok: true }, true).answer(request('/api/v1/probe'));
    expect([answer.status, answer.body]).toEqual([200, '{"ok":true}']);
  });

  it('throws a contract_violation naming the route and the bad field when an answer breaks its schema', async () => {
    const failure = await pipelineAnswering({ ok: 'yes' }, true)
      .answer(request('/api/v1/probe'))
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FakehandsError);
    expect((failure as FakehandsError).code).toBe('contract_violation');
    expect((failure as FakehandsError).message).toContain('GET /api/v1/probe with a 200 body that does not match its schema: ok:');
  });

  it('answers whatever the operation returned when checks are off', async () => {
    const answer = await pipelineAnswering({ ok: 'yes' }, false).answer(request('/api/v1/probe'));
    expect([answer.status, answer.body]).toEqual([200, '{"ok":"yes"}']);
  });
});

describe('stage order', () => {
  it('checks the key before any fault: a keyless request is 401 and leaves the fault for the next caller', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'all' });
    fake.faults.add({ kind: 'status', path: '/api/v1/sandboxes/search', status: 503 });
    const refused = await fake.fetch(request('/api/v1/sandboxes/search', null));
    expect([refused.status, await refused.json()]).toEqual([401, { detail: 'Unauthorized' }]);
    expect(fake.faults.list()).toHaveLength(1);
    const faulted = await fake.fetch(request('/api/v1/sandboxes/search'));
    expect([faulted.status, await faulted.json()]).toEqual([503, { detail: 'Injected fault' }]);
  });

  it('routes before faults: a fault never turns an unknown path into anything but 404', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    fake.faults.add({ kind: 'status', path: '/api/v1/nothing', status: 503 });
    expect((await fake.fetch(request('/api/v1/nothing'))).status).toBe(404);
  });

  it('injects faults before validation: a faulted request with a bad body answers the fault', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    fake.faults.add({ kind: 'status', method: 'POST', path: '/api/conversations', status: 500, body: { detail: 'down' } });
    const answer = await fake.fetch(
      new Request(`${BASE}/api/conversations`, {
        method: 'POST',
        headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
        body: '{',
      }),
    );
    expect([answer.status, await answer.json()]).toEqual([500, { detail: 'down' }]);
  });
});

describe('the control API and /openapi.json in-process', () => {
  it('fake.fetch answers GET /_fakehands/health with 200 and no key', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const answer = await fake.fetch(request('/_fakehands/health', null));
    expect([answer.status, await answer.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('lists under GET /_fakehands/faults the fault fake.faults.add returned, in the shape the control API documents', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const added = fake.faults.add({ kind: 'delay', path: '/api/v1/sandboxes/search', delay_ms: 5, times: 2 });
    expect(added).toEqual({
      kind: 'delay',
      method: '*',
      path: '/api/v1/sandboxes/search',
      delay_ms: 5,
      times: 2,
      sticky: false,
      id: 1,
      remaining: 2,
    });
    const listed = (await (await fake.fetch(request('/_fakehands/faults'))).json()) as { faults: unknown[] };
    expect(listed.faults).toEqual([added]);
    expect(FaultSchema.parse(listed.faults[0])).toEqual(added);
    // The in-process type (schemas/faults.ts) and the control API's schema (schemas/control.ts) are one shape.
    expectTypeOf<Fault>().toEqualTypeOf<z.output<typeof FaultSchema>>();
  });

  it('fake.fetch serves the OpenAPI document of the API routes only', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const document = (await (await fake.fetch(request('/openapi.json', null))).json()) as {
      paths: Record<string, unknown>;
      servers: unknown;
    };
    expect(Object.keys(document.paths)).toContain('/api/v1/sandboxes/search');
    expect(Object.keys(document.paths).filter((p) => p.startsWith('/_fakehands') || p === '/openapi.json')).toEqual([]);
    expect(document.servers).toEqual([{ url: '/' }]);
  });

  it('needs the key for the rest of the control API, and changes state through it', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'default' });
    expect((await fake.fetch(request('/_fakehands/state', null))).status).toBe(401);
    const reset = await fake.fetch(
      new Request(`${BASE}/_fakehands/reset`, {
        method: 'POST',
        headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
        body: '{"fixture": "empty"}',
      }),
    );
    expect([reset.status, await reset.json()]).toEqual([200, { status: 'ok' }]);
    expect((await fake.snapshot()).sandboxes).toEqual([]);
  });

  it('answers a bad control body with a FastAPI 422 at the real offset, as the API does', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const answer = await fake.fetch(
      new Request(`${BASE}/_fakehands/clock`, {
        method: 'POST',
        headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
        body: '{"advance_ms": }',
      }),
    );
    expect([answer.status, await answer.json()]).toEqual([
      422,
      {
        detail: [{ type: 'json_invalid', loc: ['body', 15], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } }],
      },
    ]);
  });

  it('resets only to a fixture by name, never to a path, and a failed reset changes nothing', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const reset = (body: string) =>
      fake.fetch(
        new Request(`${BASE}/_fakehands/reset`, {
          method: 'POST',
          headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
          body,
        }),
      );
    const path = await reset('{"fixture": "/etc/passwd"}');
    expect(path.status).toBe(422);
    expect(((await path.json()) as { detail: { type: string; loc: unknown[] }[] }).detail.map((e) => [e.type, e.loc])).toEqual([
      ['string_pattern_mismatch', ['body', 'fixture']],
    ]);
    const unknown = await reset('{"fixture": "passwd"}');
    expect(await unknown.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'fixture'],
          msg: 'Value error, Failed to load the fixture "passwd": no such fixture (the built-in ones are "default" and "empty"; start the server with --fixtures-dir to load others by name). Fix the fixture, or pass fixture: "default" or "empty".',
          input: 'passwd',
          ctx: { error: {} },
        },
      ],
    });
    expect((await fake.snapshot()).sandboxes).toEqual([]);
    expect((await reset('{}')).status).toBe(200);
  });
});

describe('transports in-process (msw setupServer)', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('an unexpected exception in an operation is a 500 {"detail": "Internal Server Error"}, journaled, and the fake goes on answering', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'none' });
    server.use(...fake.handlers);
    // A change listener that throws makes the operation that published the change fail unexpectedly.
    const stop = fake.onChange(() => {
      throw new Error('listener exploded');
    });
    const failed = await fetch(`${BASE}/api/v1/sandboxes`, { method: 'POST' });
    expect([failed.status, await failed.json()]).toEqual([500, { detail: 'Internal Server Error' }]);
    stop();
    expect(fake.journal.entries().map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/api/v1/sandboxes', 500]]);
    expect((await fetch(`${BASE}/api/v1/sandboxes/search`)).status).toBe(200);
  });

  it("the journal records the app's requests and skips the control API and /openapi.json", async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'none' });
    server.use(...fake.handlers);
    await fetch(`${BASE}/api/v1/sandboxes/search`);
    await fetch(`${BASE}/_fakehands/health`);
    await fetch(`${BASE}/_fakehands/faults`);
    await fetch(`${BASE}/_fakehands/requests`);
    await fetch(`${BASE}/openapi.json`);
    await fetch(`${BASE}/api/v1/nothing`);
    expect(fake.journal.entries().map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/api/v1/sandboxes/search', 200],
      ['GET', '/api/v1/nothing', 404],
    ]);
  });

  it('a network fault makes fetch reject (a TypeError, as a dropped connection does), once', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'none' });
    server.use(...fake.handlers);
    fake.faults.add({ kind: 'network', path: '/api/v1/sandboxes/search' });
    await expect(fetch(`${BASE}/api/v1/sandboxes/search`)).rejects.toThrow(TypeError);
    expect((await fetch(`${BASE}/api/v1/sandboxes/search`)).status).toBe(200);
  });

  it('a delay fault holds the answer until its delay has passed, while other requests are answered', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'none' });
      server.use(...fake.handlers);
      fake.faults.add({ kind: 'delay', path: '/api/v1/sandboxes/search', delay_ms: 60_000 });
      let settled = false;
      const delayed = fetch(`${BASE}/api/v1/sandboxes/search`).then((r) => {
        settled = true;
        return r;
      });
      expect((await fetch(`${BASE}/api/v1/sandbox-specs/search`)).status).toBe(200);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await delayed).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('no fault reaches the control API, so a sticky fault on every path never locks it', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty', auth: 'none' });
    server.use(...fake.handlers);
    fake.faults.add({ kind: 'status', path: '/*', status: 503, sticky: true });
    expect((await fetch(`${BASE}/api/v1/sandboxes/search`)).status).toBe(503);
    expect((await fetch(`${BASE}/_fakehands/health`)).status).toBe(200);
    const cleared = await fetch(`${BASE}/_fakehands/faults`, { method: 'DELETE' });
    expect([cleared.status, await cleared.json()]).toEqual([200, { cleared: 1 }]);
    expect((await fetch(`${BASE}/api/v1/sandboxes/search`)).status).toBe(200);
  });
});
