/**
 * The newest agent server's MCP probes on the agent host (openhands-agent-server `mcp_router.py`,
 * software-agent-sdk, Aug 2026): test a candidate server, and the install-time OAuth probe.
 * Standalone (node:http) and in process (msw).
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
const test = (body: unknown) => call('/api/mcp/test', { method: 'POST', body });
const oauthServer = { type: 'http', url: 'https://mcp.example.com/mcp', auth: { strategy: 'oauth2' } };

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none', clock: 'manual' } });
});
afterAll(async () => {
  await servers.close();
});
afterEach(async () => {
  await servers.fake.reset();
});

describe('POST /api/mcp/test (mcp_router.py, test_mcp_server)', () => {
  it('answers ok with the tools of a remote server that connects, and of a stdio server started with a launcher', async () => {
    expect(await test({ server: { type: 'shttp', url: 'https://mcp.example.com/mcp' } })).toEqual({
      status: 200,
      body: { ok: true, tools: ['fetch', 'list_resources', 'search'] },
    });
    // A native MCPServer (no `type`): `transport`, else stdio for a command (_normalize_native_server_transport).
    expect((await test({ server: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-fetch'] } })).body).toMatchObject({
      ok: true,
    });
    expect((await test({ server: { transport: 'sse', url: 'https://mcp.example.com/sse' } })).body).toMatchObject({ ok: true });
  });

  it('answers 200 with ok false and the error kind when the server cannot be reached (a failure is an expected outcome)', async () => {
    expect(await test({ server: { type: 'http', url: 'https://mcp.unreachable.invalid/mcp' } })).toEqual({
      status: 200,
      body: { ok: false, error: "[Errno -2] Name or service not known: 'mcp.unreachable.invalid'", error_kind: 'connection' },
    });
    expect(await test({ server: { type: 'stdio', command: 'mcp-server-github' } })).toEqual({
      status: 200,
      body: { ok: false, error: "[Errno 2] No such file or directory: 'mcp-server-github'", error_kind: 'connection' },
    });
  });

  it("runs the requested tool call, or answers _run_tool_call's error text for a tool the server does not advertise", async () => {
    const server = { type: 'http', url: 'https://mcp.example.com/mcp' };
    expect((await test({ server, tool_call: { name: 'search', arguments: { q: 'x' } } })).body).toEqual({
      ok: true,
      tools: ['fetch', 'list_resources', 'search'],
      tool_result: { is_error: false, text: 'ok' },
    });
    expect(((await test({ server, tool_call: { name: 'post_message' } })).body as { tool_result: unknown }).tool_result).toEqual({
      is_error: true,
      text: "Tool 'post_message' not advertised by server (available: fetch, list_resources, search)",
    });
  });

  it("refuses a bad request with pydantic's items: an unknown type, a missing url, auth beside an Authorization header, a timeout over 120", async () => {
    expect(await test({ server: { type: 'websocket', url: 'wss://x' } })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'union_tag_invalid',
            loc: ['body', 'server'],
            msg: "Input tag 'websocket' found using 'type' does not match any of the expected tags: 'stdio', 'http', 'shttp', 'streamable-http', 'sse'",
            input: { type: 'websocket', url: 'wss://x' },
            ctx: { discriminator: "'type'", tag: 'websocket', expected_tags: "'stdio', 'http', 'shttp', 'streamable-http', 'sse'" },
          },
        ],
      },
    });
    expect(await test({ server: { type: 'sse' } })).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'server', 'sse', 'url'], msg: 'Field required', input: { type: 'sse' } }] },
    });
    const both = await test({ server: { ...oauthServer, headers: { Authorization: 'Bearer x' } } });
    expect(both.status).toBe(422);
    expect((both.body as { detail: { loc: unknown[]; msg: string }[] }).detail[0]).toMatchObject({
      loc: ['body', 'server', 'http'],
      msg: "Value error, 'auth' cannot be combined with an explicit top-level 'Authorization' header; use auth.strategy='header' instead.",
    });
    const slow = await test({ server: { type: 'http', url: 'https://mcp.example.com/mcp' }, timeout: 121 });
    expect((slow.body as { detail: { type: string; loc: unknown[] }[] }).detail[0]).toMatchObject({
      type: 'less_than_equal',
      loc: ['body', 'timeout'],
    });
  });
});

describe('/api/mcp/oauth/* (mcp_router.py: start_mcp_oauth, get_mcp_oauth_status, submit_mcp_oauth_callback)', () => {
  it('start hands out an authorization URL on the server naming its loopback callback; the callback with a code completes the probe', async () => {
    const start = await call('/api/mcp/oauth/start', { method: 'POST', body: { server: oauthServer } });
    expect(start.status).toBe(200);
    const { job_id, authorization_url } = start.body as { job_id: string; authorization_url: string };
    expect(start.body).toEqual({ ok: true, job_id: expect.stringMatching(/^[0-9a-f]{32}$/), authorization_url: expect.any(String) });
    const authorize = new URL(authorization_url);
    expect(authorize.origin + authorize.pathname).toBe('https://mcp.example.com/authorize');
    const redirect = authorize.searchParams.get('redirect_uri')!;
    expect(redirect).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(await call(`/api/mcp/oauth/status/${job_id}`)).toEqual({
      status: 200,
      body: { ok: true, status: 'authorizing', job_id, authorization_url, callback_ready: true },
    });
    const done = await call(`/api/mcp/oauth/callback/${job_id}`, {
      method: 'POST',
      body: { callback_url: `${redirect}?code=abc&state=s` },
    });
    expect(done).toEqual({
      status: 200,
      body: {
        ok: true,
        status: 'succeeded',
        job_id,
        authorization_url,
        callback_ready: true,
        tools: ['fetch', 'list_resources', 'search'],
      },
    });
    expect((await call(`/api/mcp/oauth/status/${job_id}`)).body).toEqual(done.body);
  });

  it('refuses what the real one refuses: no oauth2 auth (400), a callback off loopback (400) or on another port (400), an unknown or expired job (404)', async () => {
    expect(
      await call('/api/mcp/oauth/start', { method: 'POST', body: { server: { type: 'http', url: 'https://mcp.example.com/mcp' } } }),
    ).toEqual({
      status: 400,
      body: { detail: "MCP OAuth start requires auth.strategy='oauth2'" },
    });
    const { job_id, authorization_url } = (await call('/api/mcp/oauth/start', { method: 'POST', body: { server: oauthServer } })).body as {
      job_id: string;
      authorization_url: string;
    };
    const redirect = new URL(new URL(authorization_url).searchParams.get('redirect_uri')!);
    const callback = (callback_url: string) => call(`/api/mcp/oauth/callback/${job_id}`, { method: 'POST', body: { callback_url } });
    expect(await callback('https://evil.example.com/callback?code=x')).toEqual({
      status: 400,
      body: { detail: 'Invalid OAuth callback URL' },
    });
    expect(await callback(`http://localhost:${Number(redirect.port) + 1}/callback?code=x`)).toEqual({
      status: 400,
      body: { detail: 'Unexpected OAuth callback URL' },
    });
    // A redirect without a code: the callback server answers 400 and the probe reports it.
    expect((await callback(`${redirect.origin}/callback?error=access_denied`)).body).toMatchObject({
      ok: false,
      status: 'failed',
      error: 'OAuth callback returned HTTP 400',
      error_kind: 'connection',
    });
    expect(await call('/api/mcp/oauth/status/0123456789abcdef0123456789abcdef')).toEqual({
      status: 404,
      body: { detail: 'MCP OAuth job not found' },
    });
    servers.fake.clock.advance(15 * 60 * 1000 + 1);
    expect((await call(`/api/mcp/oauth/status/${job_id}`)).status).toBe(404);
  });

  it('answers ok false with the reason when the OAuth server cannot be reached', async () => {
    const start = await call('/api/mcp/oauth/start', {
      method: 'POST',
      body: { server: { ...oauthServer, url: 'https://down.invalid/mcp' } },
    });
    expect(start).toEqual({
      status: 200,
      body: {
        ok: false,
        job_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        error: "[Errno -2] Name or service not known: 'down.invalid'",
        error_kind: 'connection',
      },
    });
    const { job_id } = start.body as { job_id: string };
    expect((await call(`/api/mcp/oauth/status/${job_id}`)).body).toMatchObject({ ok: false, status: 'failed', callback_ready: false });
    expect(
      await call(`/api/mcp/oauth/callback/${job_id}`, { method: 'POST', body: { callback_url: 'http://localhost:3000/callback' } }),
    ).toEqual({
      status: 409,
      body: { detail: 'OAuth callback is not ready' },
    });
  });
});

describe('in process (msw)', () => {
  it('the MCP probe answers through the msw handlers', async () => {
    const fake = await createFake({ timings: 'instant', fixture: 'empty', auth: 'none', agentUrl: 'http://agent.test' });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      expect(
        await call('/api/mcp/test', {
          method: 'POST',
          body: { server: { type: 'http', url: 'https://mcp.example.com/mcp' } },
          base: 'http://agent.test',
        }),
      ).toEqual({ status: 200, body: { ok: true, tools: ['fetch', 'list_resources', 'search'] } });
    } finally {
      server.close();
    }
  });
});
