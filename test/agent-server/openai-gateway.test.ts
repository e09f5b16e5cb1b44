/**
 * The agent host's OpenAI-compatible routes: copies `openhands-agent-server`'s `openai/router.py`
 * (`get_openai_models`, `create_chat_completion`, `check_openai_api_key`) and `openai/service.py`
 * (`list_openai_models`, `run_chat_completion`, `_content_to_sdk_parts`, `_latest_user_message`,
 * `_wait_for_completion`, `iter_openai_chat_completion_sse`). In process (`fake.fetch`), and the
 * streamed answer standalone (node:http) and through msw (`createFake`'s handlers).
 */
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { createFakeCore, type FakeCore } from '../../src/fake.js';
import { startFakeServers } from '../../src/server/start.js';
import { OpenAIChatCompletion, OpenAIChatCompletionChunk } from '../../src/schemas/openai-gateway.js';
import { emptyFixture } from '../../src/domain/fixtures/generate-core.js';
import { userSettings } from '../../src/domain/user/default-settings.js';

const BASE = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
const CONVERSATION_HEADER = 'x-openhands-serverconversation-id';
const FINAL = 'Done: I changed PLAN.md. Have a look at the Changes tab.';

/**
 * No data but a user whose LLM has a key (the default fixture's settings): the host mirrors it into
 * the `default` LLM profile the gateway's `openhands_default` model names (agent_profiles_router.py,
 * _seed_default_llm_profile); a fresh host has no profile, so no model.
 */
const CONFIGURED = () => ({ ...emptyFixture(), settings: userSettings() });

let fake: FakeCore | null = null;
afterEach(() => {
  fake = null;
});

/** A fake whose agent host answers at AGENT. */
async function start(options: Record<string, unknown> = {}): Promise<FakeCore> {
  fake = await createFakeCore({
    baseUrl: BASE,
    agentUrl: AGENT,
    auth: 'none',
    fixture: CONFIGURED,
    timings: 'instant',
    checkResponses: true,
    ...options,
  });
  return fake;
}

