/**
 * Why a request missed: a 404 no route has names the routes nearest its path, a 405 the methods
 * its path allows, a 422 the fields refused and what they expected; in the journal entry, in
 * `GET /_fakehands/requests?misses=true`, and in the standalone server's request log. The answer
 * itself stays the real server's, byte for byte (FastAPI's `http_exception_handler`,
 * fastapi/exception_handlers.py, for Starlette's 404 of `Router.not_found` and 405 of `Route.handle`
 * with its `Allow` header, starlette/routing.py; `request_validation_exception_handler` for a 422).
 */
import * as z from 'zod/mini';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake, type JournalEntry } from '../../src/index.js';
import { createFakeServer, type RequestLogLine } from '../../src/server/http-server.js';
import { editDistance, explainInvalid, explainNoRoute, nearestRoutes } from '../../src/http/misses.js';
import { defineRoute, type Method } from '../../src/http/route.js';
import { startCli, eventually } from '../support/cli.js';

const BASE = 'http://localhost:3000';

/** A fake with no key checked, and what a request to it answers: status, the headers a client reads, the body's bytes. */
async function fakeAnswering() {
  const fake = await createFake({ auth: 'none', fixture: 'empty' });
  const send = async (method: string, path: string, body?: string) => {
    const response = await fake.fetch(
      new Request(`${BASE}${path}`, { method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) }),
    );
    return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
  };
  return { fake, send };
}

/** The journal's misses, without their time (`seq`, `at` and `duration_ms` change from run to run). */
const missesOf = (fake: Fake, limit?: number) =>
  fake.journal.entries(limit, { misses: true }).map(({ method, path, query, status, miss }) => ({ method, path, query, status, miss }));

/** What `GET /_fakehands/requests?misses=true` answers, read through the fake's own control API. */
async function missesListed(fake: Fake, query = 'misses=true'): Promise<{ status: number; body: { requests: JournalEntry[] } }> {
  const response = await fake.fetch(new Request(`${BASE}/_fakehands/requests?${query}`));
  return { status: response.status, body: (await response.json()) as { requests: JournalEntry[] } };
}

/** A standalone server over `fake` on 127.0.0.1 port 0, with its request log kept; closed after the test. */
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});
async function serving(fake: Fake) {
  const lines: RequestLogLine[] = [];
  const server = createFakeServer(fake, { log: (line) => lines.push(line) });
  opened.push(server);
  const url = await server.listen(0, '127.0.0.1');
  const send = async (method: string, path: string, body?: string) => {
    const response = await fetch(`${url}${path}`, {
      method,
      ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
    });
    return {
      status: response.status,
      allow: response.headers.get('allow'),
      type: response.headers.get('content-type'),
      body: await response.text(),
    };
  };
  return { lines, send };
}

const NOT_FOUND = { status: 404, headers: { 'content-type': 'application/json' }, body: '{"detail":"Not Found"}' };

describe('GET /api/conversation (a typo of /api/conversations)', () => {
  const miss = 'no route GET /api/conversation; nearest: GET /api/conversations, POST /api/conversations, GET /api/shared-conversations';

  it("answers the real 404 as it is, and its journal entry names the nearest routes, the request's method first", async () => {
    const { fake, send } = await fakeAnswering();
    expect(await send('GET', '/api/conversation')).toEqual(NOT_FOUND);
    expect(missesOf(fake)).toEqual([{ method: 'GET', path: '/api/conversation', query: '', status: 404, miss }]);
  });

  it('is listed by GET /_fakehands/requests?misses=true with its miss', async () => {
    const { fake, send } = await fakeAnswering();
    await send('GET', '/api/conversation');
    const listed = await missesListed(fake);
    expect(listed.status).toBe(200);
    expect(listed.body.requests.map(({ path, status, miss: why }) => ({ path, status, miss: why }))).toEqual([
      { path: '/api/conversation', status: 404, miss },
    ]);
  });

  it('names the nearest routes in the request log line, the answer over the socket unchanged', async () => {
    const { fake } = await fakeAnswering();
    const { lines, send } = await serving(fake);
    expect(await send('GET', '/api/conversation')).toEqual({
      status: 404,
      allow: null,
      type: 'application/json',
      body: '{"detail":"Not Found"}',
    });
    expect(lines.map(({ duration_ms, ...line }) => line)).toEqual([{ method: 'GET', path: '/api/conversation', status: 404, miss }]);
  });
});

