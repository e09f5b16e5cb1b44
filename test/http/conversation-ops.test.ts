/**
 * The operations on one app conversation, as the real app server answers them
 * (openhands/app_server/app_conversation/app_conversation_router.py): each goes through the
 * conversation's agent server, so each follows its sandbox's state.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppConversation, AppConversationStartTask } from '../../src/schemas/app-conversation.js';
import { BASE, KEY, call, useFake } from '../support/api.js';

type Page<T> = { items: T[]; next_page_id: string | null };
type Change = { status: string; path: string };

const env = useFake({ fixture: 'empty', clock: 'manual' });
const REQUEST = {
  selected_repository: 'acme/webshop',
  selected_branch: 'main',
  git_provider: 'github',
  initial_message: { role: 'user', content: [{ type: 'text', text: 'Make the checkout refuse empty carts' }] },
};

/** A READY conversation whose agent has finished its first turn. */
async function conversation(body: object = REQUEST): Promise<AppConversation> {
  const task = (await call<AppConversationStartTask>('POST', '/api/v1/app-conversations', { body })).body;
  env.fake.clock.advance(60_000);
  const [ready] = (await call<AppConversationStartTask[]>('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`)).body;
  env.fake.clock.advance(env.fake.timings.agentRunMs);
  return (await call<AppConversation[]>('GET', `/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)).body[0]!;
}

const PROJECT = '/home/openhands/workspace/webshop';
const path = (id: string, rest: string) => `/api/v1/app-conversations/${id}${rest}`;

describe('GET /api/v1/app-conversations/{id}/git/changes, /git/diff and /file', () => {
  it("agree with each other: each change has a diff, and the file reads as the diff's modified side", async () => {
    const c = await conversation();
    const changes = (await call<Change[]>('GET', path(c.id, `/git/changes?path=${PROJECT}`))).body;
    expect(changes.map((x) => x.status).sort()).toEqual(['ADDED']);
    expect(changes).toEqual([{ status: 'ADDED', path: 'PLAN.md' }]);
    const diff = (await call<{ original: string; modified: string }>('GET', path(c.id, '/git/diff?path=PLAN.md'))).body;
    expect(diff.original).toBe('');
    expect(diff.modified).toContain('Make the checkout refuse empty carts');
    expect((await call('GET', path(c.id, `/file?file_path=${PROJECT}/PLAN.md`))).body).toBe(diff.modified);
    // The web client's default path is rooted at its own convention; the real route re-anchors it.
    expect((await call('GET', path(c.id, '/file'))).body).toBe(diff.modified);
  });

  it('grow with each message the agent works on: a fix, a test, notes and a removed file', async () => {
    const c = await conversation();
    for (const text of ['Fix it', 'Add a test', 'Document it', 'Clean up']) {
      expect((await call('POST', path(c.id, '/send-message'), { body: { content: [{ type: 'text', text }] } })).status).toBe(200);
      env.fake.clock.advance(env.fake.timings.agentRunMs);
    }
    const changes = (await call<Change[]>('GET', path(c.id, `/git/changes?path=${PROJECT}`))).body;
    expect(changes.map((x) => x.status).sort()).toEqual(['ADDED', 'ADDED', 'DELETED', 'UPDATED', 'UPDATED']);
    for (const change of changes) {
      const diff = (await call<{ original: string; modified: string }>('GET', path(c.id, `/git/diff?path=${change.path}`))).body;
      const file = (await call<string>('GET', path(c.id, `/file?file_path=${change.path}`))).body;
      expect(diff.modified).toBe(file);
      if (change.status === 'ADDED') expect([diff.original === '', diff.modified !== '']).toEqual([true, true]);
      if (change.status === 'DELETED') expect([diff.original !== '', diff.modified]).toEqual([true, '']);
      if (change.status === 'UPDATED') expect(diff.original).not.toBe(diff.modified);
    }
  });

  it('answers 409 with the real message while the sandbox is paused, and 404 "not reachable" for an unknown conversation', async () => {
    const c = await conversation();
    await call('POST', `/api/v1/sandboxes/${c.sandbox_id}/pause`);
    expect(await call('GET', path(c.id, `/git/changes?path=${PROJECT}`))).toMatchObject({
      status: 409,
      body: { detail: 'Sandbox is paused; resume it before reading git state.' },
    });
    const unknown = '0123456789abcdef0123456789abcdef';
    expect(await call('GET', path(unknown, `/git/diff?path=x`))).toMatchObject({
      status: 404,
      body: { detail: `Conversation ${unknown} is not reachable` },
    });
  });

  it('reads "" for a path outside the workspace, an unknown file, or a paused sandbox (read_conversation_file)', async () => {
    const c = await conversation();
    expect((await call('GET', path(c.id, '/file?file_path=/etc/passwd'))).body).toBe('');
    expect((await call('GET', path(c.id, `/file?file_path=${PROJECT}/../../../etc/passwd`))).body).toBe('');
    expect((await call('GET', path(c.id, '/file?file_path=nope.txt'))).body).toBe('');
    await call('POST', `/api/v1/sandboxes/${c.sandbox_id}/pause`);
    expect((await call('GET', path(c.id, '/file'))).body).toBe('');
  });

  it('requires path on git changes and a UUID conversation id: 422 as FastAPI writes it', async () => {
    expect((await call('GET', path('0123456789abcdef0123456789abcdef', '/git/changes'))).body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'path'], msg: 'Field required', input: null }],
    });
    expect(
      (await call<{ detail: { type: string; loc: unknown[] }[] }>('GET', path('not-a-uuid', '/skills'))).body.detail.map((e) => [
        e.type,
        e.loc,
      ]),
    ).toEqual([['uuid_parsing', ['path', 'conversation_id']]]);
  });

  it('is the same workspace for the same seed', async () => {
    const c = await conversation();
    const first = (await call('GET', path(c.id, '/git/diff?path=PLAN.md'))).body;
    await env.fake.reset();
    const again = await conversation();
    expect(again.id).toBe(c.id);
    expect((await call('GET', path(again.id, '/git/diff?path=PLAN.md'))).body).toEqual(first);
  });
});

describe('GET /api/v1/app-conversations/{id}/download', () => {
  it('is a ZIP that unzip reads, holding the conversation, its messages and its workspace', async () => {
    const c = await conversation();
    const response = await fetch(`${BASE}${path(c.id, '/download')}`, { headers: { 'x-session-api-key': KEY } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="conversation_[0-9a-f-]{36}\.zip"$/);
    const file = join(await mkdtemp(join(tmpdir(), 'fakehands-zip-')), 'c.zip');
    await writeFile(file, new Uint8Array(await response.arrayBuffer()));
    const listing = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toEqual(
      expect.arrayContaining([
        'meta.json',
        'events/000001-MessageEvent.json',
        'workspace/PLAN.md',
        'workspace/README.md',
        'workspace/package.json',
      ]),
    );
    execFileSync('unzip', ['-tq', file]);
    const plan = execFileSync('unzip', ['-p', file, 'workspace/PLAN.md'], { encoding: 'utf8' });
    expect(plan).toBe((await call('GET', path(c.id, '/file'))).body);
    expect(JSON.parse(execFileSync('unzip', ['-p', file, 'meta.json'], { encoding: 'utf8' }))).toMatchObject({ id: c.id, title: c.title });
  });

  it('answers 404 for an unknown conversation', async () => {
    expect((await call('GET', path('0123456789abcdef0123456789abcdef', '/download'))).status).toBe(404);
  });
});

describe('GET /api/v1/app-conversations/{id}/skills and /hooks', () => {
  it("lists the repository skill, the workspace's skills and the global ones, and the hooks of .openhands/hooks.json", async () => {
    const c = await conversation();
    const { skills } = (await call<{ skills: { name: string; type: string; triggers: string[] }[] }>('GET', path(c.id, '/skills'))).body;
    expect(skills.map((s) => [s.name, s.type, s.triggers])).toEqual([
      ['repo', 'repo', []],
      ['testing', 'agentskills', ['test', 'vitest']],
      ['github', 'knowledge', ['github', 'git']],
    ]);
    const { hooks } = (
      await call<{ hooks: { event_type: string; matchers: { hooks: { async: boolean }[] }[] }[] }>('GET', path(c.id, '/hooks'))
    ).body;
    expect(hooks.map((h) => h.event_type)).toEqual(['pre_tool_use', 'session_start']);
    expect(hooks[1]!.matchers[0]!.hooks[0]!.async).toBe(true);
  });

  it('answer empty lists while the sandbox is paused, and the agent-server context\'s own 404 {"error"} when it is gone', async () => {
    const c = await conversation();
    await call('POST', `/api/v1/sandboxes/${c.sandbox_id}/pause`);
    expect((await call('GET', path(c.id, '/skills'))).body).toEqual({ skills: [] });
    expect((await call('GET', path(c.id, '/hooks'))).body).toEqual({ hooks: [] });
    await call('DELETE', `/api/v1/sandboxes/${c.sandbox_id}?sandbox_id=${c.sandbox_id}`);
    expect(await call('GET', path(c.id, '/skills'))).toMatchObject({
      status: 404,
      body: { error: `Sandbox not found for conversation ${c.id}` },
    });
  });
});

describe('PATCH /api/v1/app-conversations/{id}', () => {
  it('changes the fields given, which show in search, batch get, count and the legacy list', async () => {
    const c = await conversation();
    const { status, body } = await call<AppConversation>('PATCH', path(c.id, ''), {
      body: { title: 'Checkout guard', public: true, selected_branch: 'fix/cart' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: c.id,
      title: 'Checkout guard',
      public: true,
      selected_branch: 'fix/cart',
      selected_repository: 'acme/webshop',
    });
    expect(
      (await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search?title__contains=guard')).body.items.map((x) => x.id),
    ).toEqual([c.id]);
    expect((await call('GET', '/api/v1/app-conversations/count?title__contains=guard')).body).toBe(1);
    expect((await call<{ results: { title: string }[] }>('GET', '/api/conversations')).body.results[0]!.title).toBe('Checkout guard');
  });

  it('answers 404 unknown_app_conversation for an unknown conversation, changing nothing', async () => {
    const before = await env.fake.snapshot();
    expect(await call('PATCH', path('0123456789abcdef0123456789abcdef', ''), { body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { detail: 'unknown_app_conversation' },
    });
    expect(await env.fake.snapshot()).toEqual(before);
  });
});

describe('DELETE /api/v1/app-conversations/{id}', () => {
  it('deletes it and its unshared sandbox: gone from search, batch get, count and the legacy list', async () => {
    const c = await conversation();
    expect(await call('DELETE', path(c.id, ''))).toMatchObject({ status: 200, body: { success: true } });
    expect((await call('GET', `/api/v1/app-conversations?ids=${c.id}`)).body).toEqual([null]);
    expect((await call<Page<unknown>>('GET', '/api/v1/app-conversations/search')).body.items).toEqual([]);
    expect((await call('GET', '/api/v1/app-conversations/count')).body).toBe(0);
    expect((await call<{ results: unknown[] }>('GET', '/api/conversations')).body.results).toEqual([]);
    expect((await call('GET', `/api/v1/sandboxes?id=${c.sandbox_id}`)).body).toEqual([null]);
  });

  it('answers 404 for an unknown conversation and 400 for an id that is not a UUID', async () => {
    expect(await call('DELETE', path('0123456789abcdef0123456789abcdef', ''))).toMatchObject({
      status: 404,
      body: { detail: 'Conversation not found' },
    });
    expect(await call('DELETE', path('nope', ''))).toMatchObject({ status: 400, body: { detail: 'Invalid conversation ID format' } });
  });
});

describe('POST /api/v1/app-conversations/{id}/send-message', () => {
  it('gives the agent the message: the conversation runs again, its metrics grow and updated_at moves', async () => {
    const c = await conversation();
    env.fake.clock.advance(1000);
    const answer = await call('POST', path(c.id, '/send-message'), { body: { content: [{ type: 'text', text: 'Also handle coupons' }] } });
    expect(answer).toMatchObject({ status: 200, body: { success: true, sandbox_status: 'RUNNING', message: null } });
    const running = (await call<AppConversation[]>('GET', `/api/v1/app-conversations?ids=${c.id}`)).body[0]!;
    expect(running.execution_status).toBe('running');
    expect(running.updated_at > c.updated_at).toBe(true);
    env.fake.clock.advance(env.fake.timings.agentRunMs);
    const after = (await call<AppConversation[]>('GET', `/api/v1/app-conversations?ids=${c.id}`)).body[0]!;
    expect(after.execution_status).toBe('finished');
    expect(after.metrics!.accumulated_cost).toBeGreaterThan(c.metrics!.accumulated_cost);
  });

  it('refuses as the real route does: 409 paused, 503 failed, 410 gone, 404 unknown; 422 without content', async () => {
    const c = await conversation();
    const send = () => call('POST', path(c.id, '/send-message'), { body: { content: [{ type: 'text', text: 'hi' }] } });
    await call('POST', `/api/v1/sandboxes/${c.sandbox_id}/pause`);
    expect(await send()).toMatchObject({
      status: 409,
      body: { detail: `Sandbox is PAUSED. Use POST /api/v1/sandboxes/${c.sandbox_id}/resume to resume it first.` },
    });
    await env.fake.service.failSandbox(c.sandbox_id);
    expect(await send()).toMatchObject({ status: 503, body: { detail: 'Sandbox is in an error state and cannot accept messages.' } });
    await call('DELETE', `/api/v1/sandboxes/${c.sandbox_id}?sandbox_id=${c.sandbox_id}`);
    expect(await send()).toMatchObject({ status: 410, body: { detail: 'Conversation is archived. The sandbox no longer exists.' } });
    expect((await call('POST', path(c.id, '/send-message'), { body: { content: [] } })).body).toMatchObject({
      detail: [{ type: 'too_short', loc: ['body', 'content'] }],
    });
  });
});

describe('POST /api/v1/app-conversations/{id}/switch_profile and /switch_acp_model', () => {
  it('switches to a saved profile: the model shows on the conversation and in its metrics', async () => {
    const c = await conversation();
    expect(await call('POST', path(c.id, '/switch_profile'), { body: { profile_name: 'fast' } })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const after = (await call<AppConversation[]>('GET', `/api/v1/app-conversations?ids=${c.id}`)).body[0]!;
    expect([after.llm_model, after.metrics!.model_name]).toEqual(['openai/gpt-5-mini-2025-08-07', 'openai/gpt-5-mini-2025-08-07']);
    expect(await call('POST', path(c.id, '/switch_profile'), { body: { profile_name: 'nope' } })).toMatchObject({
      status: 404,
      body: { detail: "Profile 'nope' not found" },
    });
  });

  it('refuses to switch while paused (409), and an ACP model switch for an agent that is not ACP (400)', async () => {
    const c = await conversation();
    expect(await call('POST', path(c.id, '/switch_acp_model'), { body: { model: 'o3' } })).toMatchObject({
      status: 400,
      body: { detail: 'Agent server error: 400' },
    });
    await call('POST', `/api/v1/sandboxes/${c.sandbox_id}/pause`);
    expect(await call('POST', path(c.id, '/switch_profile'), { body: { profile_name: 'fast' } })).toMatchObject({
      status: 409,
      body: { detail: 'Sandbox is paused; resume it before switching profiles.' },
    });
  });
});

describe('GET /api/v1/sandboxes/{id}/settings/secrets', () => {
  it("lists secret names for the holder of the sandbox's own session key, never a value", async () => {
    await call('POST', '/api/add-git-providers', { body: { provider_tokens: { github: { token: 'ghp_listMe', host: 'github.com' } } } });
    const c = await conversation({ ...REQUEST, secrets: { STRIPE_KEY: 'sk_live_x' } });
    const headers = { 'x-session-api-key': c.session_api_key! };
    const names = await fetch(`${BASE}/api/v1/sandboxes/${c.sandbox_id}/settings/secrets`, { headers });
    const text = await names.text();
    expect(JSON.parse(text)).toEqual({
      secrets: [
        { name: 'github_token', description: 'github token' },
        { name: 'STRIPE_KEY', description: null },
      ],
    });
    expect(text).not.toContain('ghp_listMe');
    const value = await fetch(`${BASE}/api/v1/sandboxes/${c.sandbox_id}/settings/secrets/github_token`, { headers });
    expect([value.status, value.headers.get('content-type'), await value.text()]).toEqual([200, 'text/plain; charset=utf-8', '**********']);
  });

  it("answers 401 without the sandbox key (the app key is not it), 403 for another sandbox's key", async () => {
    const a = await conversation();
    const b = await conversation();
    expect((await call('GET', `/api/v1/sandboxes/${a.sandbox_id}/settings/secrets`)).status).toBe(401);
    expect(await call('GET', `/api/v1/sandboxes/${a.sandbox_id}/settings/secrets`, { key: b.session_api_key! })).toMatchObject({
      status: 403,
      body: { detail: 'Session API key does not match sandbox' },
    });
  });
});
