import { describe, expect, it } from 'vitest';
import type { AppConversation, AppConversationStartTask } from '../../src/schemas/app-conversation.js';
import type { SandboxInfo } from '../../src/schemas/sandbox.js';
import { call, useFake } from '../support/api.js';

type Page<T> = { items: T[]; next_page_id: string | null };

const env = useFake({ fixture: 'empty' });

const START_REQUEST = {
  selected_repository: 'OpenHands/OpenHands',
  selected_branch: 'main',
  git_provider: 'github',
  initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] },
};

async function startTask(body: object = START_REQUEST): Promise<AppConversationStartTask> {
  const { status, body: task } = await call<AppConversationStartTask>('POST', '/api/v1/app-conversations', { body });
  expect(status).toBe(200);
  return task;
}

async function task(id: string): Promise<AppConversationStartTask> {
  const { body } = await call<(AppConversationStartTask | null)[]>('GET', `/api/v1/app-conversations/start-tasks?ids=${id}`);
  return body[0]!;
}

async function conversation(id: string): Promise<AppConversation> {
  const { body } = await call<(AppConversation | null)[]>('GET', `/api/v1/app-conversations?ids=${id}`);
  return body[0]!;
}

/** Starts a conversation and advances the clock until its task is READY. */
async function readyConversation(body: object = START_REQUEST): Promise<AppConversation> {
  const { id } = await startTask(body);
  for (let i = 0; i < 50; i++) {
    const current = await task(id);
    if (current.status === 'READY') return conversation(current.app_conversation_id!);
    env.fake.clock.advance(250);
  }
  throw new Error('start task never became READY');
}