type Answer = { status: number; body: unknown; text: string; headers: Headers };
/** One request on the fake. */
async function call(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fake!.fetch(
    new Request(path.startsWith('http') ? path : `${AGENT}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json') && text ? (JSON.parse(text) as unknown) : null;
  return { status: response.status, body: json, text, headers: response.headers };
}
const complete = (body: unknown, headers: Record<string, string> = {}) => call('/v1/chat/completions', { method: 'POST', body, headers });
const user = (content: unknown) => ({ role: 'user', content });

describe('GET /v1/models (openai/router.py, get_openai_models)', () => {
  it('lists one model per LLM profile, openhands_<name>, sorted by id, owned by openhands', async () => {
    await start();
    expect(await call('/v1/models')).toMatchObject({
      status: 200,
      body: { object: 'list', data: [{ id: 'openhands_default', object: 'model', created: 0, owned_by: 'openhands' }] },
    });
    expect((await call('/api/profiles/Zeta', { method: 'POST', body: { llm: { model: 'openai/gpt-5' } } })).status).toBe(201);
    expect((await call('/api/profiles/alpha', { method: 'POST', body: { llm: { model: 'openai/gpt-5-mini' } } })).status).toBe(201);
    const ids = ((await call('/v1/models')).body as { data: { id: string }[] }).data.map((m) => m.id);
    // Python sorts by code point: upper case before lower case.
    expect(ids).toEqual(['openhands_Zeta', 'openhands_alpha', 'openhands_default']);
  });

  it('lists no model on a fresh host: its LLM has no key, so no profile mirrors it (_llm_has_real_config)', async () => {
    await start({ fixture: 'empty' });
    expect(await call('/v1/models')).toMatchObject({ status: 200, body: { object: 'list', data: [] } });
  });

  it("takes the sandbox's key as X-Session-API-Key or as a bearer token (check_openai_api_key); 401 without", async () => {
    await start({ auth: 'legacy' });
    const { id } = (await call(`${BASE}/api/v1/sandboxes`, { method: 'POST', body: {} })).body as { id: string };
    let key = '';
    for (let i = 0; i < 200 && !key; i++) {
      const [s] = (await call(`${BASE}/api/v1/sandboxes?id=${id}`)).body as { status: string; session_api_key: string }[];
      if (s!.status === 'RUNNING') key = s!.session_api_key;
      else await new Promise((r) => setTimeout(r, 10));
    }
    expect(await call('/v1/models')).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
    expect(await call('/v1/models', { headers: { authorization: 'Bearer wrong' } })).toMatchObject({ status: 401 });
    expect((await call('/v1/models', { headers: { 'x-session-api-key': key } })).status).toBe(200);
    expect((await call('/v1/models', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const answer = await complete({ model: 'openhands_default', messages: [user('Hi')] }, { authorization: `bearer ${key}` });
    expect(answer.status).toBe(200);
    // The bearer key reached that sandbox's agent server: it holds the conversation.
    const held = await call(`/api/conversations/${answer.headers.get(CONVERSATION_HEADER)}`, { headers: { 'x-session-api-key': key } });
    expect(held.status).toBe(200);
  });
});

describe('POST /v1/chat/completions (openai/router.py, create_chat_completion)', () => {
  it("answers the agent's final response as a ChatCompletion, naming the conversation it ran in (X-OpenHands-ServerConversation-ID)", async () => {
    await start();
    const answer = await complete({
      model: 'openhands_default',
      messages: [{ role: 'system', content: 'Be brief.' }, user('Write a plan')],
    });
    expect(answer.status).toBe(200);
    const body = OpenAIChatCompletion.parse(answer.body);
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'openhands_default',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: FINAL } }],
    });
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
    const id = answer.headers.get(CONVERSATION_HEADER)!;
    const info = await call(`/api/conversations/${id}`);
    expect(info.body).toMatchObject({
      id,
      execution_status: 'finished',
      agent: { llm: { model: 'anthropic/claude-sonnet-4-5-20250929' } },
    });
    const events = (await call(`/api/conversations/${id}/events/search?kind=MessageEvent`)).body as {
      items: { source: string; llm_message: { content: { text: string }[] } }[];
    };
    expect(events.items.filter((e) => e.source === 'user').map((e) => e.llm_message.content[0]!.text)).toEqual(['Write a plan']);
  });

  it('sends the latest user message to the conversation the header names when the host holds it, and runs it again', async () => {
    await start();
    const first = await complete({ model: 'openhands_default', messages: [user('Write a plan')] });
    const id = first.headers.get(CONVERSATION_HEADER)!;
    const second = await complete(
      {
        model: 'openhands_default',
        messages: [user('Write a plan'), { role: 'assistant', content: FINAL }, user([{ type: 'text', text: 'Now the tests' }])],
      },
      { [CONVERSATION_HEADER]: id },
    );
    expect(second.status).toBe(200);
    expect(second.headers.get(CONVERSATION_HEADER)).toBe(id);
    expect(await call('/api/conversations/count')).toMatchObject({ body: 1 });
    const events = (await call(`/api/conversations/${id}/events/search?kind=MessageEvent`)).body as {
      items: { source: string; llm_message: { content: { text: string }[] } }[];
    };
    expect(events.items.filter((e) => e.source === 'user').map((e) => e.llm_message.content[0]!.text)).toEqual([
      'Write a plan',
      'Now the tests',
    ]);
  });

  it('starts a new conversation under the id the header names when the host holds none', async () => {
    await start();
    const id = '5f0c6a1e-2b3d-4e5f-8a9b-0c1d2e3f4a5b';
    const answer = await complete({ model: 'openhands_default', messages: [user('Hello')] }, { [CONVERSATION_HEADER]: id });
    expect(answer.status).toBe(200);
    expect(answer.headers.get(CONVERSATION_HEADER)).toBe(id);
    expect((await call(`/api/conversations/${id}`)).status).toBe(200);
  });

  it('streams with stream=true: role, content, finish and (include_usage) usage chunks as SSE data lines, then data: [DONE] (iter_openai_chat_completion_sse)', async () => {
    const servers = await startFakeServers({ fake: { timings: 'instant', fixture: CONFIGURED, auth: 'none' } });
    try {
      const response = await fetch(`${servers.agentUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'openhands_default',
          stream: true,
          stream_options: { include_usage: true },
          messages: [user('Write a plan')],
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(response.headers.get(CONVERSATION_HEADER)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
      const text = await response.text();
      const events = text.split('\n\n').filter(Boolean);
      expect(events).toHaveLength(5);
      expect(events.every((e) => e.startsWith('data: '))).toBe(true);
      expect(events.at(-1)).toBe('data: [DONE]');
      const chunks = events.slice(0, -1).map((e) => OpenAIChatCompletionChunk.parse(JSON.parse(e.slice('data: '.length))));
      expect(chunks.map((c) => c.choices)).toEqual([
        [{ delta: { role: 'assistant' }, index: 0 }],
        [{ delta: { content: FINAL }, index: 0 }],
        [{ delta: {}, finish_reason: 'stop', index: 0 }],
        [],
      ]);
      expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
      expect(chunks[3]!.usage!.total_tokens).toBeGreaterThan(0);
      // Compact JSON, as json.dumps(separators=(",", ":")) writes it.
      for (const event of events.slice(0, -1))
        expect(event.slice('data: '.length)).toBe(JSON.stringify(JSON.parse(event.slice('data: '.length))));
    } finally {
      await servers.close();
    }
  });

  it("streams alike through msw in process (createFake's handlers), and the workspace route serves the agent's file there", async () => {
    const inProcess = await createFake({ fixture: CONFIGURED, auth: 'none', timings: 'instant', agentUrl: 'http://agent.test' });
    const server = setupServer(...inProcess.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const response = await fetch('http://agent.test/v1/chat/completions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer anything' },
        body: JSON.stringify({ model: 'openhands_default', stream: true, messages: [user('Write a plan')] }),
      });
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
      const events = (await response.text()).split('\n\n').filter(Boolean);
      expect(events.map((e) => (e === 'data: [DONE]' ? e : Object.keys(JSON.parse(e.slice(6)).choices[0].delta).join()))).toEqual([
        'role',
        'content',
        '',
        'data: [DONE]',
      ]);
      const plan = await fetch(`http://agent.test/api/conversations/${response.headers.get(CONVERSATION_HEADER)}/workspace/PLAN.md`);
      expect([plan.status, (await plan.text()).split('\n')[0]]).toEqual([200, '# Plan']);
    } finally {
      server.close();
    }
  });

  it('streams no usage chunk without stream_options.include_usage', async () => {
    await start();
    const answer = await complete({ model: 'openhands_default', stream: true, messages: [user('Hi')] });
    expect(answer.text.split('\n\n').filter(Boolean)).toHaveLength(4);
  });

  it('waits for the run: under a manual clock the answer comes once the clock passes its end (_wait_for_completion)', async () => {
    await start({ timings: 'realistic', clock: 'manual' });
    let settled = false;
    const pending = complete({ model: 'openhands_default', messages: [user('Write a plan')] }).then((a) => {
      settled = true;
      return a;
    });
    // The run started and is going: the gateway has not answered.
    for (let i = 0; i < 100; i++) {
      const page = (await call('/api/conversations/search')).body as { items: { execution_status: string }[] };
      if (page.items[0]?.execution_status === 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(((await call('/api/conversations/search')).body as { items: { execution_status: string }[] }).items[0]!.execution_status).toBe(
      'running',
    );
    expect(settled).toBe(false);
    fake!.clock.advance(60_000);
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect((answer.body as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe(FINAL);
  });

  it('answers 409 when the run stops to wait for a confirmation (_raise_for_terminal_error)', async () => {
    await start();
    const created = await call('/api/conversations', {
      method: 'POST',
      body: {
        agent: { kind: 'Agent', llm: { model: 'm' } },
        workspace: { working_dir: '/workspace/project' },
        confirmation_policy: { kind: 'AlwaysConfirm' },
      },
    });
    const id = (created.body as { id: string }).id;
    expect(await complete({ model: 'openhands_default', messages: [user('Write a plan')] }, { [CONVERSATION_HEADER]: id })).toMatchObject({
      status: 409,
      body: { detail: 'Agent run ended with status: waiting_for_confirmation' },
    });
  });

  it('answers 404 for a model that is not openhands_<profile> or a profile that is not saved (_profile_name_from_model, _load_profile_llm)', async () => {
    await start();
    expect(await complete({ model: 'gpt-4o', messages: [user('Hi')] })).toMatchObject({
      status: 404,
      body: { detail: "Unknown OpenHands model 'gpt-4o'. Use GET /v1/models." },
    });
    expect(await complete({ model: 'openhands_', messages: [user('Hi')] })).toMatchObject({
      status: 404,
      body: { detail: "Unknown OpenHands model 'openhands_'. Use GET /v1/models." },
    });
    expect(await complete({ model: 'openhands_nope', messages: [user('Hi')] })).toMatchObject({
      status: 404,
      body: { detail: "Profile 'nope' not found" },
    });
  });

  it('answers 400 without a user message, for an unsupported content part, and for an image part without a url; starts nothing', async () => {
    await start();
    expect(await complete({ model: 'openhands_default', messages: [{ role: 'system', content: 'x' }] })).toMatchObject({
      status: 400,
      body: { detail: 'At least one user message is required' },
    });
    expect(await complete({ model: 'openhands_default', messages: [user([{ type: 'input_audio' }])] })).toMatchObject({
      status: 400,
      body: { detail: 'Unsupported content part type: input_audio' },
    });
    expect(await complete({ model: 'openhands_default', messages: [user([{ type: 'image_url' }])] })).toMatchObject({
      status: 400,
      body: { detail: 'image_url content part is missing a url' },
    });
    expect(await call('/api/conversations/count')).toMatchObject({ body: 0 });
  });

  it("answers FastAPI's 422 for a body that is no OpenAIChatCompletionRequest and for a conversation header that is no UUID", async () => {
    await start();
    const bad = await complete({ messages: [{ role: 'robot' }] });
    expect(bad.status).toBe(422);
    expect((bad.body as { detail: { loc: unknown[]; type: string }[] }).detail.map((d) => [d.type, d.loc])).toEqual([
      ['missing', ['body', 'model']],
      ['enum', ['body', 'messages', 0, 'role']],
    ]);
    expect(await complete({ model: 'openhands_default', messages: [user('Hi')] }, { [CONVERSATION_HEADER]: 'abc' })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'uuid_parsing', loc: ['header', 'X-OpenHands-ServerConversation-ID'], input: 'abc' }] },
    });
  });

  it("runs in the request's tenant only (X-Fakehands-Tenant)", async () => {
    await start();
    const tenant = { 'x-fakehands-tenant': 'acme' };
    const answer = await complete({ model: 'openhands_default', messages: [user('Hi')] }, tenant);
    expect(answer.status).toBe(200);
    expect(await call('/api/conversations/count', { headers: tenant })).toMatchObject({ body: 1 });
    expect(await call('/api/conversations/count')).toMatchObject({ body: 0 });
    // The default tenant's host started no sandbox for it.
    expect(((await call(`${BASE}/api/v1/sandboxes/search`)).body as { items: unknown[] }).items).toEqual([]);
  });
});

