/**
 * The agent server's conversation API on the agent host (in process, through the fake's own
 * pipeline: `fake.fetch`). One describe per route; each test names the real file and function it
 * copies: openhands-agent-server `conversation_router.py`, `conversation_service.py`,
 * `event_service.py`, `file_router.py`, and openhands-sdk `local_conversation.py`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';
import { runCli } from '../support/cli.js';
import { serve, startConversation } from './support.js';

const BASE = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
const AGENT_SPEC = {
  kind: 'Agent',
  llm: { model: 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929', api_key: 'sk-never-returned', usage_id: 'agent' },
  tools: [],
};
const WORKSPACE = { working_dir: '/workspace/project' };
/** A condenser that condenses when asked (openhands-sdk `llm_summarizing_condenser.py`). */
const SUMMARIZER = {
  kind: 'LLMSummarizingCondenser',
  llm: { model: 'openai/gpt-5-mini', usage_id: 'condenser' },
  max_size: 80,
  keep_first: 4,
};

let fake: FakeCore | null = null;
afterEach(() => {
  fake = null;
});

/** A fake whose agent host answers at AGENT; `auth` none by default (then it takes any or no key). */
async function start(auth: 'none' | 'legacy' = 'none', extra: Record<string, unknown> = {}): Promise<FakeCore> {
  fake = await createFakeCore({
    baseUrl: BASE,
    agentUrl: AGENT,
    auth,
    fixture: 'empty',
    timings: 'instant',
    checkResponses: true,
    ...extra,
  });
  return fake;
}