describe('POST /api/v1/app-conversations', () => {
  it('answers at once with a WORKING start task that echoes the request', async () => {
    const started = await startTask();
    expect(started).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      created_by_user_id: null,
      status: 'WORKING',
      detail: null,
      app_conversation_id: null,
      sandbox_id: null,
      agent_server_url: null,
      // The echo as the real model dumps it: every field, run false and cache_prompt false by default.
      request: {
        sandbox_id: null,
        conversation_id: null,
        initial_message: { role: 'user', content: [{ cache_prompt: false, type: 'text', text: 'Fix the flaky test' }], run: false },
        system_message_suffix: null,
        processors: null,
        llm_model: null,
        agent_profile_id: null,
        selected_repository: 'OpenHands/OpenHands',
        selected_branch: 'main',
        git_provider: 'github',
        suggested_task: null,
        title: null,
        trigger: null,
        pr_number: [],
        parent_conversation_id: null,
        agent_type: 'default',
        public: null,
        observability_metadata: null,
        observability_tags: null,
        observability_span_name: null,
        plugins: null,
        secrets: null,
      },
      created_at: started.created_at,
      updated_at: started.created_at,
    });
  });

  it('steps through every status to READY as time passes, filling sandbox_id, then app_conversation_id and agent_server_url', async () => {
    const { id } = await startTask();
    const { startTaskStepMs, sandboxStartMs } = env.fake.timings;
    const seen: string[] = [];
    for (let elapsed = 0; elapsed <= sandboxStartMs + 8 * startTaskStepMs; elapsed += 50) {
      const current = await task(id);
      if (seen.at(-1) !== current.status) seen.push(current.status);
      if (current.status === 'WAITING_FOR_SANDBOX') expect(current.sandbox_id).toMatch(/^oh-agent-server-/);
      if (current.status !== 'READY') expect(current.app_conversation_id).toBeNull();
      env.fake.clock.advance(50);
    }
    expect(seen).toEqual([
      'WORKING',
      'WAITING_FOR_SANDBOX',
      'PREPARING_REPOSITORY',
      'RUNNING_SETUP_SCRIPT',
      'SETTING_UP_GIT_HOOKS',
      'SETTING_UP_SKILLS',
      'STARTING_CONVERSATION',
      'READY',
    ]);
    const ready = await task(id);
    expect(ready.app_conversation_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.agent_server_url).toMatch(/^http:\/\/localhost:\d+$/);
    expect(ready.updated_at > ready.created_at).toBe(true);
  });

  it('runs PREPARING_REPOSITORY also without a repository (live_status_app_conversation_service.py, _start_app_conversation)', async () => {
    const { id } = await startTask({});
    const seen = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const current = await task(id);
      seen.add(current.status);
      expect(current.updated_at >= current.created_at).toBe(true);
      env.fake.clock.advance(200);
    }
    expect(seen.has('PREPARING_REPOSITORY')).toBe(true);
    expect(seen.has('READY')).toBe(true);
  });

  it('creates a RUNNING conversation powered by a new sandbox: url, key and execution status', async () => {
    const created = await readyConversation();
    expect(created).toMatchObject({
      selected_repository: 'OpenHands/OpenHands',
      selected_branch: 'main',
      git_provider: 'github',
      trigger: null,
      title: `Conversation ${created.id}`,
      agent_kind: 'openhands',
      public: null,
      tags: {},
      acp_server: null,
      launched_agent_profile: null,
      sandbox_status: 'RUNNING',
      execution_status: 'running',
      conversation_url: expect.stringMatching(new RegExp(`^http://localhost:\\d+/api/conversations/${created.id}$`)),
      session_api_key: expect.stringMatching(/^[A-Za-z0-9]{43}$/),
    });
    const [sandbox] = (await call<SandboxInfo[]>('GET', `/api/v1/sandboxes?id=${created.sandbox_id}`)).body;
    expect(sandbox!.session_api_key).toBe(created.session_api_key);
  });

  it('the agent of a conversation with an initial message finishes and its metrics grow; without one it is idle with zero metrics', async () => {
    const withMessage = await readyConversation({ ...START_REQUEST, llm_model: 'anthropic/claude-sonnet-4-5' });
    expect(withMessage.metrics).toMatchObject({
      model_name: 'anthropic/claude-sonnet-4-5',
      accumulated_cost: 0,
      max_budget_per_task: null,
    });
    env.fake.clock.advance(env.fake.timings.agentRunMs);
    const finished = await conversation(withMessage.id);
    expect(finished.execution_status).toBe('finished');
    expect(finished.metrics!.accumulated_cost).toBeGreaterThan(0);
    expect(finished.metrics!.accumulated_token_usage!.prompt_tokens).toBeGreaterThan(0);
    const withoutMessage = await readyConversation({ title: 'Quiet' });
    expect(withoutMessage.execution_status).toBe('idle');
    expect(withoutMessage.metrics).toMatchObject({ model_name: 'default', accumulated_cost: 0 });
  });

  it('titles the conversation `Conversation <32-hex id>` whatever title the request gave, and keeps its trigger (null by default)', async () => {
    const titled = await readyConversation({ title: 'Quiet', trigger: 'openhands_api' });
    expect(titled.title).toBe(`Conversation ${titled.id}`);
    expect(titled.trigger).toBe('openhands_api');
  });

  it('takes the conversation id, public flag and agent profile the request gives', async () => {
    const id = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const created = await readyConversation({ conversation_id: id, public: true, agent_profile_id: 'reviewer' });
    expect(created).toMatchObject({ id, public: true, launched_agent_profile: { agent_profile_id: 'reviewer', revision: 1 } });
    expect((await call('POST', '/api/v1/app-conversations', { body: { conversation_id: id } })).body).toEqual({
      detail: `Conversation already exists: ${id}`,
    });
  });

  it('echoes secrets by name only, as pydantic writes a SecretStr', async () => {
    const started = await startTask({ secrets: { GITHUB_TOKEN: 'ghp_secret_value' } });
    expect(started.request.secrets).toEqual({ GITHUB_TOKEN: '**********' });
    expect(JSON.stringify(await task(started.id))).not.toContain('ghp_secret_value');
  });

  it('reuses a given RUNNING sandbox', async () => {
    const first = await readyConversation();
    const second = await readyConversation({ sandbox_id: first.sandbox_id });
    expect(second.sandbox_id).toBe(first.sandbox_id);
    expect((await call<Page<SandboxInfo>>('GET', '/api/v1/sandboxes/search')).body.items).toHaveLength(1);
  });

  it('resumes a given PAUSED sandbox and reuses it', async () => {
    const first = await readyConversation();
    await call('POST', `/api/v1/sandboxes/${first.sandbox_id}/pause`);
    const { id } = await startTask({ sandbox_id: first.sandbox_id });
    const [sandbox] = (await call<SandboxInfo[]>('GET', `/api/v1/sandboxes?id=${first.sandbox_id}`)).body;
    expect(sandbox!.status).toBe('STARTING');
    env.fake.clock.advance(10_000);
    const done = await task(id);
    expect(done.status).toBe('READY');
    expect((await conversation(done.app_conversation_id!)).sandbox_id).toBe(first.sandbox_id);
  });

  it('ends in ERROR with a detail when the given sandbox does not exist', async () => {
    const { id } = await startTask({ sandbox_id: 'oh-agent-server-nope' });
    env.fake.clock.advance(10_000);
    expect(await task(id)).toMatchObject({
      status: 'ERROR',
      detail: 'Sandbox not found: oh-agent-server-nope',
      app_conversation_id: null,
      sandbox_id: 'oh-agent-server-nope',
    });
  });

  it('ends in ERROR when its sandbox fails while the task waits for it', async () => {
    const { id } = await startTask();
    env.fake.clock.advance(env.fake.timings.startTaskStepMs);
    const waiting = await task(id);
    expect(waiting.status).toBe('WAITING_FOR_SANDBOX');
    await env.fake.service.failSandbox(waiting.sandbox_id!);
    expect(await task(id)).toMatchObject({ status: 'ERROR', detail: 'Sandbox status: SandboxStatus.ERROR' });
  });

  it("runs a sub-conversation in its parent's sandbox, inheriting repository, branch and provider, and links it in sub_conversation_ids", async () => {
    const parent = await readyConversation();
    const child = await readyConversation({ parent_conversation_id: parent.id, agent_type: 'plan' });
    expect(child).toMatchObject({
      parent_conversation_id: parent.id,
      sandbox_id: parent.sandbox_id,
      selected_repository: 'OpenHands/OpenHands',
      selected_branch: 'main',
      git_provider: 'github',
    });
    expect((await conversation(parent.id)).sub_conversation_ids).toEqual([child.id]);
    expect((await call<Page<SandboxInfo>>('GET', '/api/v1/sandboxes/search')).body.items).toHaveLength(1);
  });

  it("a sub-conversation inherits its parent's llm_model when the request gives none (_inherit_configuration_from_parent)", async () => {
    const parent = await readyConversation({ ...START_REQUEST, llm_model: 'openai/gpt-5-2025-08-07' });
    const child = await readyConversation({ parent_conversation_id: parent.id });
    expect([parent.llm_model, child.llm_model]).toEqual(['openai/gpt-5-2025-08-07', 'openai/gpt-5-2025-08-07']);
    const own = await readyConversation({ parent_conversation_id: parent.id, llm_model: 'anthropic/claude-opus-4-1' });
    expect(own.llm_model).toBe('anthropic/claude-opus-4-1');
  });

  it('answers 400 for a V0 (legacy) parent: only a V1 conversation can have sub-conversations, and creates nothing', async () => {
    const legacy = await call<{ conversation_id: string }>('POST', '/api/conversations', { body: {} });
    expect(legacy.status).toBe(200);
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', '/api/v1/app-conversations', {
      body: { parent_conversation_id: legacy.body.conversation_id },
    });
    expect([status, body]).toEqual([400, { detail: `Parent conversation not found: ${legacy.body.conversation_id}` }]);
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('ends in ERROR when started in a sandbox that is in ERROR: a failed sandbox is not resumed (_wait_for_sandbox_start)', async () => {
    const first = await readyConversation();
    await env.fake.service.failSandbox(first.sandbox_id!);
    const { id } = await startTask({ sandbox_id: first.sandbox_id });
    env.fake.clock.advance(10_000);
    expect(await task(id)).toMatchObject({ status: 'ERROR', detail: 'Sandbox status: SandboxStatus.ERROR', app_conversation_id: null });
    const [sandbox] = (await call<SandboxInfo[]>('GET', `/api/v1/sandboxes?id=${first.sandbox_id}`)).body;
    expect(sandbox!.status).toBe('ERROR');
  });

  it('answers 400 for an unknown parent_conversation_id and creates nothing (the real server crashes with 500: a declared difference)', async () => {
    const before = await env.fake.snapshot();
    const missing = '00000000000040008000000000000000';
    const { status, body } = await call('POST', '/api/v1/app-conversations', { body: { parent_conversation_id: missing } });
    expect([status, body]).toEqual([400, { detail: `Parent conversation not found: ${missing}` }]);
    expect(await env.fake.snapshot()).toEqual(before);
  });

  // The message of pydantic 2.14.4 (pydantic-core 2.50.5), which openhands-ai 1.11.0 runs: checked against its validator.
  it('rejects a bad parent_conversation_id with 422 uuid_parsing and creates nothing', async () => {
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', '/api/v1/app-conversations', { body: { parent_conversation_id: 'not-a-uuid' } });
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'uuid_parsing',
          loc: ['body', 'parent_conversation_id'],
          msg: 'Input should be a valid UUID, invalid character: found `n` at 0',
          input: 'not-a-uuid',
          ctx: { error: 'invalid character: found `n` at 0' },
        },
      ],
    });
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('rejects a wrong trigger, agent_type and pr_number with one 422 entry each', async () => {
    const { status, body } = await call('POST', '/api/v1/app-conversations', {
      body: { trigger: 'email', agent_type: 'x', pr_number: ['a'] },
    });
    expect(status).toBe(422);
    expect((body as { detail: { type: string; loc: unknown[] }[] }).detail.map((e) => [e.type, e.loc])).toEqual([
      ['enum', ['body', 'trigger']],
      ['int_parsing', ['body', 'pr_number', 0]],
      ['enum', ['body', 'agent_type']],
    ]);
  });

  it('requires a body: 422 missing at ["body"]', async () => {
    const { status, body } = await call('POST', '/api/v1/app-conversations');
    expect(status).toBe(422);
    expect(body).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
  });

  // FastAPI 0.141 (openhands-ai 1.11.0's; dependencies/utils.py, _validate_value_with_model_field) reads None as no body;
  // the agent server's newer FastAPI validates it instead (test/agent-server/conversations-api.test.ts).
  it('reads a JSON null body as missing too: 422 missing at ["body"]', async () => {
    const { status, body } = await call('POST', '/api/v1/app-conversations', { body: 'null' });
    expect([status, body]).toEqual([422, { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] }]);
  });
});

