/**
 * The agent host's conversation routes the newest agent server added last (software-agent-sdk,
 * Aug 2026), in process (the fake's own pipeline, `fake.fetch`): a conversation's workspace as a
 * static web server (`workspace_router.py`, `serve_workspace_root`, `serve_workspace_file`, with
 * `dependencies.py`'s `check_workspace_session`), `load_plugin` (`conversation_router.py`,
 * `load_conversation_plugin`; openhands-sdk `local_conversation.py`, `load_plugin`, and
 * `marketplace/registry.py`, `resolve_plugin`), and the credential bindings
 * (`credential_binding.py`, `prepare_for_sandbox_pause`, `activate_credential_binding`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';

const BASE = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
const AGENT_SPEC = { kind: 'Agent', llm: { model: 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929' }, tools: [] };
const WORKSPACE = { working_dir: '/workspace/project' };
const NO_SUCH_ID = '0b1c2d3e-4f50-4172-8394-a5b6c7d8e9f0';

let fake: FakeCore | null = null;
afterEach(() => {
  fake = null;
});

/** A fake whose agent host answers at AGENT; `auth` none by default (then it takes any or no key). */
async function start(auth: 'none' | 'legacy' = 'none'): Promise<FakeCore> {
  fake = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth, fixture: 'empty', timings: 'instant', checkResponses: true });
  return fake;
}

type Answer = { status: number; body: unknown; type: string | null; headers: Headers };
/** One request on the fake: status, content type and body (JSON when it says so, else text). */
async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; form?: FormData } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const body = init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
  const response = await fake!.fetch(new Request(url, { method: init.method ?? 'GET', headers, body }));
  const type = response.headers.get('content-type');
  const text = await response.text();
  return {
    status: response.status,
    type,
    headers: response.headers,
    body: type?.includes('json') && text ? (JSON.parse(text) as unknown) : text,
  };
}
const key = (k: string) => ({ 'x-session-api-key': k });

/** Creates a conversation on the agent host (its agent runs on `message`); returns its id. */
async function create(extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<string> {
  const answer = await call(`${AGENT}/api/conversations`, {
    method: 'POST',
    headers,
    body: { agent: AGENT_SPEC, workspace: WORKSPACE, ...extra },
  });
  expect(answer.status).toBe(201);
  return (answer.body as { id: string }).id;
}

/** The session key of the one sandbox the fake runs. */
async function sandboxKey(): Promise<string> {
  const page = (await call(`${BASE}/api/v1/sandboxes/search`)).body as { items: { session_api_key: string; status: string }[] };
  return page.items.find((s) => s.status === 'RUNNING')!.session_api_key;
}

/** Uploads `text` at `path` on the sandbox `k` opens (`file_router.py`, upload_file_query). */
async function upload(k: string, path: string, text: string): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([text]), path.split('/').at(-1));
  expect((await call(`${AGENT}/api/file/upload?path=${encodeURIComponent(path)}`, { method: 'POST', headers: key(k), form })).status).toBe(
    200,
  );
}

