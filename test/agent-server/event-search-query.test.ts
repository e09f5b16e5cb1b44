/**
 * The event search's quick read of its query (`surfaces/agent-server/event-search-query.ts`, issue
 * 31) is a shortcut of the route's query schema (and its check of the conversation id, of the path schema): through the pipeline's parse stage, every query
 * gives what the schema alone gives (the same values, key for key and in the same order, or the
 * same 422 items), and every query the schema refuses is left to it. Queries: the common ones, then
 * every pair of parameters with values valid and not, written plainly and encoded.
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/fake.js';
import { parseRequest } from '../../src/http/parse.js';
import type { Route } from '../../src/http/route.js';
import { conversationParamFastPath, eventSearchQueryFastPath } from '../../src/surfaces/agent-server/event-search-query.js';
import { agentServerSurface } from '../../src/surfaces/agent-server/index.js';
import { agentRoutes } from '../../src/surfaces/agent-server/routes.js';

const AGENT = 'http://localhost:3001';
const ID = '5d2b58b3-3a0f-4b8e-9c57-3a9c3a4c2f10';
const search = agentRoutes.find((r) => r.method === 'GET' && r.path === '/api/conversations/:conversation_id/events/search')!;
const schemaOnly: Route = { ...search, queryFastPath: undefined, paramsFastPath: undefined };

/** Keys of every object in a value, in order, with their paths: two values with the same outline were written in the same key order. */
function outline(value: unknown, path = '$'): string[] {
  if (value === null || typeof value !== 'object') return [`${path}=${typeof value}`];
  const keys = Object.keys(value);
  return [
    `${path}:${Array.isArray(value) ? 'list' : 'map'}[${keys.join(',')}]`,
    ...keys.flatMap((key) => outline((value as Record<string, unknown>)[key], `${path}.${key}`)),
  ];
}

const COMMON = ['?limit=20', '?limit=100', '?limit=1', '?sort_order=TIMESTAMP_DESC', '?page_id=abc-1&limit=5', '?kind=MessageEvent'];

const KEYS = [
  'limit',
  'page_id',
  'sort_order',
  'kind',
  'source',
  'body',
  'timestamp__gte',
  'timestamp__lt',
  'Limit',
  'other',
  '',
  'li%6Dit',
];
const VALUES = [
  '',
  '0',
  '1',
  '20',
  '99',
  '100',
  '101',
  '020',
  '+5',
  ' 5',
  '-1',
  '5.0',
  '1e2',
  'x',
  'TIMESTAMP',
  'TIMESTAMP_DESC',
  'timestamp',
  'agent',
  'MessageEvent',
  'a.b~c_d-e',
  '2026-01-01T00:00:00',
  'not a date',
  '%32%30',
  '20%20',
  'a+b',
  'a%2Bb',
  'caf%C3%A9',
  '%ZZ',
  '=',
  'a=b',
  '\u00e9',
];

/** The common queries, every parameter with every value, every pair of two, repeats, and odd separators. */
function queries(): string[] {
  const out = [...COMMON, '', '?', '?&', '?limit', '?limit=20&', '?&limit=20', '?limit=20&&sort_order=TIMESTAMP', '?limit=20#frag', '?=&='];
  const pairs = KEYS.flatMap((key) => VALUES.map((value) => `${key}=${value}`));
  for (const pair of pairs) out.push(`?${pair}`);
  const few = [
    'limit=20',
    'limit=0',
    'limit=5',
    'page_id=p1',
    'page_id=',
    'sort_order=TIMESTAMP_DESC',
    'sort_order=x',
    'kind=K',
    'source=user',
    'body=hi',
    'timestamp__lt=2026-01-01T00:00:00Z',
    'x=1',
  ];
  for (const a of few) for (const b of few) out.push(`?${a}&${b}`);
  for (const a of few) for (const b of few) out.push(`?${a}&${b}&limit=7`);
  return out;
}

