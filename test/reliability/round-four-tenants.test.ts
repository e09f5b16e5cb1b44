/**
 * Reliability, round four (issue 29), tenants, cookies and secrets: each finding reproduced as a
 * test first — a malformed tenant cookie, secrets the state missed, a live tenant dropped as idle,
 * tenants that shared their ids and keys — and what now holds instead.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startFakeServers } from '../../src/server.js';

const KEY = 'round-four-key';

/** One raw HTTP/1.1 request over a socket, answered with its status and body (a socket upgrade included). */
function raw(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, url), { headers });
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('upgrade', (response, socket) => { socket.destroy(); resolve({ status: response.statusCode ?? 0, body: '' }); });
    req.on('error', reject);
    req.end();
  });
}

describe('a malformed fakehands_tenant cookie (finding 4)', () => {
  const MALFORMED = ['%', '%E0%A4%A', '%ZZ'];

  it('finding 4: answers 400 with a FastAPI detail naming the cookie on every route, health and the agent host included, never 500', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      for (const value of MALFORMED) {
        const cookie = `other=1; fakehands_tenant=${value}`;
        for (const [base, path] of [[servers.url, '/health'], [servers.url, '/api/v1/sandboxes/search'], [servers.url, '/_fakehands/state'], [servers.agentUrl, '/alive'], [servers.agentUrl, '/api/conversations/x/events/search']] as const) {
          const response = await fetch(`${base}${path}`, { headers: { cookie, 'x-session-api-key': KEY } });
          expect([value, path, response.status]).toEqual([value, path, 400]);
          expect(await response.json()).toEqual({ detail: `Invalid tenant name ${JSON.stringify(value)}: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit` });
        }
      }
      // Nothing was created, and the fake still answers.
      expect((await (await fetch(`${servers.url}/_fakehands/tenants`, { headers: { 'x-session-api-key': KEY } })).json())).toMatchObject({ tenants: [] });
      expect((await fetch(`${servers.url}/health`)).status).toBe(200);
    } finally {
      await servers.close();
    }
  });

  it('finding 4: a socket upgrade with one gets a clean HTTP 400 answer, not a hang-up', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      for (const value of MALFORMED) {
        const answer = await raw(servers.agentUrl, '/sockets/events/abc?session_api_key=x', {
          connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', cookie: `fakehands_tenant=${value}`,
        });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({ detail: `Invalid tenant name ${JSON.stringify(value)}: 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit` });
      }
    } finally {
      await servers.close();
    }
  });

  it('finding 4: a well-formed percent-encoded cookie still names its tenant', async () => {
    const servers = await startFakeServers({ fake: { apiKey: KEY, fixture: 'empty', timings: 'instant' } });
    try {
      const response = await fetch(`${servers.url}/api/v1/sandboxes`, { method: 'POST', headers: { cookie: 'fakehands_tenant=worker%2D1', 'x-session-api-key': KEY } });
      expect(response.status).toBe(200);
      expect(((await (await fetch(`${servers.url}/_fakehands/tenants`, { headers: { 'x-session-api-key': KEY } })).json()) as { tenants: { name: string }[] }).tenants.map((t) => t.name)).toEqual(['worker-1']);
    } finally {
      await servers.close();
    }
  });
});

describe('ids and session keys of tenants (finding 10)', () => {
  const BASE = 'http://localhost:3000';
  const AGENT = 'http://localhost:3001';
  type Core = Awaited<ReturnType<typeof createFake>>;
  /** Starts a conversation on `core` and waits for it: its id and its sandbox's session key. */
  const conversationOf = async (core: Core | Awaited<ReturnType<Core['tenant']>>) => {
    const task = await (await core.fetch(new Request(`${BASE}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Hello' }] } }) }))).json() as { id: string };
    const [ready] = await (await core.fetch(new Request(`${BASE}/api/v1/app-conversations/start-tasks?ids=${task.id}`))).json() as { app_conversation_id: string }[];
    const [conversation] = await (await core.fetch(new Request(`${BASE}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`))).json() as { id: string; sandbox_id: string; session_api_key: string }[];
    return conversation!;
  };

  it("finding 10: a tenant's conversation and sandbox ids and session key are not the default tenant's, and its key opens nothing there", async () => {
    const fake = await createFake({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });
    const mine = await conversationOf(fake);
    const theirs = await conversationOf(await fake.tenant('ta'));
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.sandbox_id).not.toBe(mine.sandbox_id);
    expect(theirs.session_api_key).not.toBe(mine.session_api_key);
    // The agent host without a tenant is the default tenant's: ta's key opens none of its conversations.
    const opened = await fake.fetch(new Request(`${AGENT}/api/conversations/${mine.id}`, { headers: { 'x-session-api-key': theirs.session_api_key } }));
    expect(opened.status).toBe(401);
    const own = await fake.fetch(new Request(`${AGENT}/api/conversations/${mine.id}`, { headers: { 'x-session-api-key': mine.session_api_key } }));
    expect(own.status).toBe(200);
  });

  it("finding 10: the fixture's sandboxes have session keys of each tenant's own, the same each time the tenant is made", async () => {
    const fake = await createFake({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'default', timings: 'instant' });
    const keysOf = async (core: Core | Awaited<ReturnType<Core['tenant']>>) => (await core.snapshot()).sandboxes.map((s) => s.session_api_key);
    const mine = await keysOf(fake);
    const ta = await keysOf(await fake.tenant('ta'));
    const tb = await keysOf(await fake.tenant('tb'));
    expect(mine.length).toBeGreaterThan(0);
    expect(ta).toHaveLength(mine.length);
    expect(new Set([...mine, ...ta, ...tb]).size).toBe(mine.length * 3);
    // Deterministic: the same tenant, made again (or reset), has the same keys and draws the same ids.
    const first = await conversationOf(await fake.tenant('ta'));
    expect(await (await fake.fetch(new Request(`${BASE}/_fakehands/tenants/ta`, { method: 'DELETE' }))).json()).toEqual({ deleted: true });
    expect(await keysOf(await fake.tenant('ta'))).toEqual(ta);
    expect((await conversationOf(await fake.tenant('ta'))).id).toBe(first.id);
    await (await fake.tenant('ta')).reset();
    expect(await keysOf(await fake.tenant('ta'))).toEqual(ta);
    // The default tenant is the fake as it always was: the fixture's own keys.
    expect(mine).toEqual((await createFake({ baseUrl: BASE, fixture: 'default' }).then((f) => f.snapshot())).sandboxes.map((s) => s.session_api_key));
  });
});
