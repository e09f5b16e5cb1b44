/**
 * Hostile input, generated: for every endpoint, malformed and truncated JSON, wrong types at every
 * field, unknown fields, huge strings, deep nesting, unicode and control characters, empty and
 * non-JSON bodies with and without Content-Type, random and overlong query values, random path ids.
 * Properties: never a 5xx or a crash; every error body has a documented shape; a rejected request
 * leaves the state exactly as it was. Fixed seed, bounded runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/index.js';
import { apiRoutes as routes } from '../../src/surfaces/app-server/routes/all.js';
import type { Route } from '../../src/http/route.js';
import type * as z from 'zod/mini';
import { ERROR_RESPONSES } from '../../src/http/status.js';

const SEED = 20_261_122;
const RUNS = Number(process.env.FAKEHANDS_PROPERTY_RUNS ?? 300);
const KEY = 'hostile-key';
const BASE = 'http://localhost:3000';
/** Statuses the API may answer with, each with its body shape: 200, and the one table of error answers. */
const DOCUMENTED: Record<number, z.ZodMiniType | null> = {
  200: null,
  ...Object.fromEntries(Object.entries(ERROR_RESPONSES).map(([status, { schema }]) => [status, schema])),
};

/** Field names a route's body schema knows, to aim wrong types at them. */
function bodyFields(route: Route): string[] {
  const shape = (route.body as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}
function queryFields(route: Route): string[] {
  const shape = (route.query as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\u001f\u007f',
    '\ud800',
    '😀'.repeat(50),
    '../../etc/passwd',
    '%00',
    'null',
    'NaN',
    '-1',
    '0',
    '101',
    '1e309',
    'x'.repeat(100_000),
  ),
);
const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), nasty, fc.constantFrom(-1, 0, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, true, null));
const pathId = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '%2F',
    '%2e%2e',
    'a%2Fb',
    '%E0%A4%A',
    '%00',
    'x'.repeat(5_000),
    'oh-agent-server-nope',
    '00000000-0000-4000-8000-000000000000',
  ),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  fc.uuid(),
);

const body = (route: Route) =>
  fc.oneof(
    fc.constant<string | undefined>(undefined),
    fc.constant(''),
    fc.string({ maxLength: 60 }), // not JSON, mostly
    fc
      .record({ depth: fc.integer({ min: 1, max: 20_000 }), open: fc.constantFrom('[', '{"a":') })
      .map(({ depth, open }) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth)),
    fc
      .dictionary(fc.constantFrom(...bodyFields(route), 'unknown_field', '__proto__', 'constructor'), anyJson, { maxKeys: 6 })
      .map((o) => JSON.stringify(o)),
    fc.tuple(fc.dictionary(fc.constantFrom(...bodyFields(route), 'x'), anyJson, { maxKeys: 4 }), fc.nat()).map(([o, cut]) => {
      const text = JSON.stringify(o);
      return text.slice(0, cut % Math.max(1, text.length)); // truncated
    }),
    anyJson.map((v) => JSON.stringify(v)),
  );

const query = (route: Route) =>
  fc
    .array(
      fc.tuple(fc.oneof(fc.constantFrom(...queryFields(route), 'id', 'ids', 'limit', 'page_id'), fc.string({ maxLength: 10 })), nasty),
      { maxLength: 5 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [key, value] of pairs) params.append(key, value.length > 10_000 ? value.slice(0, 10_000) : value);
      const text = params.toString();
      return text ? `?${text}` : '';
    });

const request = fc.constantFrom(...routes).chain((route) =>
  fc.record({
    method: fc.oneof(fc.constant(route.method), fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS')),
    path: fc.array(pathId, { minLength: 3, maxLength: 3 }).map(([a]) => route.path.replace(/:\w+/g, () => a!)),
    query: query(route),
    body: body(route),
    contentType: fc.constantFrom<string | undefined>(
      'application/json',
      'text/plain',
      undefined,
      'application/x-www-form-urlencoded',
      'application/vnd.api+json',
    ),
    key: fc.constantFrom<string | null>(KEY, KEY, KEY, null, 'wrong', `${KEY}x`),
  }),
);

async function send(
  fake: Fake,
  r: fc.Arbitrary<unknown> extends never
    ? never
    : { method: string; path: string; query: string; body: string | undefined; contentType: string | undefined; key: string | null },
) {
  const headers: Record<string, string> = {};
  if (r.key !== null) headers['x-session-api-key'] = r.key;
  if (r.contentType) headers['content-type'] = r.contentType;
  const withBody = r.body !== undefined && r.method !== 'GET';
  return fake.fetch(new Request(`${BASE}${r.path}${r.query}`, { method: r.method, headers, body: withBody ? r.body : undefined }));
}

describe('hostile input, in-process, for every endpoint', () => {
  it('never answers 5xx, always in a documented shape, and a rejected request changes nothing', async () => {
    const fake = await createFake({ apiKey: KEY, checkResponses: true, timings: 'instant' });
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const before = await fake.snapshot();
        const response = await send(fake, r);
        const status = response.status;
        expect(Object.keys(DOCUMENTED).map(Number)).toContain(status);
        const text = await response.text();
        const schema = DOCUMENTED[status];
        if (schema) {
          expect(schema.safeParse(JSON.parse(text)).success).toBe(true);
          expect(await fake.snapshot()).toEqual(before);
          rejected++;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    expect(rejected).toBeGreaterThan(RUNS / 2);
  });

  it('answers a body nested deeper than 512 levels with 422 json_invalid, not a crash', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    const deep = `{"processors": [${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    const response = await fake.fetch(
      new Request(`${BASE}/api/v1/app-conversations`, {
        method: 'POST',
        headers: { 'x-session-api-key': KEY, 'content-type': 'application/json' },
        body: deep,
      }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        { type: 'json_invalid', loc: ['body', 526], msg: 'JSON decode error', input: {}, ctx: { error: 'Nesting deeper than 512 levels' } },
      ],
    });
  });

  it('treats ids with dots, encoded slashes and 5,000 characters as unknown ids or paths', async () => {
    const fake = await createFake({ apiKey: KEY, fixture: 'empty' });
    for (const id of ['..', '%2F', 'a%2Fb', '%E0%A4%A', 'x'.repeat(5000)]) {
      const response = await fake.fetch(
        new Request(`${BASE}/api/v1/sandboxes/${id}/pause`, { method: 'POST', headers: { 'x-session-api-key': KEY } }),
      );
      expect([404, 405]).toContain(response.status);
    }
  });
});