describe('GET /api/v1/app-conversation/search (a typo of /api/v1/app-conversations/search)', () => {
  const miss =
    'no route GET /api/v1/app-conversation/search; nearest: GET /api/v1/app-conversations/search, ' +
    'PATCH /api/v1/app-conversations/{conversation_id}, DELETE /api/v1/app-conversations/{conversation_id}';

  it('answers the real 404 as it is; the route it meant comes first, before routes whose {param} takes "search"', async () => {
    const { fake, send } = await fakeAnswering();
    expect(await send('GET', '/api/v1/app-conversation/search?limit=5')).toEqual(NOT_FOUND);
    expect(missesOf(fake)).toEqual([{ method: 'GET', path: '/api/v1/app-conversation/search', query: '?limit=5', status: 404, miss }]);
  });

  it('says so in the request log and in ?misses=true', async () => {
    const { fake } = await fakeAnswering();
    const { lines, send } = await serving(fake);
    expect((await send('GET', '/api/v1/app-conversation/search')).body).toBe('{"detail":"Not Found"}');
    expect(lines.map((line) => line.miss)).toEqual([miss]);
    expect((await missesListed(fake)).body.requests.map((entry) => entry.miss)).toEqual([miss]);
  });
});

describe('PUT /api/conversations (a method the path does not allow)', () => {
  const miss = 'PUT not allowed on /api/conversations; it allows POST, GET';

  it('answers the real 405 with its Allow header as it is, and the miss names every method the path allows', async () => {
    const { fake, send } = await fakeAnswering();
    expect(await send('PUT', '/api/conversations')).toEqual({
      status: 405,
      headers: { allow: 'POST', 'content-type': 'application/json' },
      body: '{"detail":"Method Not Allowed"}',
    });
    expect(missesOf(fake)).toEqual([{ method: 'PUT', path: '/api/conversations', query: '', status: 405, miss }]);
  });

  it("names the nearest routes of the request's method when a {param} route took the path (a typo of /search)", async () => {
    const { fake, send } = await fakeAnswering();
    expect((await send('GET', '/api/v1/sandboxes/serach')).status).toBe(405);
    expect(missesOf(fake).map((entry) => entry.miss)).toEqual([
      'GET not allowed on /api/v1/sandboxes/serach; it allows DELETE; nearest GET: GET /api/v1/sandboxes/search, GET /api/v1/sandbox-specs/search, GET /api/v1/sandboxes',
    ]);
  });

  it('says so in the request log, the answer over the socket unchanged', async () => {
    const { fake } = await fakeAnswering();
    const { lines, send } = await serving(fake);
    expect(await send('PUT', '/api/conversations')).toEqual({
      status: 405,
      allow: 'POST',
      type: 'application/json',
      body: '{"detail":"Method Not Allowed"}',
    });
    expect(lines.map(({ duration_ms, ...line }) => line)).toEqual([{ method: 'PUT', path: '/api/conversations', status: 405, miss }]);
  });
});

describe('POST /api/v1/app-conversations (a bad body)', () => {
  const body = '{"initial_message": 5, "title": 7}';
  const detail =
    '{"detail":[{"type":"model_attributes_type","loc":["body","initial_message"],"msg":"Input should be a valid dictionary or object to extract fields from","input":5},' +
    '{"type":"string_type","loc":["body","title"],"msg":"Input should be a valid string","input":7}]}';
  const miss =
    'invalid body.initial_message: Input should be a valid dictionary or object to extract fields from (model_attributes_type); ' +
    'body.title: Input should be a valid string (string_type)';

  it("answers FastAPI's 422 as it is, and the miss names each field, what it expected and the error's type", async () => {
    const { fake, send } = await fakeAnswering();
    expect(await send('POST', '/api/v1/app-conversations', body)).toEqual({
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: detail,
    });
    expect(missesOf(fake)).toEqual([{ method: 'POST', path: '/api/v1/app-conversations', query: '', status: 422, miss }]);
  });

  it("adds a JSON error's reason, and names a bad query parameter as query.NAME", async () => {
    const { fake, send } = await fakeAnswering();
    await send('POST', '/api/v1/app-conversations', '{bad');
    await send('GET', '/api/v1/sandboxes/search?limit=0');
    expect(missesOf(fake).map((entry) => entry.miss)).toEqual([
      'invalid body.1: JSON decode error (json_invalid: Expecting property name enclosed in double quotes)',
      'invalid query.limit: Input should be greater than 0 (greater_than)',
    ]);
  });

  it('says so in the request log, the 422 over the socket unchanged', async () => {
    const { fake } = await fakeAnswering();
    const { lines, send } = await serving(fake);
    expect(await send('POST', '/api/v1/app-conversations', body)).toEqual({
      status: 422,
      allow: null,
      type: 'application/json',
      body: detail,
    });
    expect(lines.map(({ duration_ms, ...line }) => line)).toEqual([
      { method: 'POST', path: '/api/v1/app-conversations', status: 422, miss },
    ]);
  });
});

