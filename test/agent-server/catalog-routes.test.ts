/**
 * What the agent server 1.58.2 offers for configuring an agent, on the agent host: the tool and
 * skill catalogs, a plugin fetched without installing it, the repositories a git token reaches,
 * the models of an ACP server, and the backend routes of a Canvas App. Each describe names the
 * real function it copies; the answers are those the real server gave to the same requests (where
 * it reached no network, as here).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

let servers: FakeServers;

/** A request to the agent host: its status and JSON body. */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${servers.agentUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
});
afterAll(async () => servers.close());
afterEach(async () => servers.fake.reset());

describe('GET /api/tools/catalog (tool_router.py, get_tool_catalog)', () => {
  it('lists the tools a client may pick, whether the host can run each (no browser in the fake) and the default set', async () => {
    const { status, body } = await call('GET', '/api/tools/catalog');
    expect(status).toBe(200);
    const tools = (body as { tools: { name: string; user_selectable: boolean; usable: boolean; in_default_set: boolean }[] }).tools;
    expect(tools.filter((t) => t.in_default_set).map((t) => t.name)).toEqual([
      'terminal',
      'file_editor',
      'task_tracker',
      'browser_tool_set',
    ]);
    expect(tools.find((t) => t.name === 'browser_tool_set')).toMatchObject({ user_selectable: true, usable: false });
    expect(tools.every((t) => Object.keys(t).sort().join() === 'description,in_default_set,name,usable,user_selectable')).toBe(true);
  });
});

describe('GET /api/skills/catalog (skills_router.py, get_skill_catalog)', () => {
  it("lists the skills a launch can load, each public or the user's own (installed)", async () => {
    const skills = ((await call('GET', '/api/skills/catalog')).body as { skills: { name: string; origin: string }[] }).skills;
    expect(skills.map((s) => [s.name, s.origin])).toEqual([
      ['github', 'user'],
      ['docker', 'user'],
      ['kubernetes', 'public'],
      ['code-review', 'public'],
    ]);
  });
});

describe('POST /api/plugins/fetch (plugins_router.py, fetch_plugin_endpoint)', () => {
  it("pins a marketplace plugin without installing it; 422 invalid_plugin where there is none; 502 for a source out of reach, in the real handler's 5xx body", async () => {
    expect(
      await call('POST', '/api/plugins/fetch', { source: 'github:OpenHands/extensions', repo_path: 'plugins/release-notes' }),
    ).toMatchObject({
      status: 200,
      body: {
        source: 'github:OpenHands/extensions',
        repo_path: 'plugins/release-notes',
        resolved_ref: 'main',
        manifest: { name: 'release-notes' },
      },
    });
    expect(((await call('GET', '/api/plugins/installed')).body as { plugins: { name: string }[] }).plugins.map((p) => p.name)).toEqual([
      'code-review',
    ]);
    expect(await call('POST', '/api/plugins/fetch', { source: '/tmp/nope' })).toEqual({
      status: 422,
      body: { detail: { code: 'invalid_plugin', message: 'Invalid plugin: plugin.json not found.' } },
    });
    expect(await call('POST', '/api/plugins/fetch', { source: 'https://git.example.com/plugins.git' })).toMatchObject({
      status: 502,
      body: { detail: 'Internal Server Error', exception: expect.stringMatching(/^502: \{'code': 'source_unavailable', 'message': /) },
    });
    expect(await call('POST', '/api/plugins/fetch', {})).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'source'] }] },
    });
  });
});