describe('GET /api/v1/app-conversations', () => {
  it('with ids: answers an array aligned with the ids, null for each missing one', async () => {
    const a = await readyConversation();
    const b = await readyConversation();
    const missing = '00000000-0000-4000-8000-000000000000';
    const { status, body } = await call<(AppConversation | null)[]>(
      'GET',
      `/api/v1/app-conversations?ids=${b.id}&ids=${missing}&ids=${a.id}`,
    );
    expect(status).toBe(200);
    expect(body.map((c) => c?.id ?? null)).toEqual([b.id, null, a.id]);
  });

  it('accepts ids hyphenated too, and answers them as 32 hex digits (OpenHandsUUID)', async () => {
    const a = await readyConversation();
    const hyphenated = `${a.id.slice(0, 8)}-${a.id.slice(8, 12)}-${a.id.slice(12, 16)}-${a.id.slice(16, 20)}-${a.id.slice(20)}`;
    const { body } = await call<(AppConversation | null)[]>('GET', `/api/v1/app-conversations?ids=${hyphenated}`);
    expect(body[0]!.id).toBe(a.id);
  });

  it('with an id that is not a UUID: 422 uuid_parsing at ["query", "ids", index]', async () => {
    const { status, body } = await call<{ detail: { type: string; loc: unknown[] }[] }>(
      'GET',
      '/api/v1/app-conversations?ids=00000000-0000-4000-8000-000000000000&ids=abc',
    );
    expect(status).toBe(422);
    expect(body.detail.map((e) => [e.type, e.loc])).toEqual([['uuid_parsing', ['query', 'ids', 1]]]);
  });

  it('requires ids: it is a batch get only, the list is /search (app_conversation_router.py, batch_get_app_conversations)', async () => {
    const { status, body } = await call('GET', '/api/v1/app-conversations?limit=1');
    expect([status, body]).toEqual([422, { detail: [{ type: 'missing', loc: ['query', 'ids'], msg: 'Field required', input: null }] }]);
  });
});