/** One request to `url` on the fake: its status and JSON body (or null). */
async function call(url: string, method = 'GET', body?: unknown, key?: string): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['x-session-api-key'] = key;
  const response = await fake!.fetch(new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Creates a conversation on the agent host; returns its info. */
async function create(extra: Record<string, unknown> = {}, key?: string): Promise<Record<string, unknown> & { id: string }> {
  const answer = await call(`${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE, ...extra }, key);
  expect(answer.status).toBe(201);
  return answer.body as Record<string, unknown> & { id: string };
}

/** The events of a conversation, oldest first. */
async function events(id: string, key?: string): Promise<Record<string, unknown>[]> {
  const page = (await call(`${AGENT}/api/conversations/${id}/events/search?limit=100`, 'GET', undefined, key)).body as {
    items: Record<string, unknown>[];
  };
  return page.items;
}

/** The kinds of a conversation's events (a state update as `key=value`; `last_user_message_id`, a new id each time, as its key). */
async function kinds(id: string, key?: string): Promise<string[]> {
  return (await events(id, key)).map((e) =>
    e.kind !== 'ConversationStateUpdateEvent'
      ? String(e.kind)
      : e.key === 'last_user_message_id'
        ? 'last_user_message_id'
        : `${String(e.key)}=${typeof e.value === 'object' ? (e.value as { status?: string }).status : String(e.value)}`,
  );
}

const status = async (id: string) =>
  ((await call(`${AGENT}/api/conversations/${id}`)).body as { execution_status: string }).execution_status;
const message = (text: string, run = false) => ({ role: 'user', content: [{ type: 'text', text }], run });

describe('POST /api/conversations', () => {
  it("creates an idle conversation with the request's workspace, tags and policy (conversation_router.py, start_conversation: 201)", async () => {
    await start();
    const info = await create({ tags: { team: 'web' }, confirmation_policy: { kind: 'AlwaysConfirm' }, max_iterations: 50 });
    expect(info).toMatchObject({
      execution_status: 'idle',
      title: null,
      workspace: { kind: 'LocalWorkspace', working_dir: '/workspace/project' },
      tags: { team: 'web' },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      max_iterations: 50,
      agent: { kind: 'Agent', llm: { model: AGENT_SPEC.llm.model } },
    });
    expect(JSON.stringify(info)).not.toContain('sk-never-returned');
    // No event yet: the agent is made ready, its system prompt published, at the first message (local_conversation.py, _ensure_agent_ready).
    expect(await kinds(info.id)).toEqual([]);
  });

  // openhands-sdk 1.58.2 `llm/llm.py` (`LLM`, every field written) and openhands-agent-server `models.py` (`ConversationInfo`).
  it("writes the agent's LLM as the real agent server 1.58.2 does: the client's settings over the defaults, every credential null, none kept", async () => {
    await start();
    const llm = {
      ...AGENT_SPEC.llm,
      base_url: 'http://127.0.0.1:9/v1',
      num_retries: 0,
      aws_secret_access_key: 'aws-never-returned',
      extra_headers: { Authorization: 'Bearer header-never-returned', 'X-Team': 'web' },
    };
    const info = await create({ agent: { ...AGENT_SPEC, llm } });
    const written = (info.agent as { llm: Record<string, unknown> }).llm;
    expect(written).toMatchObject({
      model: llm.model,
      base_url: 'http://127.0.0.1:9/v1',
      num_retries: 0,
      usage_id: 'agent',
      timeout: 300,
      stream: false,
    });
    expect([written.api_key, written.aws_access_key_id, written.aws_secret_access_key, written.aws_session_token]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(info).toMatchObject({
      invoked_skills: [],
      client_tools: [],
      runtime_info: null,
      tool_module_qualnames: { terminal: 'openhands.tools.terminal.definition' },
    });
    // A secret elsewhere in the settings is masked too, in the answer and in what is kept.
    expect(written.extra_headers).toEqual({ Authorization: '**********', 'X-Team': 'web' });
    // No LLM is registered before the agent is made ready at the first message (local_conversation.py, _ensure_agent_ready).
    expect(info.stats).toEqual({ usage_to_metrics: {} });
    const kept = JSON.stringify(await fake!.snapshot());
    expect(kept).toContain('http://127.0.0.1:9/v1');
    expect(kept).not.toMatch(/never-returned/);
    expect(JSON.stringify((await call(`${AGENT}/api/conversations/${info.id}`)).body)).not.toMatch(/never-returned/);
  });

  it('sends the initial message, and runs it when it says run (conversation_service.py, start_conversation)', async () => {
    await start();
    const waiting = await create({ initial_message: message('Write a plan') });
    expect(await kinds(waiting.id)).toEqual(['SystemPromptEvent', 'MessageEvent', 'last_user_message_id']);
    // The initial message is kept as the state's last_user_message_id too (local_conversation.py, _track_last_user_message).
    const [, sent, kept] = await events(waiting.id);
    expect(kept).toMatchObject({
      kind: 'ConversationStateUpdateEvent',
      source: 'environment',
      key: 'last_user_message_id',
      value: sent!.id,
    });
    const running = await create({ initial_message: message('Write a plan', true) });
    expect((await kinds(running.id)).slice(0, 4)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'last_user_message_id',
      'execution_status=running',
    ]);
    expect(await status(running.id)).toBe('finished');
  });

  it('answers the conversation it holds under a given id with 200 instead of creating it again (start_conversation: is_new)', async () => {
    await start();
    const id = '7d1c3b1e-4a8f-4c1e-9a55-0123456789ab';
    const first = await create({ conversation_id: id });
    const again = await call(`${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE, conversation_id: id });
    expect(again.status).toBe(200);
    expect((again.body as { id: string }).id).toBe(first.id);
  });

  it("refuses a request without an agent with FastAPI's 422 (request.py, StartConversationRequest._require_agent), an unknown parent with 422 (InvalidParentConversation)", async () => {
    await start();
    const none = await call(`${AGENT}/api/conversations`, 'POST', { workspace: WORKSPACE });
    expect(none.status).toBe(422);
    expect((none.body as { detail: { type: string; msg: string }[] }).detail[0]).toMatchObject({
      type: 'value_error',
      msg: 'Value error, One of `agent`, `agent_settings`, or `agent_profile_id` must be provided',
    });
    const noWorkspace = await call(`${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC });
    expect(noWorkspace).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body', 'workspace'], msg: 'Field required' }] },
    });
    const orphan = await call(`${AGENT}/api/conversations`, 'POST', {
      agent: AGENT_SPEC,
      workspace: WORKSPACE,
      parent_conversation_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(orphan).toEqual({ status: 422, body: { detail: 'Parent conversation 00000000000040008000000000000000 not found' } });
    const badTag = await call(`${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE, tags: { Team: 'x' } });
    expect(badTag.status).toBe(422);
    expect(await call(`${AGENT}/api/conversations/count`)).toEqual({ status: 200, body: 0 });
  });

  // FastAPI 0.165 (the agent server's; dependencies/utils.py, _validate_value_with_model_field) counts only an absent body as
  // missing: JSON null is validated like any other value. Each answer as openhands-agent-server 1.58.2 gives it.
  it.each([
    ['null', null],
    ['[]', []],
    ['"x"', 'x'],
    ['5', 5],
    ['true', true],
  ])('refuses the body %s, which is no object, with one model_attributes_type at ["body"]', async (text, input) => {
    await start();
    const response = await fake!.fetch(
      new Request(`${AGENT}/api/conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text }),
    );
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'model_attributes_type',
            loc: ['body'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input,
          },
        ],
      },
    });
  });

  it('refuses an empty body as missing', async () => {
    await start();
    const response = await fake!.fetch(
      new Request(`${AGENT}/api/conversations`, { method: 'POST', headers: { 'content-type': 'application/json' } }),
    );
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] },
    });
  });

  /** The create's answer to `agent` (the workspace and nothing else beside it). */
  const withAgent = (agent: unknown, extra: Record<string, unknown> = {}) =>
    call(`${AGENT}/api/conversations`, 'POST', { agent, workspace: WORKSPACE, ...extra });
  /** A 422 of one pydantic error. */
  const refusal = (error: Record<string, unknown>) => ({ status: 422, body: { detail: [error] } });
  /** The words of `resolve_kind` for a kind none of a base's classes has. */
  const unknownKind = (kind: string, base: string, kinds: string) => `Unknown kind '${kind}' for ${base}; Expected one of: [${kinds}]`;
  const AGENT_BASE = 'openhands.sdk.agent.base.AgentBase';
  const POLICY_BASE = 'openhands.sdk.security.confirmation_policy.ConfirmationPolicyBase';

  // Each answer below as openhands-agent-server 1.58.2 gives it (test/real/agent-server.real.test.ts sends the same bodies).
  it('refuses an llm without a model with value_error "model must be specified in LLM", as an empty or null model (llm/llm.py, LLM._coerce_inputs)', async () => {
    await start();
    for (const llm of [{}, { model: '' }, { model: null, usage_id: 'agent' }]) {
      expect(await withAgent({ kind: 'Agent', llm })).toEqual(
        refusal({
          type: 'value_error',
          loc: ['body', 'agent', 'llm'],
          msg: 'Value error, model must be specified in LLM',
          input: llm,
          ctx: { error: 'model must be specified in LLM' },
        }),
      );
    }
    // No kind, but an llm: an Agent (conversation/request.py, StartConversationRequest._normalize_agent_source).
    expect(await withAgent({ llm: {} })).toEqual(
      refusal({
        type: 'value_error',
        loc: ['body', 'agent', 'llm'],
        msg: 'Value error, model must be specified in LLM',
        input: {},
        ctx: { error: 'model must be specified in LLM' },
      }),
    );
    expect(await call(`${AGENT}/api/conversations/count`)).toEqual({ status: 200, body: 0 });
  });

  it('refuses an llm that is no object with model_type for LLM (llm/llm.py, LLM)', async () => {
    await start();
    for (const llm of ['x', null])
      expect(await withAgent({ kind: 'Agent', llm })).toEqual(
        refusal({
          type: 'model_type',
          loc: ['body', 'agent', 'llm'],
          msg: 'Input should be a valid dictionary or instance of LLM',
          input: llm,
          ctx: { class_name: 'LLM' },
        }),
      );
  });

  it('refuses tools that are no list with list_type, a tool without a name as missing, a tool that is no object with model_type (agent/base.py, AgentBase.tools; tool/spec.py, Tool.name)', async () => {
    await start();
    const llm = { model: 'x' };
    expect(await withAgent({ kind: 'Agent', llm, tools: {} })).toEqual(
      refusal({ type: 'list_type', loc: ['body', 'agent', 'tools'], msg: 'Input should be a valid list', input: {} }),
    );
    expect(await withAgent({ kind: 'Agent', llm, tools: [{}] })).toEqual(
      refusal({ type: 'missing', loc: ['body', 'agent', 'tools', 0, 'name'], msg: 'Field required', input: {} }),
    );
    expect(await withAgent({ kind: 'Agent', llm, tools: [{ name: 'terminal' }, { params: {} }] })).toEqual(
      refusal({ type: 'missing', loc: ['body', 'agent', 'tools', 1, 'name'], msg: 'Field required', input: { params: {} } }),
    );
    expect(await withAgent({ kind: 'Agent', llm, tools: [{ name: 5 }] })).toEqual(
      refusal({ type: 'string_type', loc: ['body', 'agent', 'tools', 0, 'name'], msg: 'Input should be a valid string', input: 5 }),
    );
    expect(await withAgent({ kind: 'Agent', llm, tools: ['x'] })).toEqual(
      refusal({
        type: 'model_type',
        loc: ['body', 'agent', 'tools', 0],
        msg: 'Input should be a valid dictionary or instance of Tool',
        input: 'x',
        ctx: { class_name: 'Tool' },
      }),
    );
  });

  it('refuses an Agent without an llm as missing, with the dict its before-validator rewrote as the input (agent/base.py, AgentBase.llm; agent/agent.py, Agent._add_security_prompt_as_default)', async () => {
    await start();
    // pydantic reports the dict the model validated: the kind popped (utils/models.py, DiscriminatedUnionMixin._validate_subtype)
    // and `system_prompt_kwargs.llm_security_analyzer` set by default, not the agent as sent.
    expect(await withAgent({ kind: 'Agent' })).toEqual(
      refusal({
        type: 'missing',
        loc: ['body', 'agent', 'llm'],
        msg: 'Field required',
        input: { system_prompt_kwargs: { llm_security_analyzer: true } },
      }),
    );
    expect(await withAgent({ kind: 'Agent', system_prompt_kwargs: { a: 1 }, tools: [] })).toEqual(
      refusal({
        type: 'missing',
        loc: ['body', 'agent', 'llm'],
        msg: 'Field required',
        input: { system_prompt_kwargs: { a: 1, llm_security_analyzer: true }, tools: [] },
      }),
    );
  });

  it('reads a temperature as pydantic\'s lax float does: "0.5" is 0.5, "hot" is float_parsing, a list float_type, -1 below its bound (llm/llm.py, LLM.temperature)', async () => {
    await start();
    const temperature = (value: unknown) => withAgent({ kind: 'Agent', llm: { model: 'x', temperature: value } });
    const created = await temperature('0.5');
    expect(created.status).toBe(201);
    expect((created.body as { agent: { llm: { temperature: unknown } } }).agent.llm.temperature).toBe(0.5);
    const loc = ['body', 'agent', 'llm', 'temperature'];
    expect(await temperature('hot')).toEqual(
      refusal({ type: 'float_parsing', loc, msg: 'Input should be a valid number, unable to parse string as a number', input: 'hot' }),
    );
    expect(await temperature([])).toEqual(refusal({ type: 'float_type', loc, msg: 'Input should be a valid number', input: [] }));
    expect(await temperature(-1)).toEqual(
      refusal({ type: 'greater_than_equal', loc, msg: 'Input should be greater than or equal to 0', input: -1, ctx: { ge: 0 } }),
    );
  });

  it('refuses an agent of unknown kind, or of none without an llm, with value_error Unknown kind and the agent as sent; one that is no object with model_attributes_type (utils/models.py, DiscriminatedUnionMixin.resolve_kind)', async () => {
    await start();
    for (const [agent, kind] of [
      [{ kind: 'Nope', llm: { model: 'x' } }, 'Nope'],
      [{}, ''],
      [{ kind: null, llm: { model: 'x' } }, ''],
      [{ kind: 5, llm: { model: 'x' } }, '5'],
    ] as const) {
      const error = unknownKind(kind, AGENT_BASE, "'ACPAgent', 'Agent'");
      expect(await withAgent(agent)).toEqual(
        refusal({ type: 'value_error', loc: ['body', 'agent'], msg: `Value error, ${error}`, input: agent, ctx: { error } }),
      );
    }
    // FastAPI validates the body with from_attributes=True, so an agent that is no object is no model_type (as its llm is, validated
    // afresh by DiscriminatedUnionMixin._validate_subtype) but model_attributes_type.
    expect(await withAgent('x')).toEqual(
      refusal({
        type: 'model_attributes_type',
        loc: ['body', 'agent'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'x',
      }),
    );
  });

  it('refuses a confirmation policy of unknown kind, or of none, with value_error Unknown kind; one that is no object with model_attributes_type (conversation/request.py, ConversationConfig.confirmation_policy)', async () => {
    await start();
    const kinds = "'AlwaysConfirm', 'ConfirmRisky', 'NeverConfirm'";
    for (const [policy, kind] of [
      [{ kind: 'Nope' }, 'Nope'],
      [{}, ''],
    ] as const) {
      const error = unknownKind(kind, POLICY_BASE, kinds);
      expect(await withAgent(AGENT_SPEC, { confirmation_policy: policy })).toEqual(
        refusal({ type: 'value_error', loc: ['body', 'confirmation_policy'], msg: `Value error, ${error}`, input: policy, ctx: { error } }),
      );
    }
    // From FastAPI's from_attributes=True validation, as an agent that is no object.
    expect(await withAgent(AGENT_SPEC, { confirmation_policy: null })).toEqual(
      refusal({
        type: 'model_attributes_type',
        loc: ['body', 'confirmation_policy'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: null,
      }),
    );
  });

  it('refuses a conversation_id that is no UUID with 422 uuid_parsing, one that is no string with uuid_type (request.py, ConversationConfig.conversation_id: UUID | None)', async () => {
    await start();
    const body = (conversation_id: unknown) => ({ agent: AGENT_SPEC, workspace: WORKSPACE, conversation_id });
    // As openhands-agent-server 1.58.2 answers each.
    expect(await call(`${AGENT}/api/conversations`, 'POST', body('nope'))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['body', 'conversation_id'],
            msg: 'Input should be a valid UUID, invalid character: found `n` at 0',
            input: 'nope',
            ctx: { error: 'invalid character: found `n` at 0' },
          },
        ],
      },
    });
    expect(await call(`${AGENT}/api/conversations`, 'POST', body('abc'))).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'uuid_parsing',
            loc: ['body', 'conversation_id'],
            msg: 'Input should be a valid UUID, invalid length: found 3',
            input: 'abc',
            ctx: { error: 'invalid length: found 3' },
          },
        ],
      },
    });
    expect(await call(`${AGENT}/api/conversations`, 'POST', body(5))).toEqual({
      status: 422,
      body: {
        detail: [
          { type: 'uuid_type', loc: ['body', 'conversation_id'], msg: 'UUID input should be a string, bytes or UUID object', input: 5 },
        ],
      },
    });
    const braced = await create({ conversation_id: '{7d1c3b1e-4a8f-4c1e-9a55-0123456789ab}' });
    expect(braced.id).toBe('7d1c3b1e-4a8f-4c1e-9a55-0123456789ab');
  });

  it('is listed on the agent host, not by the app server, which lists what it started (the same record seen from two hosts)', async () => {
    await start();
    const info = await create();
    expect((await call(`${AGENT}/api/conversations/search`)).body).toMatchObject({ items: [{ id: info.id }], next_page_id: null });
    expect((await call(`${BASE}/api/v1/app-conversations/search`)).body).toEqual({ items: [], next_page_id: null });
  });

  it("with a sandbox's session key, creates the conversation in that sandbox; without one, 401 unless the fake runs with --auth none", async () => {
    await start('legacy');
    const { id } = (await call(`${BASE}/api/v1/sandboxes`, 'POST', {})).body as { id: string };
    let sandbox = { status: 'STARTING', session_api_key: '' };
    for (let i = 0; i < 200 && sandbox.status !== 'RUNNING'; i++) {
      sandbox = ((await call(`${BASE}/api/v1/sandboxes?id=${id}`)).body as (typeof sandbox)[])[0]!;
      if (sandbox.status !== 'RUNNING') await new Promise((r) => setTimeout(r, 10));
    }
    expect(await call(`${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE })).toEqual({
      status: 401,
      body: { detail: 'Unauthorized' },
    });
    const info = await create({}, sandbox.session_api_key);
    expect(await call(`${AGENT}/api/conversations/count`, 'GET', undefined, sandbox.session_api_key)).toEqual({ status: 200, body: 1 });
    expect(
      ((await call(`${AGENT}/api/conversations/${info.id}`, 'GET', undefined, sandbox.session_api_key)).body as { id: string }).id,
    ).toBe(info.id);
  });
});