describe('GET /api/git/repositories/search (git_router.py, git_repositories_search; git_provider_service.py)', () => {
  it('answers missing_token without a GitHub token among the secrets; with one, the repositories by name a page at a time; 400 for another provider', async () => {
    expect(await call('GET', '/api/git/repositories/search?provider=github')).toEqual({
      status: 200,
      body: { items: [], next_page_id: null, missing_token: true },
    });
    expect(await call('GET', '/api/git/repositories/search?provider=gitlab')).toEqual({
      status: 400,
      body: { detail: "Repository discovery is not supported for provider 'gitlab'" },
    });
    expect(await call('GET', '/api/git/repositories/search')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'provider'] }] },
    });
    expect((await call('PUT', '/api/settings/secrets', { name: 'GITHUB_TOKEN', value: 'ghp_fake' })).status).toBe(200);
    const all = (await call('GET', '/api/git/repositories/search?provider=github')).body as {
      items: { full_name: string }[];
      missing_token: boolean;
    };
    expect(all.missing_token).toBe(false);
    expect(all.items.length).toBeGreaterThan(1);
    const first = (await call('GET', '/api/git/repositories/search?provider=github&limit=1')).body as {
      items: unknown[];
      next_page_id: string;
    };
    expect(first).toMatchObject({ items: [all.items[0]], next_page_id: '1:1' });
    expect((await call('GET', `/api/git/repositories/search?provider=github&limit=1&page_id=${first.next_page_id}`)).body).toMatchObject({
      items: [all.items[1]],
    });
    const name = all.items[0]!.full_name;
    const found = (await call('GET', `/api/git/repositories/search?provider=github&query=${name.toUpperCase()}`)).body as {
      items: { full_name: string }[];
    };
    expect(found.items.map((r) => r.full_name)).toContain(name);
  });
});

describe('POST /api/acp/models (acp_router.py, discover_models)', () => {
  it('answers the spawn error of an ACP server the fake does not start; 422 without agent settings', async () => {
    expect(await call('POST', '/api/acp/models', { agent_settings: { agent_kind: 'acp', acp_server: 'codex' } })).toEqual({
      status: 200,
      body: {
        agent_name: null,
        agent_version: null,
        current_model_id: null,
        available_models: [],
        supports_runtime_model_switch: false,
        error: { code: 'ACPSpawnError', detail: 'The fake starts no ACP server process' },
      },
    });
    expect(await call('POST', '/api/acp/models', {})).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'agent_settings'] }] },
    });
  });
});

describe("A Canvas App's backend: /api/canvas-extensions/installed/{name}/backend/*, /icon, /app-backends/{name}/session (canvas_extensions_router.py, canvas_extensions_bridge_router.py)", () => {
  it('answers an app that is not installed as missing, its logs empty, its icon 404; a browser session 503 without an app ingress', async () => {
    const missing = {
      name: 'notes',
      state: 'missing',
      revision: null,
      prepared_revision: null,
      pid: null,
      port: null,
      detail: 'Canvas App is not installed or its manifest is invalid',
    };
    const base = '/api/canvas-extensions/installed/notes';
    expect(await call('GET', `${base}/backend`)).toEqual({ status: 200, body: missing });
    expect(await call('POST', `${base}/backend/prepare`, { revision: 'r1' })).toEqual({ status: 200, body: missing });
    expect(await call('POST', `${base}/backend/start`, { revision: 'r1' })).toEqual({ status: 200, body: missing });
    expect(await call('POST', `${base}/backend/stop`)).toEqual({ status: 200, body: missing });
    expect(await call('DELETE', `${base}/backend/data`)).toEqual({ status: 200, body: missing });
    expect(await call('POST', `${base}/backend/prepare`, {})).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'revision'] }] },
    });
    expect(await call('GET', `${base}/backend/logs`)).toEqual({ status: 200, body: { name: 'notes', logs: '', truncated: false } });
    expect(await call('GET', `${base}/backend/logs?limit_bytes=0`)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'greater_than_equal', loc: ['query', 'limit_bytes'] }] },
    });
    expect(await call('GET', `${base}/icon`)).toEqual({ status: 404, body: { detail: "Canvas extension 'notes' icon not found" } });
    for (const method of ['POST', 'DELETE'])
      expect(await call(method, '/app-backends/notes/session')).toEqual({
        status: 503,
        body: { detail: 'Internal Server Error', exception: '503: Canvas App backend ingress is not configured' },
      });
  });
});