describe('POST /v1/responses (openai/router.py, create_response; openai/service.py, run_response, 1.58.2)', () => {
  const respond = (body: unknown) => call('/v1/responses', { method: 'POST', body });

  it("answers the agent's final response to the input as a completed Response, its conversation in the header", async () => {
    await start();
    const answer = await respond({ model: 'openhands_default', input: 'Write a plan', instructions: 'Be brief', metadata: { run: 'ci' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: expect.stringMatching(/^resp_[0-9a-f]{32}$/),
      instructions: 'Be brief',
      metadata: { run: 'ci' },
      model: 'openhands_default',
      object: 'response',
      output: [
        {
          id: expect.stringMatching(/^msg_[0-9a-f]{32}$/),
          content: [{ annotations: [], text: FINAL, type: 'output_text' }],
          role: 'assistant',
          status: 'completed',
          type: 'message',
        },
      ],
      parallel_tool_calls: false,
      status: 'completed',
      tool_choice: 'none',
      tools: [],
      usage: {
        input_tokens_details: { cached_tokens: expect.any(Number) },
        output_tokens_details: { reasoning_tokens: expect.any(Number) },
      },
    });
    expect(answer.body).not.toHaveProperty('previous_response_id');
    const id = answer.headers.get(CONVERSATION_HEADER)!;
    expect((await call(`/api/conversations/${id}`)).body).toMatchObject({ execution_status: 'finished' });
  });

  it('takes input messages: a lone user message as it is, several wrapped by role; system and developer ones as instructions', async () => {
    await start();
    const answer = await respond({
      model: 'openhands_default',
      input: [
        { role: 'developer', content: 'Answer in English' },
        { role: 'user', content: [{ type: 'input_text', text: 'Write a plan' }] },
        { role: 'assistant', content: [{ type: 'output_text', text: 'Which one?' }] },
        { role: 'user', content: 'The release plan' },
      ],
    });
    expect(answer.status).toBe(200);
    const id = answer.headers.get(CONVERSATION_HEADER)!;
    const events = (await call(`/api/conversations/${id}/events/search?kind=MessageEvent&source=user`)).body as {
      items: { llm_message: { content: { text: string }[] } }[];
    };
    // The fake's agent keeps a message's text parts as one text, a line each.
    expect(
      events.items[0]!.llm_message.content.map((p) => p.text)
        .join('')
        .replaceAll('\n', ''),
    ).toBe(
      '<message role="user">Write a plan</message><message role="assistant">Which one?</message><message role="user">The release plan</message>',
    );
  });

  it('refuses what the real one does not support (400) and an unknown model (404), starting nothing', async () => {
    await start();
    const refused = async (body: Record<string, unknown>, detail: string) =>
      expect(await respond({ model: 'openhands_default', input: 'Hi', ...body })).toMatchObject({ status: 400, body: { detail } });
    await refused({ stream: true }, 'Streaming responses are not supported yet');
    await refused({ store: true }, 'Persistent response storage (store=True) is not supported yet');
    await refused({ previous_response_id: 'resp_1' }, 'previous_response_id is not supported; replay input items instead');
    await refused({ input: '' }, 'Responses input must not be empty');
    await refused({ input: [{ role: 'system', content: 'x' }] }, 'Responses input must include a user message');
    await refused({ input: [{ role: 'user', content: [{ type: 'input_file' }] }] }, 'Unsupported Responses content part type: input_file');
    expect(await respond({ model: 'x', input: 'Hi' })).toMatchObject({
      status: 404,
      body: { detail: "Unknown OpenHands model 'x'. Use GET /v1/models." },
    });
    expect(await respond({})).toMatchObject({
      status: 422,
      body: {
        detail: [
          { type: 'missing', loc: ['body', 'model'] },
          { type: 'missing', loc: ['body', 'input'] },
        ],
      },
    });
    expect(await call('/api/conversations/count')).toMatchObject({ body: 0 });
  });
});
