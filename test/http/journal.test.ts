/**
 * The control API's request journal: `GET /_fakehands/journal` (the documented name) lists the last
 * requests answered and, with `?misses=true`, only the 404s, 405s and 422s with why;
 * `DELETE /_fakehands/journal` forgets them. `/_fakehands/requests`, the name it had first, is the
 * same route under another path: the same query, the same answers, the same journal.
 */
import { describe, expect, it } from 'vitest';
import { createFake, type Fake, type JournalEntry } from '../../src/index.js';

const BASE = 'http://localhost:3000';

/** A fake with no key checked, after a run of requests: two answered, a 404, a 405 and a 422. */
async function fakeAfterRequests(): Promise<Fake> {
  const fake = await createFake({ auth: 'none', fixture: 'empty' });
  for (const [method, path] of [
    ['GET', '/api/v1/sandboxes/search'],
    ['GET', '/api/conversation'],
    ['GET', '/api/v1/sandbox-specs/search'],
    ['PUT', '/api/conversations'],
    ['GET', '/api/v1/sandboxes/search?limit=0'],
  ] as const)
    await fake.fetch(new Request(`${BASE}${path}`, { method }));
  return fake;
}

/** What a control route answers: status and parsed body. */
async function control(fake: Fake, method: string, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fake.fetch(new Request(`${BASE}/_fakehands${path}`, { method }));
  return { status: response.status, body: await response.json() };
}

/** The entries' method, path, status and miss (their times change from run to run). */
const lasting = (body: unknown) =>
  (body as { requests: JournalEntry[] }).requests.map(({ method, path, status, miss }) => ({ method, path, status, miss }));

describe('GET /_fakehands/journal', () => {
  it('lists the last requests answered, each miss with why', async () => {
    const fake = await fakeAfterRequests();
    const answer = await control(fake, 'GET', '/journal?limit=3');
    expect(answer.status).toBe(200);
    expect(lasting(answer.body)).toEqual([
      { method: 'GET', path: '/api/v1/sandbox-specs/search', status: 200, miss: undefined },
      { method: 'PUT', path: '/api/conversations', status: 405, miss: 'PUT not allowed on /api/conversations; it allows POST, GET' },
      {
        method: 'GET',
        path: '/api/v1/sandboxes/search',
        status: 422,
        miss: 'invalid query.limit: Input should be greater than 0 (greater_than)',
      },
    ]);
  });

  it('lists only the misses with ?misses=true', async () => {
    const fake = await fakeAfterRequests();
    const answer = await control(fake, 'GET', '/journal?misses=true');
    expect([answer.status, lasting(answer.body).map((entry) => [entry.method, entry.path, entry.status])]).toEqual([
      200,
      [
        ['GET', '/api/conversation', 404],
        ['PUT', '/api/conversations', 405],
        ['GET', '/api/v1/sandboxes/search', 422],
      ],
    ]);
  });

  it('answers exactly as GET /_fakehands/requests, its earlier name, for every query', async () => {
    const fake = await fakeAfterRequests();
    for (const query of ['', '?misses=true', '?misses=true&limit=2', '?limit=1', '?misses=maybe', '?limit=0'])
      expect(await control(fake, 'GET', `/journal${query}`), query).toEqual(await control(fake, 'GET', `/requests${query}`));
  });

  it('refuses a misses that is not a boolean with a FastAPI 422', async () => {
    const fake = await fakeAfterRequests();
    expect(await control(fake, 'GET', '/journal?misses=maybe')).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'bool_parsing',
            loc: ['query', 'misses'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      },
    });
  });
});

describe('DELETE /_fakehands/journal', () => {
  it('forgets the journal, under either name', async () => {
    const fake = await fakeAfterRequests();
    expect(await control(fake, 'DELETE', '/journal')).toEqual({ status: 200, body: { cleared: true } });
    expect(await control(fake, 'GET', '/requests')).toEqual({ status: 200, body: { requests: [] } });
    await fake.fetch(new Request(`${BASE}/api/conversation`));
    expect(await control(fake, 'DELETE', '/requests')).toEqual({ status: 200, body: { cleared: true } });
    expect(await control(fake, 'GET', '/journal')).toEqual({ status: 200, body: { requests: [] } });
  });
});