/** A ready conversation renamed to `title` through the legacy PATCH, as the real web client renames. */
async function renamed(title: string, body: object = START_REQUEST): Promise<AppConversation> {
  const created = await readyConversation(body);
  await call('PATCH', `/api/conversations/${created.id}`, { body: { title } });
  return conversation(created.id);
}

describe('GET /api/v1/app-conversations/search', () => {
  it('pages newest first with next_page_id until null', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await readyConversation()).id);
    const seen: string[] = [];
    let pageId: string | null = null;
    do {
      const query: string = pageId ? `?limit=2&page_id=${pageId}` : '?limit=2';
      const page: Page<AppConversation> = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search${query}`)).body;
      seen.push(...page.items.map((c) => c.id));
      pageId = page.next_page_id;
    } while (pageId);
    expect(seen).toEqual([...created].reverse());
  });

  it('starts from the first page for a page_id that is not an integer (sql_app_conversation_info_service.py, search_app_conversation_info)', async () => {
    await readyConversation();
    const first = await call('GET', '/api/v1/app-conversations/search?limit=1');
    expect(await call('GET', '/api/v1/app-conversations/search?limit=1&page_id=not-a-cursor')).toMatchObject({
      status: 200,
      body: first.body,
    });
  });

  it('filters by title__contains (case-insensitive) and by created_at range', async () => {
    const alpha = await renamed('Alpha release notes');
    env.fake.clock.advance(60_000);
    const middle = new Date(env.fake.clock.now()).toISOString();
    const beta = await renamed('Beta rollout');
    const byTitle = (await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search?title__contains=ALPHA')).body;
    expect(byTitle.items.map((c) => c.id)).toEqual([alpha.id]);
    const after = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?created_at__gte=${middle}`)).body;
    expect(after.items.map((c) => c.id)).toEqual([beta.id]);
    const before = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?created_at__lt=${middle}`)).body;
    expect(before.items.map((c) => c.id)).toEqual([alpha.id]);
  });

  it("finds what was created in the last 20 minutes, as the real web client asks, because the fake's time is the client's", async () => {
    const created = await readyConversation();
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60 * 1000).toISOString();
    const found = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?created_at__gte=${twentyMinutesAgo}`)).body;
    expect(found.items.map((c) => c.id)).toEqual([created.id]);
  });

  it('filters by updated_at range: a conversation renamed later matches updated_at__gte, the other updated_at__lt', async () => {
    const toRename = await readyConversation();
    const untouched = await readyConversation();
    env.fake.clock.advance(60_000);
    const middle = new Date(env.fake.clock.now()).toISOString();
    env.fake.clock.advance(1000);
    await call('PATCH', `/api/conversations/${toRename.id}`, { body: { title: 'renamed' } });
    const after = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?updated_at__gte=${middle}`)).body;
    expect(after.items.map((c) => c.id)).toEqual([toRename.id]);
    const before = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?updated_at__lt=${middle}`)).body;
    expect(before.items.map((c) => c.id)).toEqual([untouched.id]);
    expect((await call('GET', `/api/v1/app-conversations/count?updated_at__gte=${middle}`)).body).toBe(1);
  });

  it('filters by sandbox_id__eq', async () => {
    const a = await readyConversation();
    await readyConversation();
    const found = (await call<Page<AppConversation>>('GET', `/api/v1/app-conversations/search?sandbox_id__eq=${a.sandbox_id}`)).body;
    expect(found.items.map((c) => c.id)).toEqual([a.id]);
    expect((await call('GET', `/api/v1/app-conversations/count?sandbox_id__eq=${a.sandbox_id}`)).body).toBe(1);
  });

  it('takes no sort order: newest first always, a sort_order parameter is ignored like any unknown one', async () => {
    const older = await renamed('a');
    const newer = await renamed('b');
    const { status, body } = await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search?sort_order=TITLE');
    expect(status).toBe(200);
    expect(body.items.map((c) => c.id)).toEqual([newer.id, older.id]);
  });

  it('leaves sub-conversations out unless include_sub_conversations=true, and answers sub_conversation_ids [] on every item', async () => {
    const parent = await readyConversation();
    const child = await readyConversation({ parent_conversation_id: parent.id });
    const top = (await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search')).body.items;
    expect(top.map((c) => [c.id, c.sub_conversation_ids])).toEqual([[parent.id, []]]);
    const all = (await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search?include_sub_conversations=true')).body.items;
    expect(all.map((c) => c.id)).toEqual([child.id, parent.id]);
    expect((await conversation(parent.id)).sub_conversation_ids).toEqual([child.id]);
  });

  it('shows the conversation STOPPED-side status after its sandbox is paused and RUNNING again after resume', async () => {
    const created = await readyConversation();
    await call('POST', `/api/v1/sandboxes/${created.sandbox_id}/pause`);
    expect(await conversation(created.id)).toMatchObject({
      sandbox_status: 'PAUSED',
      execution_status: null,
      conversation_url: null,
      session_api_key: null,
    });
    await call('POST', `/api/v1/sandboxes/${created.sandbox_id}/resume`);
    expect((await conversation(created.id)).sandbox_status).toBe('STARTING');
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    expect((await conversation(created.id)).sandbox_status).toBe('RUNNING');
  });

  it('shows sandbox_status MISSING once the sandbox is deleted', async () => {
    const created = await readyConversation();
    await call('DELETE', `/api/v1/sandboxes/${created.sandbox_id}?sandbox_id=${created.sandbox_id}`);
    expect((await conversation(created.id)).sandbox_status).toBe('MISSING');
  });

  it('rejects a bad created_at__gte and include_sub_conversations in one 422', async () => {
    const { status, body } = await call<{ detail: { type: string; loc: unknown[] }[] }>(
      'GET',
      '/api/v1/app-conversations/search?created_at__gte=yesterday&include_sub_conversations=maybe',
    );
    expect(status).toBe(422);
    expect(body.detail.map((e) => [e.type, e.loc])).toEqual([
      ['datetime_from_date_parsing', ['query', 'created_at__gte']],
      ['bool_parsing', ['query', 'include_sub_conversations']],
    ]);
  });
});