describe('GET /_fakehands/requests?misses=true', () => {
  it('lists only the misses, the last `limit` of them; answered requests carry no miss in either list', async () => {
    const { fake, send } = await fakeAnswering();
    await send('GET', '/api/v1/sandboxes/search');
    await send('GET', '/api/conversation');
    await send('GET', '/api/v1/sandbox-specs/search');
    await send('PUT', '/api/conversations');
    await send('GET', '/api/v1/sandboxes/search?limit=0');
    const all = await fake.fetch(new Request(`${BASE}/_fakehands/requests`));
    const entries = ((await all.json()) as { requests: JournalEntry[] }).requests;
    expect(entries.map((entry) => [entry.status, 'miss' in entry])).toEqual([
      [200, false],
      [404, true],
      [200, false],
      [405, true],
      [422, true],
    ]);
    const listed = await missesListed(fake, 'misses=true&limit=2');
    expect(listed.body.requests.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['PUT', '/api/conversations', 405],
      ['GET', '/api/v1/sandboxes/search', 422],
    ]);
    expect((await missesListed(fake, 'misses=false')).body.requests).toHaveLength(5);
  });

  it('leaves out a 404 a route answers (a sandbox not found): it found its route', async () => {
    const { fake, send } = await fakeAnswering();
    expect(await send('POST', '/api/v1/sandboxes/nope/pause')).toEqual(NOT_FOUND);
    expect((await missesListed(fake)).body.requests).toEqual([]);
  });

  it('refuses a misses that is not a boolean with a FastAPI 422', async () => {
    const { fake } = await fakeAnswering();
    const response = await fake.fetch(new Request(`${BASE}/_fakehands/requests?misses=maybe`));
    expect([response.status, await response.json()]).toEqual([
      422,
      {
        detail: [
          {
            type: 'bool_parsing',
            loc: ['query', 'misses'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      },
    ]);
  });
});

describe('misses through msw setupServer (in process)', () => {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('answers as the real server does, and fake.journal and the control API name why', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty' });
    server.use(...fake.handlers);
    const typo = await fetch(`${BASE}/api/conversation`);
    expect([typo.status, await typo.text()]).toEqual([404, '{"detail":"Not Found"}']);
    const method = await fetch(`${BASE}/api/conversations`, { method: 'PUT' });
    expect([method.status, method.headers.get('allow'), await method.text()]).toEqual([405, 'POST', '{"detail":"Method Not Allowed"}']);
    const misses = [
      'no route GET /api/conversation; nearest: GET /api/conversations, POST /api/conversations, GET /api/shared-conversations',
      'PUT not allowed on /api/conversations; it allows POST, GET',
    ];
    expect(fake.journal.entries(undefined, { misses: true }).map((entry) => entry.miss)).toEqual(misses);
    const listed = (await (await fetch(`${BASE}/_fakehands/requests?misses=true`)).json()) as { requests: JournalEntry[] };
    expect(listed.requests.map((entry) => entry.miss)).toEqual(misses);
  });

  it('names the nearest routes of the agent host for a typo there', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty', agentUrl: 'http://127.0.0.1:8011' });
    server.use(...fake.handlers);
    const typo = await fetch('http://127.0.0.1:8011/api/conversation/search');
    expect([typo.status, await typo.text()]).toEqual([404, '{"detail":"Not Found"}']);
    const [entry] = fake.journal.entries(undefined, { misses: true });
    expect(entry!.miss).toMatch(/^no route GET \/api\/conversation\/search; nearest: GET \/api\/conversations\/search, /);
  });
});