describe('GET /api/conversations/{id}/workspace/{file_path} (workspace_router.py, serve_workspace_file)', () => {
  it("serves a file the agent wrote, with the type its name implies and Starlette's utf-8 charset", async () => {
    await start();
    const id = await create({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Write a plan' }], run: true } });
    const plan = await call(`${AGENT}/api/conversations/${id}/workspace/PLAN.md`);
    expect(plan).toMatchObject({ status: 200, type: 'text/markdown; charset=utf-8' });
    expect(plan.body).toMatch(/^# Plan\n\nTask: Write a plan\n/);
  });

  it("serves an uploaded page, a directory's index.html, and an image as bytes with its image type", async () => {
    await start();
    const id = await create();
    const k = await sandboxKey();
    await upload(k, '/workspace/project/report/index.html', '<h1>Report</h1>');
    await upload(k, '/workspace/project/report/chart.png', 'PNGDATA');
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/report/index.html`)).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<h1>Report</h1>',
    });
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/report`)).toMatchObject({ status: 200, body: '<h1>Report</h1>' });
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/report/chart.png`)).toMatchObject({
      status: 200,
      type: 'image/png',
      body: 'PNGDATA',
    });
  });

  it('answers 404 "No index.html in directory" for a directory without one, 404 "File not found" for a missing file', async () => {
    await start();
    const id = await create();
    await upload(await sandboxKey(), '/workspace/project/docs/a.txt', 'a');
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/docs`)).toMatchObject({
      status: 404,
      body: { detail: 'No index.html in directory' },
    });
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/docs/b.txt`)).toMatchObject({
      status: 404,
      body: { detail: 'File not found' },
    });
  });

  it('answers 400 "Path is outside the workspace" for a path that leaves it (.., or an absolute path elsewhere)', async () => {
    await start();
    const id = await create();
    for (const path of ['..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'a%2F..%2F..%2Fproject2%2Fx'])
      expect(await call(`${AGENT}/api/conversations/${id}/workspace/${path}`)).toEqual(
        expect.objectContaining({ status: 400, body: { detail: 'Path is outside the workspace' } }),
      );
  });

  it('answers 404 "Conversation not found: {id}" for a conversation the host does not hold, 422 for an id that is no UUID', async () => {
    await start();
    await create();
    expect(await call(`${AGENT}/api/conversations/${NO_SUCH_ID.replaceAll('-', '')}/workspace/a.txt`)).toMatchObject({
      status: 404,
      body: { detail: `Conversation not found: ${NO_SUCH_ID}` },
    });
    const bad = await call(`${AGENT}/api/conversations/nope/workspace/a.txt`);
    expect(bad.status).toBe(422);
    expect((bad.body as { detail: { loc: unknown[]; type: string }[] }).detail[0]).toMatchObject({
      loc: ['path', 'conversation_id'],
      type: 'uuid_parsing',
    });
  });

  it("takes the sandbox's key, or the workspace cookie POST /api/auth/workspace-session set (dependencies.py, check_workspace_session); 401 with neither", async () => {
    await start('legacy');
    const { id: sandbox } = (await call(`${BASE}/api/v1/sandboxes`, { method: 'POST', body: {} })).body as { id: string };
    let k = '';
    for (let i = 0; i < 200 && !k; i++) {
      const [s] = (await call(`${BASE}/api/v1/sandboxes?id=${sandbox}`)).body as { status: string; session_api_key: string }[];
      if (s!.status === 'RUNNING') k = s!.session_api_key;
      else await new Promise((r) => setTimeout(r, 10));
    }
    const id = await create({}, key(k));
    await upload(k, '/workspace/project/index.html', '<p>hi</p>');
    const root = `${AGENT}/api/conversations/${id}/workspace`;
    expect(await call(root)).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
    expect(await call(root, { headers: key(k) })).toMatchObject({ status: 200, body: '<p>hi</p>' });
    const session = await call(`${AGENT}/api/auth/workspace-session`, { method: 'POST', headers: key(k) });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/^oh_workspace_session_key=[0-9a-f]{32}$/);
    expect(await call(`${root}/`, { headers: { cookie } })).toMatchObject({ status: 200, body: '<p>hi</p>' });
    expect(await call(root, { headers: { cookie: 'oh_workspace_session_key=0123456789abcdef0123456789abcdef' } })).toMatchObject({
      status: 401,
    });
    // The cookie opens the workspace files alone, as the real one does: no other route honours it.
    expect(await call(`${AGENT}/api/conversations/${id}`, { headers: { cookie } })).toMatchObject({ status: 401 });
    // Its DELETE forgets the token: a copy of the cookie kept by a client opens nothing any more.
    const cleared = await call(`${AGENT}/api/auth/workspace-session`, { method: 'DELETE', headers: { ...key(k), cookie } });
    expect(cleared.headers.get('set-cookie')).toMatch(/^oh_workspace_session_key=""; Max-Age=0/);
    expect(await call(`${root}/`, { headers: { cookie } })).toMatchObject({ status: 401 });
    expect(await call(root, { headers: key(k) })).toMatchObject({ status: 200, body: '<p>hi</p>' });
  });

  it('remembers the newest 1,000 workspace sessions: the oldest cookie stops opening the files', async () => {
    await start('legacy');
    const { id: sandbox } = (await call(`${BASE}/api/v1/sandboxes`, { method: 'POST', body: {} })).body as { id: string };
    let k = '';
    for (let i = 0; i < 200 && !k; i++) {
      const [s] = (await call(`${BASE}/api/v1/sandboxes?id=${sandbox}`)).body as { status: string; session_api_key: string }[];
      if (s!.status === 'RUNNING') k = s!.session_api_key;
      else await new Promise((r) => setTimeout(r, 10));
    }
    const id = await create({}, key(k));
    await upload(k, '/workspace/project/index.html', 'hi');
    const mint = async () =>
      ((await call(`${AGENT}/api/auth/workspace-session`, { method: 'POST', headers: key(k) })).headers.get('set-cookie') ?? '').split(
        ';',
      )[0]!;
    const first = await mint();
    const second = await mint();
    for (let i = 0; i < 999; i++) await mint();
    expect((await call(`${AGENT}/api/conversations/${id}/workspace`, { headers: { cookie: first } })).status).toBe(401);
    expect((await call(`${AGENT}/api/conversations/${id}/workspace`, { headers: { cookie: second } })).status).toBe(200);
  });

  it("serves only the conversations of the request's tenant (X-Fakehands-Tenant)", async () => {
    await start();
    const tenant = { 'x-fakehands-tenant': 'acme' };
    const id = await create({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Write a plan' }], run: true } }, tenant);
    expect((await call(`${AGENT}/api/conversations/${id}/workspace/PLAN.md`, { headers: tenant })).status).toBe(200);
    expect(await call(`${AGENT}/api/conversations/${id}/workspace/PLAN.md`)).toMatchObject({
      status: 404,
      body: { detail: `Conversation not found: ${id}` },
    });
  });
});

describe('GET /api/conversations/{id}/workspace (workspace_router.py, serve_workspace_root)', () => {
  it('serves the workspace root\'s index.html, 404 "No index.html in directory" before there is one', async () => {
    await start();
    const id = await create();
    expect(await call(`${AGENT}/api/conversations/${id}/workspace`)).toMatchObject({
      status: 404,
      body: { detail: 'No index.html in directory' },
    });
    await upload(await sandboxKey(), '/workspace/project/index.html', '<main>app</main>');
    expect(await call(`${AGENT}/api/conversations/${id}/workspace`)).toMatchObject({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: '<main>app</main>',
    });
  });
});

describe('POST /api/conversations/{id}/load_plugin (conversation_router.py, load_conversation_plugin)', () => {
  const load = (id: string, plugin_ref: unknown) =>
    call(`${AGENT}/api/conversations/${id}/load_plugin`, { method: 'POST', body: { plugin_ref } });
  const withMarketplaces = (...names: string[]) => ({
    agent: {
      ...AGENT_SPEC,
      agent_context: { registered_marketplaces: names.map((name) => ({ name, source: 'github:OpenHands/extensions' })) },
    },
  });

  it('loads a plugin of a marketplace the conversation\'s agent context registers: {"success": true}', async () => {
    await start();
    const id = await create(withMarketplaces('official'));
    expect(await load(id, 'code-review')).toMatchObject({ status: 200, body: { success: true } });
    expect(await load(id, 'release-notes@official')).toMatchObject({ status: 200, body: { success: true } });
  });

  it('answers 400 without an agent context or without a registered marketplace (local_conversation.py, _marketplace_registry_from_context)', async () => {
    await start();
    expect(await load(await create(), 'code-review')).toMatchObject({
      status: 400,
      body: { detail: 'No agent context available. Configure agent_context with registered_marketplaces to use load_plugin().' },
    });
    expect(await load(await create(withMarketplaces()), 'code-review')).toMatchObject({
      status: 400,
      body: { detail: 'No marketplaces registered. Configure registered_marketplaces in AgentContext to use load_plugin().' },
    });
  });

  it('answers 404 for a marketplace not registered or a plugin none holds, 400 for a bad or ambiguous reference (registry.py)', async () => {
    await start();
    const one = await create(withMarketplaces('official'));
    expect(await load(one, 'code-review@other')).toMatchObject({ status: 404, body: { detail: "Marketplace 'other' is not registered" } });
    expect(await load(one, 'nope@official')).toMatchObject({
      status: 404,
      body: { detail: "Plugin 'nope' not found in marketplace 'official'" },
    });
    expect(await load(one, 'nope')).toMatchObject({
      status: 404,
      body: { detail: "Plugin 'nope' not found in any registered marketplace" },
    });
    expect(await load(one, '')).toMatchObject({ status: 400, body: { detail: 'Plugin reference must not be empty' } });
    expect(await load(one, 'code-review@')).toMatchObject({
      status: 400,
      body: { detail: "Plugin reference must use 'plugin-name@marketplace-name'" },
    });
    const two = await create(withMarketplaces('official', 'mirror'));
    expect(await load(two, 'code-review')).toMatchObject({
      status: 400,
      body: {
        detail:
          "Plugin 'code-review' is ambiguous; found in multiple marketplaces: official, mirror. Use 'code-review@<marketplace-name>'.",
      },
    });
  });

  it('answers 404 "Not Found" for a conversation the host does not hold, 422 without plugin_ref', async () => {
    await start();
    expect(await load(NO_SUCH_ID, 'code-review')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    const missing = await call(`${AGENT}/api/conversations/${await create()}/load_plugin`, { method: 'POST', body: {} });
    expect(missing).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'plugin_ref'], msg: 'Field required' }] },
    });
  });
});

describe('POST /api/conversations/prepare-for-sandbox-pause (credential_binding.py, prepare_for_sandbox_pause)', () => {
  it('answers 204 with no body, and the conversations stay', async () => {
    await start();
    const id = await create();
    expect(await call(`${AGENT}/api/conversations/prepare-for-sandbox-pause`, { method: 'POST' })).toMatchObject({
      status: 204,
      body: '',
      type: null,
    });
    expect((await call(`${AGENT}/api/conversations/${id}`)).status).toBe(200);
  });
});

describe('PUT /api/conversations/{id}/credential-bindings/{secret_name} (credential_binding.py, activate_credential_binding)', () => {
  const bind = (secret: string, body: unknown) =>
    call(`${AGENT}/api/conversations/${NO_SUCH_ID}/credential-bindings/${secret}`, { method: 'PUT', body });

  it('answers 204 for a secret that takes a file credential (CODEX_AUTH_JSON), 404 for another', async () => {
    await start();
    expect(
      await bind('CODEX_AUTH_JSON', { url: 'https://app.example/credentials/codex', headers: { authorization: 'Bearer t' } }),
    ).toMatchObject({ status: 204 });
    expect(await bind('GITHUB_TOKEN', { url: 'https://app.example/credentials/gh' })).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });

  it("answers FastAPI's 422 for CredentialBindingActivation's bounds (an empty url, a bad header, an extra field)", async () => {
    await start();
    expect(await bind('CODEX_AUTH_JSON', { url: '', headers: { a: '' }, extra: 1 })).toEqual(
      expect.objectContaining({
        status: 422,
        body: {
          detail: [
            {
              type: 'string_too_short',
              loc: ['body', 'url'],
              msg: 'String should have at least 1 character',
              input: '',
              ctx: { min_length: 1 },
            },
            {
              type: 'value_error',
              loc: ['body', 'headers'],
              msg: 'Value error, Invalid credential binding headers',
              input: { a: '' },
              ctx: { error: {} },
            },
            { type: 'extra_forbidden', loc: ['body', 'extra'], msg: 'Extra inputs are not permitted', input: 1 },
          ],
        },
      }),
    );
  });
});