describe('GET /api/v1/app-conversations/count', () => {
  it('counts V1 conversations matching the filters, as a bare integer', async () => {
    await renamed('one');
    await renamed('two');
    await call('POST', '/api/conversations', { body: {} });
    expect(await call('GET', '/api/v1/app-conversations/count')).toMatchObject({ status: 200, body: 2 });
    expect((await call('GET', '/api/v1/app-conversations/count?title__contains=tw')).body).toBe(1);
  });

  it('counts sub-conversations too: it has no parent filter (sql_app_conversation_info_service.py, count_app_conversation_info)', async () => {
    const parent = await readyConversation();
    await readyConversation({ parent_conversation_id: parent.id });
    expect((await call('GET', '/api/v1/app-conversations/count')).body).toBe(2);
    expect((await call<Page<AppConversation>>('GET', '/api/v1/app-conversations/search')).body.items).toHaveLength(1);
  });
});

describe('GET /api/v1/app-conversations/start-tasks', () => {
  it('answers an array aligned with the ids, null for each missing one', async () => {
    const a = await startTask();
    const { body } = await call<(AppConversationStartTask | null)[]>(
      'GET',
      `/api/v1/app-conversations/start-tasks?ids=00000000-0000-4000-8000-000000000000&ids=${a.id}`,
    );
    expect(body.map((t) => t?.id ?? null)).toEqual([null, a.id]);
  });

  it('requires ids: 422 missing', async () => {
    expect((await call('GET', '/api/v1/app-conversations/start-tasks')).body).toEqual({
      detail: [{ type: 'missing', loc: ['query', 'ids'], msg: 'Field required', input: null }],
    });
  });
});