describe('the request log of fakehands serve', () => {
  it('ends the line of a miss with why, in parentheses; --log json has it as "miss"', async () => {
    const cli = await startCli([]);
    await fetch(`${cli.url}/api/conversation`);
    await eventually(() => cli.stdout().includes('GET /api/conversation 404'));
    expect(cli.stdout()).toMatch(
      /^GET \/api\/conversation 404 \d+\.\d ms \(no route GET \/api\/conversation; nearest: GET \/api\/conversations, POST \/api\/conversations, GET \/api\/shared-conversations\)$/m,
    );
    const json = await startCli(['--log', 'json']);
    await fetch(`${json.url}/api/conversations`, { method: 'PUT' });
    await eventually(() => json.stdout().includes('"msg":"request"'));
    const line = JSON.parse(
      json
        .stdout()
        .split('\n')
        .find((l) => l.includes('"msg":"request"'))!,
    ) as Record<string, unknown>;
    expect(line).toEqual({
      level: 'info',
      msg: 'request',
      method: 'PUT',
      path: '/api/conversations',
      status: 405,
      duration_ms: expect.any(Number),
      miss: 'PUT not allowed on /api/conversations; it allows POST, GET',
    });
  });
});

describe('nearestRoutes and the lines of a miss', () => {
  const route = (method: Method, path: string) =>
    defineRoute({ method, path, summary: path, response: z.object({}), handle: async () => ({}) });
  const table = [
    route('GET', '/items/:item_id'),
    route('GET', '/items/search'),
    route('POST', '/items'),
    route('GET', '/items'),
    route('GET', '/files/:path*'),
    route('GET', '/health'),
  ];
  const named = (method: string, path: string) => nearestRoutes(table, method, path).map((r) => `${r.method} ${r.path}`);

  it('lets a {param} take any segment, ranks by the edits on the differing literal, then the same method, then fewer parameters', () => {
    expect(named('GET', '/item/search')).toEqual(['GET /items/search', 'GET /items/:item_id']);
    expect(named('GET', '/itmes')).toEqual(['GET /items', 'POST /items']);
    expect(named('POST', '/itmes')).toEqual(['POST /items', 'GET /items']);
  });

  it('names at most three, and none when every route differs in more than half the path', () => {
    expect(named('GET', '/items/search/x')).toHaveLength(3);
    expect(named('GET', '/nothing/like')).toEqual([]);
    expect(explainNoRoute(table, 'GET', '/nothing')).toBe('no route GET /nothing; no route is near');
  });

  it('counts a rest parameter as taking every segment after it', () => {
    expect(named('GET', '/file/a/b/c')).toEqual(['GET /files/:path*']);
  });

  it('keeps a line one line and bounded, whatever the path or the keys of a body', () => {
    const long = explainNoRoute(table, 'GET', `/${'x'.repeat(20_000)}`);
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long.startsWith(`no route GET /${'x'.repeat(100)}`)).toBe(true);
    const keyed = explainInvalid([{ type: 'missing', loc: ['body', 'a\nb'], msg: 'Field required', input: {} }]);
    expect(keyed).toBe('invalid body.a\\u000ab: Field required (missing)');
    const many = Array.from({ length: 5 }, (_, i) => ({ type: 'missing', loc: ['body', `f${i}`], msg: 'Field required', input: {} }));
    expect(explainInvalid(many)).toBe(
      'invalid body.f0: Field required (missing); body.f1: Field required (missing); body.f2: Field required (missing); +2 more',
    );
  });

  it('counts edits as Levenshtein does, and stops past a limit', () => {
    expect([editDistance('kitten', 'sitting'), editDistance('', 'abc'), editDistance('search', 'search')]).toEqual([3, 3, 0]);
    expect(editDistance('aaaaaaaaaa', 'bbbbbbbbbb', 3)).toBe(4);
  });
});