/** What the parse stage gives `query` on the event search: with its quick read, or with the schema alone. */
async function parse(route: Route, query: string, id = ID) {
  const url = new URL(`${AGENT}/api/conversations/${encodeURIComponent(id)}/events/search${query}`);
  const request = { method: 'GET', url: url.href, headers: new Headers(), text: async () => '' };
  return parseRequest(route, request as never, url, { conversation_id: id }, agentServerSurface.parseHelpers);
}

describe('GET /api/conversations/{id}/events/search: the quick read of the query', () => {
  it('gives what the schema gives, key for key, for every query it takes, and takes none the schema refuses', async () => {
    let taken = 0;
    let refused = 0;
    for (const query of queries()) {
      const url = new URL(`${AGENT}/x${query}`);
      const fast = url.search === '' ? undefined : eventSearchQueryFastPath(url.search);
      const full = await parse(schemaOnly, query);
      const both = await parse(search, query);
      // Through the parse stage the answer is the schema's, whichever way the query went.
      expect(both, query).toStrictEqual(full);
      if (full.ok) expect(outline(both.ok && both.query), query).toEqual(outline(full.query));
      if (!full.ok) refused++;
      if (fast === undefined) continue;
      taken++;
      expect(full.ok, query).toBe(true);
      expect(fast, query).toStrictEqual(full.ok && full.query);
      expect(outline(fast), query).toEqual(outline(full.ok && full.query));
    }
    // Both sides are exercised: the common queries go the quick way, and many queries are refused.
    expect(taken).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('takes the conversation id quickly only when the path schema takes it, with the same answer either way', async () => {
    const hex = ID.replaceAll('-', '');
    const ids = [
      ID,
      hex,
      ID.toUpperCase(),
      `urn:uuid:${ID}`,
      `${ID.slice(0, 8).toUpperCase()}${ID.slice(8)}`,
      hex.slice(1),
      `${hex}0`,
      `${ID}-`,
      ID.replace('-', ''),
      ID.replace('5', 'g'),
      hex.replace('5', 'z'),
      'not-a-uuid',
      '',
      `${hex} `,
    ];
    let taken = 0;
    for (const id of ids) {
      const full = await parse(schemaOnly, '?limit=20', id);
      expect(await parse(search, '?limit=20', id), id).toStrictEqual(full);
      if (!conversationParamFastPath({ conversation_id: id })) continue;
      taken++;
      expect(full.ok, id).toBe(true);
    }
    expect(taken).toBe(2);
  });

  it('takes each common query', () => {
    for (const query of COMMON) expect(eventSearchQueryFastPath(query), query).toBeDefined();
    expect(eventSearchQueryFastPath('?limit=20')).toStrictEqual({ limit: 20, sort_order: 'TIMESTAMP' });
  });

  it('answers a search read the quick way as one the schema read', async () => {
    const fake = await createFakeCore({
      baseUrl: 'http://localhost:3000',
      agentUrl: AGENT,
      auth: 'none',
      fixture: 'empty',
      timings: 'instant',
    });
    const created = await fake.fetch(
      new Request(`${AGENT}/api/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          agent: { kind: 'Agent', llm: { model: 'm' } },
          workspace: { working_dir: '/w' },
          initial_message: { role: 'user', content: [{ type: 'text', text: 'hello' }] },
        }),
      }),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const get = async (query: string) => {
      const response = await fake.fetch(new Request(`${AGENT}/api/conversations/${id}/events/search${query}`));
      return { status: response.status, body: await response.text() };
    };
    // The same search, once with a parameter only the schema reads (unknown, so ignored).
    const quick = await get('?limit=1&sort_order=TIMESTAMP_DESC');
    const checked = await get('?limit=1&sort_order=TIMESTAMP_DESC&unknown=1');
    expect(quick.status).toBe(200);
    expect(quick.body).toBe(checked.body);
    expect((JSON.parse(quick.body) as { items: unknown[] }).items).toHaveLength(1);
    const refused = await get('?limit=101');
    expect(refused.status).toBe(422);
  });
});