describe('GET /api/v1/app-conversations/start-tasks/search', () => {
  it('pages tasks newest first and finds the task of a conversation with conversation_id__eq', async () => {
    const first = await readyConversation();
    await startTask();
    await startTask();
    const page1 = (await call<Page<AppConversationStartTask>>('GET', '/api/v1/app-conversations/start-tasks/search?limit=2')).body;
    expect(page1.items).toHaveLength(2);
    expect(page1.next_page_id).toBe('2');
    const page2 = (
      await call<Page<AppConversationStartTask>>(
        'GET',
        `/api/v1/app-conversations/start-tasks/search?limit=2&page_id=${page1.next_page_id}`,
      )
    ).body;
    expect(page2).toMatchObject({ next_page_id: null, items: [{ app_conversation_id: first.id }] });
    const byConversation = (
      await call<Page<AppConversationStartTask>>('GET', `/api/v1/app-conversations/start-tasks/search?conversation_id__eq=${first.id}`)
    ).body;
    expect(byConversation.items.map((t) => t.app_conversation_id)).toEqual([first.id]);
  });

  it('with several READY tasks, conversation_id__eq finds only the task of that conversation (search and count)', async () => {
    const first = await readyConversation();
    const second = await readyConversation();
    const third = await readyConversation();
    for (const wanted of [first, second, third]) {
      const { body } = await call<Page<AppConversationStartTask>>(
        'GET',
        `/api/v1/app-conversations/start-tasks/search?conversation_id__eq=${wanted.id}`,
      );
      expect(body.items.map((t) => [t.status, t.app_conversation_id])).toEqual([['READY', wanted.id]]);
      expect((await call('GET', `/api/v1/app-conversations/start-tasks/count?conversation_id__eq=${wanted.id}`)).body).toBe(1);
    }
  });

  it('sorts by when each task last changed with UPDATED_AT (oldest first) and UPDATED_AT_DESC (newest first)', async () => {
    // Created a then b; b fails at its first wait (no such sandbox), a steps on to READY later: updated b, then a.
    const a = await startTask();
    env.fake.clock.advance(5);
    const b = await startTask({ sandbox_id: 'oh-agent-server-nope' });
    env.fake.clock.advance(10_000);
    const order = async (sort: string) =>
      (await call<Page<AppConversationStartTask>>('GET', `/api/v1/app-conversations/start-tasks/search?sort_order=${sort}`)).body.items.map(
        (t) => t.id,
      );
    expect(await order('CREATED_AT')).toEqual([a.id, b.id]);
    expect(await order('UPDATED_AT')).toEqual([b.id, a.id]);
    expect(await order('UPDATED_AT_DESC')).toEqual([a.id, b.id]);
    expect(await order('CREATED_AT_DESC')).toEqual([b.id, a.id]);
  });

  it('sorts oldest first with sort_order=CREATED_AT', async () => {
    const a = await startTask();
    env.fake.clock.advance(5);
    const b = await startTask();
    const { body } = await call<Page<AppConversationStartTask>>(
      'GET',
      '/api/v1/app-conversations/start-tasks/search?sort_order=CREATED_AT',
    );
    expect(body.items.map((t) => t.id)).toEqual([a.id, b.id]);
  });
});

describe('GET /api/v1/app-conversations/start-tasks/count', () => {
  it('counts start tasks as a bare integer', async () => {
    await startTask();
    await startTask();
    expect(await call('GET', '/api/v1/app-conversations/start-tasks/count')).toMatchObject({ status: 200, body: 2 });
  });
});