describe('tenants on the agent host', () => {
  it("a conversation created in one tenant (X-Fakehands-Tenant) is held by that tenant's agent host alone", async () => {
    await start();
    const inTenant = async (tenant: string, url: string, method = 'GET', body?: unknown) => {
      const response = await fake!.fetch(
        new Request(url, {
          method,
          headers: { 'x-fakehands-tenant': tenant, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const created = await inTenant('worker-a', `${AGENT}/api/conversations`, 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE });
    expect(created.status).toBe(201);
    expect(await inTenant('worker-a', `${AGENT}/api/conversations/count`)).toEqual({ status: 200, body: 1 });
    expect(await inTenant('worker-b', `${AGENT}/api/conversations/count`)).toEqual({ status: 200, body: 0 });
    expect(await call(`${AGENT}/api/conversations/count`)).toEqual({ status: 200, body: 0 });
    expect((await inTenant('worker-b', `${AGENT}/api/conversations/${(created.body as { id: string }).id}`)).status).toBe(404);
  });
});

describe('GET /api/conversations/{id}, /search, /count, ?ids=', () => {
  it('gets one (404 for an unknown id: conversation_router.py, get_conversation), searches by status and pages, counts, and batch-gets with null (batch_get_conversations)', async () => {
    await start();
    const a = await create();
    const b = await create({ initial_message: message('Go', true) });
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000`)).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
    expect(await call(`${AGENT}/api/conversations/count?status=finished`)).toEqual({ status: 200, body: 1 });
    const page = (await call(`${AGENT}/api/conversations/search?limit=1&sort_order=CREATED_AT`)).body as {
      items: { id: string }[];
      next_page_id: string;
    };
    expect(page.items.map((c) => c.id)).toEqual([a.id]);
    const next = (await call(`${AGENT}/api/conversations/search?limit=1&sort_order=CREATED_AT&page_id=${page.next_page_id}`)).body as {
      items: { id: string }[];
      next_page_id: null;
    };
    expect(next).toMatchObject({ items: [{ id: b.id }], next_page_id: null });
    const batch = (await call(`${AGENT}/api/conversations?ids=${a.id}&ids=00000000-0000-4000-8000-000000000000`)).body as ({
      id: string;
    } | null)[];
    expect(batch.map((c) => c?.id ?? null)).toEqual([a.id, null]);
    expect((await call(`${AGENT}/api/conversations/search?limit=0`)).status).toBe(422);
  });
});

describe('GET /api/conversations/{id} with an id that is no UUID', () => {
  /** The one 422 item pydantic 2.14.4 (pydantic-core 2.50.5, the agent server's) gives a path id that is no UUID. */
  const notAUuid = (input: string, error: string) => ({
    status: 422,
    body: {
      detail: [
        { type: 'uuid_parsing', loc: ['path', 'conversation_id'], msg: `Input should be a valid UUID, ${error}`, input, ctx: { error } },
      ],
    },
  });

  // Each answer read from openhands-agent-server 1.58.2 (conversation_router.py, get_conversation: `conversation_id: UUID`).
  it.each([
    ['not-a-uuid', 'invalid character: found `n` at 0'],
    ['abc', 'invalid length: found 3'],
    ['1234', 'invalid length: found 4'],
    ['a'.repeat(37), 'invalid length: found 37'],
    [`${'0'.repeat(31)}g`, 'invalid character: found `g` at 31'],
    ['00000000-0000-4000-8000-00000000000', 'invalid group length in group 4: expected 12, found 11'],
    ['0000000000000000-0000000000000000', 'invalid group count: expected 5, found 2'],
    ['URN:UUID:00000000-0000-4000-8000-000000000000', 'invalid character: found `U` at 0'],
  ])('answers %s with 422 uuid_parsing: "%s"', async (id, error) => {
    await start();
    expect(await call(`${AGENT}/api/conversations/${id}`)).toEqual(notAUuid(id, error));
  });

  it('takes the braced and lowercase urn:uuid: forms as the UUID they hold (404 for one it does not hold)', async () => {
    await start();
    const info = await create();
    expect((await call(`${AGENT}/api/conversations/%7B${info.id}%7D`)).body).toMatchObject({ id: info.id });
    expect((await call(`${AGENT}/api/conversations/urn:uuid:${info.id}`)).body).toMatchObject({ id: info.id });
    expect(await call(`${AGENT}/api/conversations/urn:uuid:00000000-0000-4000-8000-000000000000`)).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});

describe('PATCH /api/conversations/{id}', () => {
  it('sets the title (trimmed) and tags; {"success": false} for an unknown id; 422 for an empty title (conversation_router.py, update_conversation)', async () => {
    await start();
    const info = await create();
    expect(await call(`${AGENT}/api/conversations/${info.id}`, 'PATCH', { title: '  Fix the build  ', tags: { env: 'ci' } })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await call(`${AGENT}/api/conversations/${info.id}`)).body).toMatchObject({ title: 'Fix the build', tags: { env: 'ci' } });
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000`, 'PATCH', { title: 'x' })).toEqual({
      status: 200,
      body: { success: false },
    });
    expect((await call(`${AGENT}/api/conversations/${info.id}`, 'PATCH', { title: '' })).status).toBe(422);
  });
});

describe('DELETE /api/conversations/{id}', () => {
  // conversation_router.py, delete_conversation: HTTPException(404) when ConversationService.delete_conversation returns False.
  it('deletes it and its events; a second delete, of a conversation it no longer holds, is 404 Not Found', async () => {
    await start();
    const info = await create();
    expect(await call(`${AGENT}/api/conversations/${info.id}`, 'DELETE')).toEqual({ status: 200, body: { success: true } });
    expect((await call(`${AGENT}/api/conversations/${info.id}`)).status).toBe(404);
    expect(await call(`${AGENT}/api/conversations/${info.id}`, 'DELETE')).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });
});

describe('POST /api/conversations/{id}/run', () => {
  it('runs the agent on a message sent with run: false (event_service.py, run); 409 while it runs', async () => {
    await start('none', { timings: { agentRunMs: 60_000 } });
    const info = await create();
    expect((await call(`${AGENT}/api/conversations/${info.id}/events`, 'POST', message('Waiting for run'))).status).toBe(200);
    expect(await status(info.id)).toBe('idle');
    expect(await call(`${AGENT}/api/conversations/${info.id}/run`, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect(await status(info.id)).toBe('running');
    expect(await call(`${AGENT}/api/conversations/${info.id}/run`, 'POST')).toEqual({
      status: 409,
      body: { detail: 'Conversation already running. Wait for completion or pause first.' },
    });
  });
});

describe('POST /api/conversations/{id}/pause', () => {
  it('pauses an idle conversation too: paused, then a PauseEvent; a paused or finished one stays (local_conversation.py, pause); 404 for an unknown id (pause_conversation)', async () => {
    await start();
    const idle = await create();
    expect(await call(`${AGENT}/api/conversations/${idle.id}/pause`, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect(await kinds(idle.id)).toEqual(['execution_status=paused', 'PauseEvent']);
    await call(`${AGENT}/api/conversations/${idle.id}/pause`, 'POST');
    expect(await kinds(idle.id)).toHaveLength(2);
    const finished = await create({ initial_message: message('Go', true) });
    const before = (await kinds(finished.id)).length;
    await call(`${AGENT}/api/conversations/${finished.id}/pause`, 'POST');
    expect(await kinds(finished.id)).toHaveLength(before);
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000/pause`, 'POST')).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});

describe('POST /api/conversations/{id}/interrupt', () => {
  it('cancels a running agent at once: paused, then an InterruptEvent; run goes on (local_conversation.py, interrupt and arun)', async () => {
    await start('none', { timings: { agentRunMs: 60_000 } });
    const info = await create({ initial_message: message('Go', true) });
    expect(await call(`${AGENT}/api/conversations/${info.id}/interrupt`, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect((await kinds(info.id)).slice(-2)).toEqual(['execution_status=paused', 'InterruptEvent']);
    expect(await status(info.id)).toBe('paused');
    await call(`${AGENT}/api/conversations/${info.id}/run`, 'POST');
    expect(await status(info.id)).toBe('running');
  });

  it('falls back to pause without a run (a PauseEvent); 404 for an unknown id (interrupt_conversation)', async () => {
    await start();
    const info = await create();
    await call(`${AGENT}/api/conversations/${info.id}/interrupt`, 'POST');
    expect(await kinds(info.id)).toEqual(['execution_status=paused', 'PauseEvent']);
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000/interrupt`, 'POST')).toEqual({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});

describe('POST /api/conversations/{id}/goal, /goal/stop, /goal/resume', () => {
  it('starts a goal (a goal status, the objective, a run), 409 while it runs; stop interrupts it; resume goes on; 400 no_resumable_goal once complete (event_service.py, start_goal_loop, stop_goal_loop, resume_goal_loop)', async () => {
    await start('none', { timings: { agentRunMs: 60_000 } });
    const info = await create();
    const goal = `${AGENT}/api/conversations/${info.id}/goal`;
    expect(await call(`${goal}/resume`, 'POST')).toEqual({ status: 400, body: { detail: 'no_resumable_goal' } });
    expect(await call(goal, 'POST', { objective: 'All tests pass' })).toEqual({ status: 200, body: { success: true } });
    // The goal's message makes the agent ready: its system prompt comes before it (local_conversation.py, _ensure_agent_ready).
    expect((await kinds(info.id)).slice(0, 5)).toEqual([
      'goal=running',
      'SystemPromptEvent',
      'MessageEvent',
      'last_user_message_id',
      'execution_status=running',
    ]);
    expect(await call(goal, 'POST', { objective: 'Again' })).toEqual({
      status: 409,
      body: { detail: 'Conversation run or goal loop already running.' },
    });
    expect(await call(`${goal}/stop`, 'POST', {})).toEqual({ status: 200, body: { success: true } });
    expect((await kinds(info.id)).at(-1)).toBe('goal=interrupted');
    await call(`${AGENT}/api/conversations/${info.id}/interrupt`, 'POST');
    expect(await call(`${goal}/resume`, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect(await status(info.id)).toBe('running');
    expect((await call(goal, 'POST', { objective: '' })).status).toBe(400);
    expect((await call(goal, 'POST', { objective: 'x', max_iterations: 0 })).status).toBe(422);
  });

  /** The `goal` status updates of a conversation, oldest first. */
  const goals = async (id: string) =>
    (await events(id)).filter((e) => e.key === 'goal').map((e) => e.value as { active: boolean; status: string; iteration: number });

  it('publishes the goal judged when its run ends, without another request: complete after the first audit, with its verdict (event_service.py, _run_goal_loop; goal/controller.py, on_run_finished)', async () => {
    await start();
    const info = await create();
    const goal = `${AGENT}/api/conversations/${info.id}/goal`;
    expect(await call(goal, 'POST', { objective: 'All tests pass', max_iterations: 3 })).toEqual({ status: 200, body: { success: true } });
    expect(await goals(info.id)).toEqual([
      { active: true, status: 'running', iteration: 0, max_iterations: 3, objective: 'All tests pass', verdict: null },
      {
        active: false,
        status: 'complete',
        iteration: 1,
        max_iterations: 3,
        objective: 'All tests pass',
        verdict: { score: 1, complete: true, missing: '' },
      },
    ]);
    const order = await kinds(info.id);
    expect(order.at(-1)).toBe('goal=complete');
    expect(order.indexOf('execution_status=finished')).toBeGreaterThan(order.indexOf('goal=running'));
    expect(await call(`${goal}/resume`, 'POST')).toEqual({ status: 400, body: { detail: 'no_resumable_goal' } });
  });

  it('a pause ends the goal interrupted, no round counted; resume goes on from that round (_run_goal_loop: a paused run halts it; resume_goal_loop)', async () => {
    await start('none', { timings: { agentRunMs: 60_000 } });
    const info = await create();
    const goal = `${AGENT}/api/conversations/${info.id}/goal`;
    await call(goal, 'POST', { objective: 'Ship it', max_iterations: 2 });
    await call(`${AGENT}/api/conversations/${info.id}/pause`, 'POST');
    expect((await goals(info.id)).map((g) => [g.status, g.iteration])).toEqual([
      ['running', 0],
      ['interrupted', 0],
    ]);
    expect(await call(`${goal}/resume`, 'POST')).toEqual({ status: 200, body: { success: true } });
    expect((await goals(info.id)).at(-1)).toMatchObject({ active: true, status: 'running', iteration: 0 });
  });
});

describe('POST /api/conversations/{id}/ask_agent and GET .../agent_final_response', () => {
  it('answers a question without an event; 500 for an unknown id (conversation_router.py, ask_agent); the final response is the last agent message, "" before any (get_conversation_agent_final_response)', async () => {
    await start();
    const info = await create();
    expect(await call(`${AGENT}/api/conversations/${info.id}/agent_final_response`)).toEqual({ status: 200, body: { response: '' } });
    await call(`${AGENT}/api/conversations/${info.id}/events`, 'POST', message('Write a plan', true));
    const final = (await call(`${AGENT}/api/conversations/${info.id}/agent_final_response`)).body as { response: string };
    expect(final.response).toMatch(/^Done: I changed /);
    const before = await kinds(info.id);
    const asked = await call(`${AGENT}/api/conversations/${info.id}/ask_agent`, 'POST', { question: 'What did you change?' });
    expect(asked.status).toBe(200);
    expect((asked.body as { response: string }).response).toContain('What did you change?');
    expect(await kinds(info.id)).toEqual(before);
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000/ask_agent`, 'POST', { question: 'x' })).toEqual({
      status: 500,
      body: { detail: 'Internal Server Error' },
    });
  });
});

describe('POST /api/conversations/{id}/condense', () => {
  it('publishes a Condensation that forgets what came before the last user message; 404 "Conversation not found" for an unknown id (condense_conversation)', async () => {
    await start();
    const info = await create({ agent: { ...AGENT_SPEC, condenser: SUMMARIZER }, initial_message: message('One', true) });
    await call(`${AGENT}/api/conversations/${info.id}/events`, 'POST', message('Two', true));
    expect(await call(`${AGENT}/api/conversations/${info.id}/condense`, 'POST')).toEqual({ status: 200, body: { success: true } });
    const page = (await call(`${AGENT}/api/conversations/${info.id}/events/search?kind=Condensation`)).body as {
      items: { forgotten_event_ids: string[] }[];
    };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.forgotten_event_ids.length).toBeGreaterThan(3);
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000/condense`, 'POST')).toEqual({
      status: 404,
      body: { detail: 'Conversation not found' },
    });
  });

  it('409 for an agent without a condenser, or with one that condenses only on its own, and nothing published (event_service.py, condense: CondensationUnavailable)', async () => {
    await start();
    const none = await create({ initial_message: message('One', true) });
    const before = await kinds(none.id);
    expect(await call(`${AGENT}/api/conversations/${none.id}/condense`, 'POST')).toEqual({
      status: 409,
      body: { detail: 'Cannot condense conversation: No condenser configured' },
    });
    expect(await kinds(none.id)).toEqual(before);
    const noOp = await create({ agent: { ...AGENT_SPEC, condenser: { kind: 'NoOpCondenser' } } });
    expect(await call(`${AGENT}/api/conversations/${noOp.id}/condense`, 'POST')).toEqual({
      status: 409,
      body: { detail: 'Cannot condense conversation: Condenser NoOpCondenser does not handle condensation requests' },
    });
  });
});

describe('POST /api/conversations/{id}/fork', () => {
  // openhands-sdk local_conversation.py LocalConversation.fork: the log copied with its parents, the source's HEAD; a fresh state.
  it("forks: 201, an idle copy of the history naming the same parents, the source's HEAD, no last user message and empty statistics (conversation_router.py, fork_conversation)", async () => {
    await start();
    const source = await create({ initial_message: message('Go', true) });
    const fork = await call(`${AGENT}/api/conversations/${source.id}/fork`, 'POST', { title: 'Try B', tags: { branch: 'b' } });
    expect(fork.status).toBe(201);
    const forked = fork.body as Record<string, unknown> & { id: string };
    const sourceInfo = (await call(`${AGENT}/api/conversations/${source.id}`)).body as {
      leaf_event_id: string;
      last_user_message_id: string;
    };
    expect(forked).toMatchObject({
      execution_status: 'idle',
      title: 'Try B',
      forked_from_conversation_id: source.id,
      last_user_message_id: null,
      stats: { usage_to_metrics: {} },
    });
    expect(sourceInfo.last_user_message_id).toEqual(expect.any(String));
    expect(await kinds(forked.id)).toEqual(await kinds(source.id));
    // Each copy names the copy of its original's parent: the same tree, position for position.
    const tree = async (id: string) => {
      const items = (await events(id)) as { id: string; parent_id?: string }[];
      return {
        at: items.map((e) => e.id),
        parents: items.map((e) => (e.parent_id === undefined ? null : items.findIndex((p) => p.id === e.parent_id))),
      };
    };
    const [original, copy] = await Promise.all([tree(source.id), tree(forked.id)]);
    expect(copy.parents).toEqual(original.parents);
    expect(copy.at.indexOf(forked.leaf_event_id as string)).toBe(original.at.indexOf(sourceInfo.leaf_event_id));
    // A fork at an event copies the branch that ends there (path_to_root: no state update), HEAD at its copy.
    const action = original.at[(await kinds(source.id)).indexOf('ActionEvent')]!;
    const partial = (await call(`${AGENT}/api/conversations/${source.id}/fork`, 'POST', { from_event_id: action })).body as {
      id: string;
      leaf_event_id: string;
    };
    expect(await kinds(partial.id)).toEqual(['SystemPromptEvent', 'MessageEvent', 'ActionEvent']);
    expect(partial.leaf_event_id).toBe((await tree(partial.id)).at[2]);
    expect((await call(`${AGENT}/api/conversations/${source.id}/fork`, 'POST', { id: forked.id })).status).toBe(409);
    expect(await call(`${AGENT}/api/conversations/${source.id}/fork`, 'POST', { from_event_id: 'nope' })).toEqual({
      status: 404,
      body: { detail: 'Unknown from_event_id: nope' },
    });
    expect(await call(`${AGENT}/api/conversations/00000000-0000-4000-8000-000000000000/fork`, 'POST', {})).toEqual({
      status: 404,
      body: { detail: 'Source conversation not found' },
    });
  });
});

describe('parent_id and leaf_event_id (the conversation tree)', () => {
  // openhands-sdk conversation/state.py _stamp_parent_id, append_event and _resolve_active_leaf.
  it("names HEAD as each new event's parent; a state update never becomes HEAD; the first event has none, one after state updates alone the root marker", async () => {
    await start();
    const info = await create({ confirmation_policy: { kind: 'NeverConfirm' } });
    await call(`${AGENT}/api/conversations/${info.id}/confirmation_policy`, 'POST', { policy: { kind: 'AlwaysConfirm' } });
    await call(`${AGENT}/api/conversations/${info.id}/events`, 'POST', message('Go'));
    const items = (await events(info.id)) as { id: string; kind: string; parent_id?: string }[];
    expect(items.map((e) => e.kind)).toEqual([
      'ConversationStateUpdateEvent',
      'SystemPromptEvent',
      'MessageEvent',
      'ConversationStateUpdateEvent',
    ]);
    expect(items.map((e) => e.parent_id)).toEqual([undefined, '__root__', items[1]!.id, items[2]!.id]);
    expect(((await call(`${AGENT}/api/conversations/${info.id}`)).body as { leaf_event_id: string }).leaf_event_id).toBe(items[2]!.id);
  });

  it('hangs the next event under the event navigated to, then HEAD follows it (navigate_conversation)', async () => {
    await start();
    const info = await create({ initial_message: message('Go') });
    const prompt = ((await events(info.id)) as { id: string }[])[0]!.id;
    await call(`${AGENT}/api/conversations/${info.id}/navigate`, 'POST', { event_id: prompt });
    await call(`${AGENT}/api/conversations/${info.id}/events`, 'POST', message('Another way'));
    const items = (await events(info.id)) as { id: string; kind: string; parent_id?: string }[];
    const another = items.findLast((e) => e.kind === 'MessageEvent')!;
    expect(another.parent_id).toBe(prompt);
    expect(((await call(`${AGENT}/api/conversations/${info.id}`)).body as { leaf_event_id: string }).leaf_event_id).toBe(another.id);
  });
});

describe('POST /api/conversations/{id}/generate_title', () => {
  it('titles the conversation from its first message, cut to max_length (v1.11.4 document, generate_conversation_title)', async () => {
    await start();
    const info = await create({ initial_message: message('Make the login page load faster on slow phones') });
    expect(await call(`${AGENT}/api/conversations/${info.id}/generate_title`, 'POST', { max_length: 20 })).toEqual({
      status: 200,
      body: { title: 'Make the login pa...' },
    });
    expect(((await call(`${AGENT}/api/conversations/${info.id}`)).body as { title: string }).title).toBe('Make the login pa...');
  });
});

describe('POST /api/conversations/{id}/secrets', () => {
  it('adds secret names to the registry, never their values (conversation_router.py, update_conversation_secrets; models.py, UpdateSecretsRequest takes strings)', async () => {
    await start();
    const info = await create();
    expect(
      await call(`${AGENT}/api/conversations/${info.id}/secrets`, 'POST', {
        secrets: { GITHUB_TOKEN: 'ghp_secret', NPM: { kind: 'StaticSecret', value: 'npm_secret' } },
      }),
    ).toEqual({ status: 200, body: { success: true } });
    const got = (await call(`${AGENT}/api/conversations/${info.id}`)).body as {
      secret_registry: { secret_sources: Record<string, unknown> };
    };
    // As 1.58.2 writes them: each value and description null.
    expect(got.secret_registry.secret_sources).toEqual({
      GITHUB_TOKEN: { description: null, value: null, kind: 'StaticSecret' },
      NPM: { description: null, value: null, kind: 'StaticSecret' },
    });
    expect(JSON.stringify(got)).not.toMatch(/ghp_secret|npm_secret/);
    expect(JSON.stringify(fake!.snapshot())).not.toMatch(/ghp_secret|npm_secret/);
  });
});

describe('POST /api/conversations/{id}/security_analyzer', () => {
  it('sets and removes the analyzer, publishing the change; the field is required (set_conversation_security_analyzer)', async () => {
    await start();
    const info = await create();
    expect(
      await call(`${AGENT}/api/conversations/${info.id}/security_analyzer`, 'POST', { security_analyzer: { kind: 'LLMSecurityAnalyzer' } }),
    ).toEqual({ status: 200, body: { success: true } });
    expect((await call(`${AGENT}/api/conversations/${info.id}`)).body).toMatchObject({
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
    });
    await call(`${AGENT}/api/conversations/${info.id}/security_analyzer`, 'POST', { security_analyzer: null });
    expect((await call(`${AGENT}/api/conversations/${info.id}`)).body).toMatchObject({ security_analyzer: null });
    expect((await call(`${AGENT}/api/conversations/${info.id}/security_analyzer`, 'POST', {})).status).toBe(422);
  });
});

describe('POST /api/conversations/{id}/confirmation_policy', () => {
  it('sets the policy the conversation reports (set_conversation_confirmation_policy)', async () => {
    await start();
    const info = await create();
    expect(await call(`${AGENT}/api/conversations/${info.id}/confirmation_policy`, 'POST', { policy: { kind: 'AlwaysConfirm' } })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await call(`${AGENT}/api/conversations/${info.id}`)).body).toMatchObject({ confirmation_policy: { kind: 'AlwaysConfirm' } });
  });
});

describe('POST /api/conversations/{id}/switch_llm, /switch_profile, /switch_acp_model', () => {
  it('switches the LLM; to a profile the user saved, by name (404 "Profile \'x\' not found" for one not saved); an ACP model only for an ACP agent (400) (switch_conversation_llm, switch_conversation_profile with local_conversation.py switch_profile, switch_conversation_acp_model)', async () => {
    await start();
    const info = await create();
    const url = `${AGENT}/api/conversations/${info.id}`;
    expect(await call(`${url}/switch_llm`, 'POST', { llm: { model: 'openai/gpt-5' } })).toEqual({ status: 200, body: { success: true } });
    expect((await call(url)).body).toMatchObject({ agent: { llm: { model: 'openai/gpt-5' } } });
    expect(await call(`${url}/switch_profile`, 'POST', { profile_name: 'smart' })).toEqual({
      status: 404,
      body: { detail: "Profile 'smart' not found" },
    });
    expect((await call(`${AGENT}/api/profiles/smart`, 'POST', { llm: { model: 'anthropic/claude-opus-4-1-20250805' } })).status).toBe(201);
    expect(await call(`${url}/switch_profile`, 'POST', { profile_name: 'smart' })).toEqual({ status: 200, body: { success: true } });
    expect((await call(url)).body).toMatchObject({ agent: { llm: { model: 'anthropic/claude-opus-4-1-20250805' } } });
    expect(await call(`${url}/switch_profile`, 'POST', { profile_name: 'nope' })).toEqual({
      status: 404,
      body: { detail: "Profile 'nope' not found" },
    });
    expect(await call(`${url}/switch_acp_model`, 'POST', { model: 'm' })).toEqual({
      status: 400,
      body: { detail: 'switch_acp_model is only supported for ACP conversations.' },
    });
    const acp = await create({ agent: { kind: 'ACPAgent', acp_command: ['claude-code-acp'] } });
    expect(await call(`${AGENT}/api/conversations/${acp.id}/switch_acp_model`, 'POST', { model: 'opus' })).toEqual({
      status: 200,
      body: { success: true },
    });
    expect((await call(`${AGENT}/api/conversations/${acp.id}`)).body).toMatchObject({ current_model_id: 'opus' });
  });
});

describe('GET /api/file/download-trajectory/{id}', () => {
  it('answers a ZIP of the conversation\'s state and events; 404 "Conversation not found" (file_router.py, download_trajectory)', async () => {
    await start();
    const info = await create({ initial_message: message('Go', true) });
    const response = await fake!.fetch(new Request(`${AGENT}/api/file/download-trajectory/${info.id}`));
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    expect(new TextDecoder().decode(bytes)).toContain('base_state.json');
    expect(await call(`${AGENT}/api/file/download-trajectory/00000000-0000-4000-8000-000000000000`)).toEqual({
      status: 404,
      body: { detail: 'Conversation not found' },
    });
  });
});

describe('agentServerVersion (the dialect the agent host speaks)', () => {
  it("speaks (and reports on /server_info) the newest by default (TerminalAction); 1.1.0 names the terminal's events ExecuteBashAction/ExecuteBashObservation (software-agent-sdk e485bba, v1.3.0)", async () => {
    for (const [version, action, observation] of [
      [undefined, 'TerminalAction', 'TerminalObservation'],
      ['1.1.0', 'ExecuteBashAction', 'ExecuteBashObservation'],
    ] as const) {
      await start('none', version ? { agentServerVersion: version } : {});
      const info = await create({ initial_message: message('Go', true) });
      const page = (await call(`${AGENT}/api/conversations/${info.id}/events/search`)).body as {
        items: { action?: { kind: string }; observation?: { kind: string } }[];
      };
      expect(
        page.items
          .map((e) => e.action?.kind ?? e.observation?.kind)
          .filter(Boolean)
          .slice(0, 2),
      ).toEqual([action, observation]);
      // GET /server_info reports the version it speaks (Agent Canvas reads it to tell what the server can do).
      expect((await call(`${AGENT}/server_info`)).body).toMatchObject({ title: 'OpenHands Agent Server', version: version ?? '1.43.0' });
    }
    await expect(createFakeCore({ agentServerVersion: 'newest' })).rejects.toThrow(
      /agentServerVersion: expected a version MAJOR.MINOR.PATCH/,
    );
  });

  it('publishes last_user_message_id after a user message from 1.11.5 on, none before (software-agent-sdk ee4c919, "SDK: bound latest-user-message scan in Agent.step", v1.11.5)', async () => {
    for (const [version, kept] of [
      [undefined, true],
      ['1.11.5', true],
      ['1.11.4', false],
      ['1.1.0', false],
    ] as const) {
      await start('none', version ? { agentServerVersion: version } : {});
      const info = await create({ initial_message: message('Go') });
      expect(await kinds(info.id)).toEqual(['SystemPromptEvent', 'MessageEvent', ...(kept ? ['last_user_message_id'] : [])]);
    }
  });

  it('fakehands serve --agent-server-version 1.1.0: a conversation the app server starts speaks the old names on its agent host', async () => {
    const cli = await serve(['--timings', 'instant', '--agent-server-version', '1.1.0']);
    const conversation = await startConversation(cli);
    const page = (await (
      await fetch(`${conversation.conversation_url}/events/search`, { headers: { 'X-Session-API-Key': conversation.session_api_key } })
    ).json()) as { items: { action?: { kind: string } }[] };
    expect(page.items.map((e) => e.action?.kind).filter(Boolean)).toEqual(['ExecuteBashAction', 'FileEditorAction']);
    const refused = await runCli(['serve', '--agent-server-version', 'latest']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('expected a version MAJOR.MINOR.PATCH');
  });
});
