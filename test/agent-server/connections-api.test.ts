/**
 * The newest agent server's LLM provider connections, ChatGPT subscription sign-in and desktop URL
 * on the agent host, standalone (node:http) and in process (msw). Each describe names the real
 * openhands-agent-server file and function it copies (software-agent-sdk, Aug 2026).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

type Answer = { status: number; body: unknown };
let servers: FakeServers;

const call = async (path: string, init: { method?: string; body?: unknown; base?: string } = {}): Promise<Answer> => {
  const response = await fetch(`${init.base ?? servers.agentUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: await response.json() };
};
const CONNECTIONS = '/api/llm/provider-connections';
const connection = { display_name: 'Team OpenAI', provider: 'openai', api_key: 'sk-team-secret', base_url: 'https://llm.example.com/v1' };

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none', clock: 'manual' } });
});
afterAll(async () => {
  await servers.close();
});
afterEach(async () => {
  await servers.fake.reset();
});

describe('GET /api/llm/provider-connections (provider_connections_router.py, list_provider_connections)', () => {
  it('answers the saved connections in the order they were made, without their keys', async () => {
    expect(await call(CONNECTIONS)).toEqual({ status: 200, body: [] });
    const first = (await call(CONNECTIONS, { method: 'POST', body: connection })).body as { id: string };
    const second = (await call(CONNECTIONS, { method: 'POST', body: { display_name: 'Local', api_key: 'k' } })).body as { id: string };
    const { status, body } = await call(CONNECTIONS);
    expect(status).toBe(200);
    expect((body as { id: string }[]).map((c) => c.id)).toEqual([first.id, second.id]);
    expect(JSON.stringify(body)).not.toContain('sk-team-secret');
  });
});

describe('POST /api/llm/provider-connections (provider_connections_router.py, create_provider_connection)', () => {
  it('answers 201 with a hex id, the provider "custom" by default, epoch-second times and api_key_set, never the key', async () => {
    const { status, body } = await call(CONNECTIONS, { method: 'POST', body: { display_name: 'Local', api_key: 'sk-local' } });
    expect(status).toBe(201);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      display_name: 'Local',
      provider: 'custom',
      base_url: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      api_key_set: true,
    });
    const { created_at } = body as { created_at: number };
    expect(created_at).toBe(Math.floor(servers.fake.clock.now() / 1000));
  });

  it('refuses unknown fields, an empty key and a missing display name with 422 and stores nothing', async () => {
    const extra = await call(CONNECTIONS, { method: 'POST', body: { ...connection, model: 'gpt-5' } });
    expect(extra).toEqual({
      status: 422,
      body: { detail: [{ type: 'extra_forbidden', loc: ['body', 'model'], msg: 'Extra inputs are not permitted', input: 'gpt-5' }] },
    });
    const empty = await call(CONNECTIONS, { method: 'POST', body: { display_name: 'X', api_key: '' } });
    expect(empty.status).toBe(422);
    expect((empty.body as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['body', 'api_key']);
    const missing = await call(CONNECTIONS, { method: 'POST', body: { api_key: 'k' } });
    expect((missing.body as { detail: { type: string; loc: string[] }[] }).detail[0]).toMatchObject({
      type: 'missing',
      loc: ['body', 'display_name'],
    });
    expect((await call(CONNECTIONS)).body).toEqual([]);
  });

  it('refuses the 65th connection with 409 (MAX_PROVIDER_CONNECTIONS, provider_connection_store.py)', async () => {
    for (let i = 0; i < 64; i++)
      expect((await call(CONNECTIONS, { method: 'POST', body: { display_name: `c${i}`, api_key: 'k' } })).status).toBe(201);
    expect(await call(CONNECTIONS, { method: 'POST', body: { display_name: 'one more', api_key: 'k' } })).toEqual({
      status: 409,
      body: { detail: 'Provider connection limit reached (64). Delete one before adding another.' },
    });
    expect((await call(CONNECTIONS)).body).toHaveLength(64);
  });
});

describe('PATCH /api/llm/provider-connections/{connection_id} (provider_connections_router.py, update_provider_connection)', () => {
  it('changes only the fields sent, clears base_url with null, rotates the key, and moves updated_at', async () => {
    const made = (await call(CONNECTIONS, { method: 'POST', body: connection })).body as { id: string; created_at: number };
    servers.fake.clock.advance(5000);
    const { status, body } = await call(`${CONNECTIONS}/${made.id}`, {
      method: 'PATCH',
      body: { display_name: 'Team', base_url: null, api_key: 'sk-rotated' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: made.id, display_name: 'Team', provider: 'openai', base_url: null, api_key_set: true });
    expect((body as { updated_at: number }).updated_at).toBeGreaterThanOrEqual(made.created_at + 5);
    expect((body as { created_at: number }).created_at).toBe(made.created_at);
  });

  it('answers the real errors: nothing to change (422, a sentence), a key cleared (422), display_name null (422, pydantic), unknown id (404)', async () => {
    const made = (await call(CONNECTIONS, { method: 'POST', body: connection })).body as { id: string };
    expect(await call(`${CONNECTIONS}/${made.id}`, { method: 'PATCH', body: {} })).toEqual({
      status: 422,
      body: { detail: 'Provide at least one provider connection field to update' },
    });
    expect(await call(`${CONNECTIONS}/${made.id}`, { method: 'PATCH', body: { api_key: null } })).toEqual({
      status: 422,
      body: { detail: 'api_key cannot be cleared; provide a new key to rotate it' },
    });
    const nulled = await call(`${CONNECTIONS}/${made.id}`, { method: 'PATCH', body: { display_name: null } });
    expect(nulled.status).toBe(422);
    expect((nulled.body as { detail: { msg: string }[] }).detail[0]!.msg).toBe('Value error, display_name cannot be set to null');
    expect(await call(`${CONNECTIONS}/0123456789abcdef0123456789abcdef`, { method: 'PATCH', body: { provider: 'x' } })).toEqual({
      status: 404,
      body: { detail: "Provider connection '0123456789abcdef0123456789abcdef' not found" },
    });
    expect(((await call(CONNECTIONS)).body as { display_name: string }[])[0]!.display_name).toBe('Team OpenAI');
  });
});

describe('DELETE /api/llm/provider-connections/{connection_id} (provider_connections_router.py, delete_provider_connection)', () => {
  it('answers the deleted connection with api_key_set false, then 404', async () => {
    const made = (await call(CONNECTIONS, { method: 'POST', body: connection })).body as { id: string };
    const { status, body } = await call(`${CONNECTIONS}/${made.id}`, { method: 'DELETE' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: made.id, display_name: 'Team OpenAI', api_key_set: false });
    expect(await call(`${CONNECTIONS}/${made.id}`, { method: 'DELETE' })).toEqual({
      status: 404,
      body: { detail: `Provider connection '${made.id}' not found` },
    });
  });

  it('refuses with 409 while an LLM profile names it (_raise_if_connection_is_referenced); the profile reads as broken once it is gone', async () => {
    const made = (await call(CONNECTIONS, { method: 'POST', body: connection })).body as { id: string };
    const llm = { model: 'openai/gpt-5-2025-08-07', provider_connection_id: made.id };
    expect((await call('/api/profiles/team', { method: 'POST', body: { llm } })).status).toBe(201);
    expect(await call(`${CONNECTIONS}/${made.id}`, { method: 'DELETE' })).toEqual({
      status: 409,
      body: {
        detail:
          'Provider connection cannot be deleted while it is referenced by LLM profile(s): team. Update those references before deleting it.',
      },
    });
    const listed = (await call('/api/profiles')).body as { profiles: { name: string; provider_connection_id: string | null }[] };
    expect(listed.profiles.find((p) => p.name === 'team')).toMatchObject({
      provider_connection_id: made.id,
      provider_connection_broken: false,
    });
    expect((await call('/api/profiles/team', { method: 'DELETE' })).status).toBe(200);
    expect((await call(`${CONNECTIONS}/${made.id}`, { method: 'DELETE' })).status).toBe(200);
  });
});

describe('/api/llm/subscription/openai/* (llm_router.py: the ChatGPT subscription sign-in)', () => {
  it('lists the Codex models, sorted (list_openai_subscription_models; _CODEX_MODELS in acp_providers.py)', async () => {
    expect(await call('/api/llm/subscription/openai/models')).toEqual({
      status: 200,
      body: { vendor: 'openai', models: ['gpt-5.4', 'gpt-5.4-mini', 'gpt-5.5', 'gpt-5.6', 'gpt-5.6-luna', 'gpt-5.6-sol', 'gpt-5.6-terra'] },
    });
  });

  it('signs in by device code: not connected until the user has entered the code (one interval on the clock), then connected, no token answered; logout forgets it', async () => {
    const signedOut = { vendor: 'openai', connected: false, account_email: null, expires_at: null };
    expect(await call('/api/llm/subscription/openai/status')).toEqual({ status: 200, body: signedOut });
    const start = await call('/api/llm/subscription/openai/device/start', { method: 'POST' });
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[A-Z0-9]{4}-[A-Z0-9]{5}$/),
      verification_uri: 'https://auth.openai.com/codex/device',
      verification_uri_complete: null,
      expires_at: servers.fake.clock.now() + 900_000,
      interval_seconds: 5,
    });
    const { device_code } = start.body as { device_code: string };
    const poll = () => call('/api/llm/subscription/openai/device/poll', { method: 'POST', body: { device_code } });
    // Polled at once: still pending (the login is kept).
    expect(await poll()).toEqual({ status: 200, body: signedOut });
    servers.fake.clock.advance(5000);
    const connected = await poll();
    expect(connected.body).toEqual({
      vendor: 'openai',
      connected: true,
      account_email: null,
      expires_at: servers.fake.clock.now() + 3_600_000,
    });
    expect((await call('/api/llm/subscription/openai/status')).body).toEqual(connected.body);
    // The login is used up.
    expect(await poll()).toEqual({ status: 404, body: { detail: 'Subscription device login not found or expired' } });
    expect(await call('/api/llm/subscription/openai/logout', { method: 'POST' })).toEqual({ status: 200, body: signedOut });
    expect((await call('/api/llm/subscription/openai/status')).body).toEqual(signedOut);
  });

  it('answers 404 for an unknown device code, one that expired (15 minutes) and one dropped by logout; 422 without a device_code', async () => {
    const notFound = { status: 404, body: { detail: 'Subscription device login not found or expired' } };
    const poll = (device_code: string) => call('/api/llm/subscription/openai/device/poll', { method: 'POST', body: { device_code } });
    expect(await poll('made-up')).toEqual(notFound);
    const first = (await call('/api/llm/subscription/openai/device/start', { method: 'POST' })).body as { device_code: string };
    servers.fake.clock.advance(900_000);
    expect(await poll(first.device_code)).toEqual(notFound);
    const second = (await call('/api/llm/subscription/openai/device/start', { method: 'POST' })).body as { device_code: string };
    await call('/api/llm/subscription/openai/logout', { method: 'POST' });
    expect(await poll(second.device_code)).toEqual(notFound);
    const bad = await call('/api/llm/subscription/openai/device/poll', { method: 'POST', body: {} });
    expect(bad).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'device_code'], msg: 'Field required', input: {} }] },
    });
  });
});

describe('GET /api/desktop/url (desktop_router.py, get_desktop_url)', () => {
  it('answers 503: the desktop is off, as in the default config (enable_vnc false)', async () => {
    expect(await call('/api/desktop/url?base_url=http://localhost:8002')).toEqual({
      status: 503,
      body: { detail: 'Desktop is disabled in configuration. Set enable_vnc=true to enable.' },
    });
  });
});

describe('in process (msw)', () => {
  it('the same connections and sign-in answer through the msw handlers', async () => {
    const fake = await createFake({ timings: 'instant', fixture: 'empty', auth: 'none', agentUrl: 'http://agent.test', clock: 'manual' });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const base = 'http://agent.test';
      const made = await call(CONNECTIONS, { method: 'POST', body: connection, base });
      expect(made).toMatchObject({ status: 201, body: { display_name: 'Team OpenAI', api_key_set: true } });
      expect((await call(CONNECTIONS, { base })).body).toEqual([made.body]);
      const { device_code } = (await call('/api/llm/subscription/openai/device/start', { method: 'POST', base })).body as {
        device_code: string;
      };
      fake.clock.advance(5000);
      expect((await call('/api/llm/subscription/openai/device/poll', { method: 'POST', body: { device_code }, base })).body).toMatchObject({
        connected: true,
      });
      expect((await call('/api/desktop/url', { base })).status).toBe(503);
    } finally {
      server.close();
    }
  });
});
