import { describe, expect, it } from 'vitest';
import type { ConversationInfo, ConversationResponse } from '../../src/schemas/legacy.js';
import type { SandboxInfo } from '../../src/schemas/sandbox.js';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty', clock: 'manual' });

type ResultSet = { results: ConversationInfo[]; next_page_id: string | null };

/** A V1 conversation started through /api/v1 and READY, as its 32-hex id. */
async function v1Conversation(body: object = {}): Promise<{ id: string; sandbox_id: string }> {
  const task = (await call<{ id: string }>('POST', '/api/v1/app-conversations', { body })).body;
  env.fake.clock.advance(60_000);
  const [ready] = (
    await call<{ app_conversation_id: string; sandbox_id: string }[]>('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`)
  ).body;
  return { id: ready!.app_conversation_id, sandbox_id: ready!.sandbox_id };
}

async function create(body: object = {}): Promise<ConversationResponse> {
  const { status, body: answer } = await call<ConversationResponse>('POST', '/api/conversations', { body });
  expect(status).toBe(200);
  return answer;
}

async function get(id: string): Promise<ConversationInfo> {
  return (await call<ConversationInfo>('GET', `/api/conversations/${id}`)).body;
}

describe('POST /api/conversations', () => {
  it('creates a conversation: ok, a 32-hex id, STARTING', async () => {
    expect(await create({ repository: 'OpenHands/OpenHands', git_provider: 'github', initial_user_msg: 'Hi' })).toEqual({
      status: 'ok',
      conversation_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      message: null,
      conversation_status: 'STARTING',
    });
  });

  it('records the conversation with its own sandbox, a default title and the gui trigger', async () => {
    const { conversation_id } = await create({ repository: 'OpenHands/OpenHands', git_provider: 'github', selected_branch: 'main' });
    const info = await get(conversation_id);
    expect(info).toEqual({
      conversation_id,
      title: `Conversation ${conversation_id.slice(0, 5)}`,
      last_updated_at: info.created_at,
      status: 'STARTING',
      runtime_status: 'STATUS$STARTING_RUNTIME',
      selected_repository: 'OpenHands/OpenHands',
      selected_branch: 'main',
      git_provider: 'github',
      trigger: 'gui',
      num_connections: 0,
      url: null,
      session_api_key: null,
      created_at: info.created_at,
      pr_number: [],
      conversation_version: 'V0',
      sub_conversation_ids: [],
    });
    const sandboxes = (await call<{ items: SandboxInfo[] }>('GET', '/api/v1/sandboxes/search')).body.items;
    expect(sandboxes).toHaveLength(1);
  });

  it('is RUNNING, with url and key, once its sandbox runs; STOPPED when paused; RUNNING again after resume', async () => {
    const { conversation_id } = await create();
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    const running = await get(conversation_id);
    expect(running).toMatchObject({
      status: 'RUNNING',
      runtime_status: 'STATUS$READY',
      url: expect.stringContaining(`/api/conversations/${conversation_id}`),
      session_api_key: expect.any(String),
    });
    const [sandbox] = (await call<{ items: SandboxInfo[] }>('GET', '/api/v1/sandboxes/search')).body.items;
    await call('POST', `/api/v1/sandboxes/${sandbox!.id}/pause`);
    expect(await get(conversation_id)).toMatchObject({ status: 'STOPPED', runtime_status: null, url: null, session_api_key: null });
    await call('POST', `/api/v1/sandboxes/${sandbox!.id}/resume`);
    expect((await get(conversation_id)).status).toBe('STARTING');
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    expect((await get(conversation_id)).status).toBe('RUNNING');
  });

  it('records the suggested_task trigger, and microagent_management with the repository of create_microagent', async () => {
    const suggested = await create({
      suggested_task: { git_provider: 'github', task_type: 'MERGE_CONFLICTS', repo: 'a/b', issue_number: 7, title: 'Fix conflicts' },
    });
    expect((await get(suggested.conversation_id)).trigger).toBe('suggested_task');
    const microagent = await create({ create_microagent: { repo: 'acme/web', git_provider: 'gitlab' } });
    expect(await get(microagent.conversation_id)).toMatchObject({
      trigger: 'microagent_management',
      selected_repository: 'acme/web',
      git_provider: 'gitlab',
    });
  });

  it('joins the conversation with the given conversation_id when it exists, creating nothing', async () => {
    const { conversation_id } = await create();
    const before = await env.fake.snapshot();
    expect(await create({ conversation_id, initial_user_msg: 'again' })).toEqual({
      status: 'ok',
      conversation_id,
      message: null,
      conversation_status: 'STARTING',
    });
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('creates the conversation with a caller-supplied conversation_id that is new', async () => {
    const id = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    expect((await create({ conversation_id: id })).conversation_id).toBe(id);
    expect((await get(id)).conversation_id).toBe(id);
  });

  it('accepts mcp_config with bare URL strings for SSE servers', async () => {
    const { status } = await call('POST', '/api/conversations', {
      body: {
        mcp_config: {
          sse_servers: ['https://mcp.example.com/sse'],
          stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }],
          shttp_servers: [{ url: 'https://mcp.example.com/mcp', timeout: 30 }],
        },
      },
    });
    expect(status).toBe(200);
  });

  it('rejects a wrong type, an enum value, an unknown field and an incomplete suggested_task: one 422 entry per problem', async () => {
    const before = await env.fake.snapshot();
    const { status, body } = await call('POST', '/api/conversations', {
      body: { repository: 5, git_provider: 'sourceforge', suggested_task: { repo: 'a/b' }, colour: 'red' },
    });
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        { type: 'string_type', loc: ['body', 'repository'], msg: 'Input should be a valid string', input: 5 },
        {
          type: 'enum',
          loc: ['body', 'git_provider'],
          msg: "Input should be 'github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops' or 'enterprise_sso'",
          input: 'sourceforge',
          ctx: { expected: "'github', 'gitlab', 'bitbucket', 'bitbucket_data_center', 'forgejo', 'azure_devops' or 'enterprise_sso'" },
        },
        { type: 'missing', loc: ['body', 'suggested_task', 'git_provider'], msg: 'Field required', input: { repo: 'a/b' } },
        { type: 'missing', loc: ['body', 'suggested_task', 'task_type'], msg: 'Field required', input: { repo: 'a/b' } },
        { type: 'missing', loc: ['body', 'suggested_task', 'issue_number'], msg: 'Field required', input: { repo: 'a/b' } },
        { type: 'missing', loc: ['body', 'suggested_task', 'title'], msg: 'Field required', input: { repo: 'a/b' } },
        { type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 'red' },
      ],
    });
    expect(await env.fake.snapshot()).toEqual(before);
  });

  it('rejects bad MCP server entries with list indexes as integers in loc', async () => {
    const { body } = await call<{ detail: { type: string; loc: unknown[] }[] }>('POST', '/api/conversations', {
      body: {
        mcp_config: {
          sse_servers: [{ url: 'ok' }, 3],
          stdio_servers: [{ name: 'bad name', command: 'npx' }],
          shttp_servers: [{ url: 'x', timeout: 4000 }],
          ws_servers: [],
        },
      },
    });
    expect(body.detail.map((e) => [e.type, e.loc])).toEqual([
      ['model_attributes_type', ['body', 'mcp_config', 'sse_servers', 1]],
      ['string_pattern_mismatch', ['body', 'mcp_config', 'stdio_servers', 0, 'name']],
      ['less_than_equal', ['body', 'mcp_config', 'shttp_servers', 0, 'timeout']],
      ['extra_forbidden', ['body', 'mcp_config', 'ws_servers']],
    ]);
  });

  it('answers invalid JSON with 422 json_invalid at the character offset, with the Python decoder message', async () => {
    const { status, body } = await call('POST', '/api/conversations', { body: '{"repository": "a/b",}' });
    expect(status).toBe(422);
    expect(body).toEqual({
      detail: [
        {
          type: 'json_invalid',
          loc: ['body', 21],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'Expecting property name enclosed in double quotes' },
        },
      ],
    });
  });

  it('answers a body that is not an object with 422 model_attributes_type at ["body"]', async () => {
    const { body } = await call('POST', '/api/conversations', { body: [1, 2] });
    expect(body).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: [1, 2],
        },
      ],
    });
  });

  it('answers a missing body, or one that is not JSON, with 422 missing at ["body"]', async () => {
    const missing = { detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
    expect((await call('POST', '/api/conversations')).body).toEqual(missing);
    expect(
      (await call('POST', '/api/conversations', { body: 'repository=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } }))
        .body,
    ).toEqual(missing);
  });

  it('answers 401 Unauthorized without the key, and with a wrong one', async () => {
    for (const key of [null, 'wrong', '']) {
      const { status, body } = await call('POST', '/api/conversations', { body: {}, key });
      expect([status, body]).toEqual([401, { detail: 'Unauthorized' }]);
    }
  });
});

describe('GET /api/conversations', () => {
  it('lists conversations newest first, 20 a page by default, with a next_page_id holding the V0 and V1 cursors (manage_conversations.py, search_conversations)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      ids.push((await create()).conversation_id);
      env.fake.clock.advance(1);
    }
    const first = (await call<ResultSet>('GET', '/api/conversations')).body;
    expect(first.results).toHaveLength(20);
    expect(first.results[0]!.conversation_id).toBe(ids.at(-1));
    expect(JSON.parse(Buffer.from(first.next_page_id!, 'base64').toString())).toEqual({ v0: '20', v1: null });
    const second = (await call<ResultSet>('GET', `/api/conversations?page_id=${first.next_page_id}`)).body;
    expect(second.results.map((c) => c.conversation_id)).toEqual([ids[1], ids[0]]);
    expect(second.next_page_id).toBeNull();
  });

  it('reads a bare page_id as a V0 cursor, as the real route does for older clients', async () => {
    for (let i = 0; i < 3; i++) await create();
    const page = (await call<ResultSet>('GET', '/api/conversations?page_id=2')).body;
    expect(page.results).toHaveLength(1);
  });

  it('has no upper bound on limit', async () => {
    await create();
    expect((await call<ResultSet>('GET', '/api/conversations?limit=5000')).status).toBe(200);
  });

  it('filters by selected_repository and conversation_trigger, as the real web client asks', async () => {
    const a = await create({ repository: 'acme/web', git_provider: 'github' });
    await create({ repository: 'acme/api', git_provider: 'github' });
    const suggested = await create({
      repository: 'acme/web',
      suggested_task: { git_provider: 'github', task_type: 'OPEN_PR', repo: 'acme/web', issue_number: 3, title: 'Review' },
    });
    const byRepo = (await call<ResultSet>('GET', '/api/conversations?selected_repository=acme/web&limit=100')).body;
    expect(byRepo.results.map((c) => c.conversation_id)).toEqual([suggested.conversation_id, a.conversation_id]);
    const byTrigger = (await call<ResultSet>('GET', '/api/conversations?selected_repository=acme/web&conversation_trigger=suggested_task'))
      .body;
    expect(byTrigger.results.map((c) => c.conversation_id)).toEqual([suggested.conversation_id]);
  });

  it('shows V1 conversations, leaves sub-conversations out unless include_sub_conversations=true', async () => {
    const parent = await v1Conversation();
    const child = await v1Conversation({ parent_conversation_id: parent.id });
    const top = (await call<ResultSet>('GET', '/api/conversations')).body.results;
    expect(top.map((c) => [c.conversation_id, c.conversation_version, c.sub_conversation_ids])).toEqual([[parent.id, 'V1', [child.id]]]);
    const all = (await call<ResultSet>('GET', '/api/conversations?include_sub_conversations=true')).body.results;
    expect(all.map((c) => c.conversation_id)).toEqual([child.id, parent.id]);
  });

  it('answers 401 without the key', async () => {
    expect(await call('GET', '/api/conversations', { key: null })).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
  });
});

describe('GET /api/conversations/{conversation_id}', () => {
  it('answers 200 null for an unknown conversation (manage_conversations.py, get_conversation)', async () => {
    expect(await call('GET', '/api/conversations/0123456789abcdef0123456789abcdef')).toMatchObject({ status: 200, body: null });
  });

  it('refuses an id longer than 100 characters, or with path characters, with 400 (openhands/server/utils.py, validate_conversation_id)', async () => {
    expect(await call('GET', `/api/conversations/${'a'.repeat(101)}`)).toMatchObject({
      status: 400,
      body: { detail: 'Conversation ID is too long' },
    });
    expect(await call('GET', '/api/conversations/a..b')).toMatchObject({
      status: 400,
      body: { detail: 'Conversation ID contains invalid path characters' },
    });
    expect(await call('GET', '/api/conversations/a%01b')).toMatchObject({
      status: 400,
      body: { detail: 'Conversation ID contains control characters' },
    });
  });

  it('shows a V1 conversation as the real route converts it: ERROR when its sandbox failed, ARCHIVED when it is gone, runtime_status only while RUNNING', async () => {
    const { id, sandbox_id } = await v1Conversation();
    expect(await get(id)).toMatchObject({
      status: 'RUNNING',
      runtime_status: 'STATUS$READY',
      conversation_version: 'V1',
      title: `Conversation ${id}`,
      trigger: null,
    });
    await call('POST', `/api/v1/sandboxes/${sandbox_id}/pause`);
    expect(await get(id)).toMatchObject({ status: 'STOPPED', runtime_status: null });
    await env.fake.service.failSandbox(sandbox_id);
    expect(await get(id)).toMatchObject({ status: 'ERROR', runtime_status: null });
    await call('DELETE', `/api/v1/sandboxes/${sandbox_id}?sandbox_id=${sandbox_id}`);
    expect(await get(id)).toMatchObject({ status: 'ARCHIVED', runtime_status: null });
  });
});

describe('PATCH /api/conversations/{conversation_id}', () => {
  it('renames a conversation, trimming the title, and answers true', async () => {
    const { conversation_id } = await create();
    env.fake.clock.advance(1000);
    expect(await call('PATCH', `/api/conversations/${conversation_id}`, { body: { title: '  Renamed  ' } })).toMatchObject({
      status: 200,
      body: true,
    });
    const info = await get(conversation_id);
    expect(info.title).toBe('Renamed');
    expect(info.last_updated_at! > info.created_at).toBe(true);
  });

  it('renames a V1 conversation too, which shows in search, batch get and count', async () => {
    const { id } = await v1Conversation();
    await call('PATCH', `/api/conversations/${id}`, { body: { title: 'Ship it' } });
    expect((await call<{ title: string }[]>('GET', `/api/v1/app-conversations?ids=${id}`)).body[0]!.title).toBe('Ship it');
    expect((await call('GET', '/api/v1/app-conversations/count?title__contains=ship')).body).toBe(1);
  });

  it('requires a title of 1 to 200 characters: 422 missing, string_too_short', async () => {
    const { conversation_id } = await create();
    expect((await call('PATCH', `/api/conversations/${conversation_id}`, { body: {} })).body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'title'], msg: 'Field required', input: {} }],
    });
    expect((await call('PATCH', `/api/conversations/${conversation_id}`, { body: { title: '' } })).body).toEqual({
      detail: [
        {
          type: 'string_too_short',
          loc: ['body', 'title'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
    });
  });

  it("answers 404 with the route's own error body for an unknown conversation (manage_conversations.py, update_conversation)", async () => {
    expect(await call('PATCH', '/api/conversations/nope', { body: { title: 'x' } })).toMatchObject({
      status: 404,
      body: { status: 'error', message: 'Conversation not found', msg_id: 'CONVERSATION$NOT_FOUND' },
    });
  });
});

describe('DELETE /api/conversations/{conversation_id}', () => {
  it('deletes the conversation and its sandbox, and answers true', async () => {
    const { conversation_id } = await create();
    expect(await call('DELETE', `/api/conversations/${conversation_id}`)).toMatchObject({ status: 200, body: true });
    expect(await call('GET', `/api/conversations/${conversation_id}`)).toMatchObject({ status: 200, body: null });
    expect((await call<{ items: unknown[] }>('GET', '/api/v1/sandboxes/search')).body.items).toEqual([]);
  });

  it('deletes a V1 conversation: gone from search, batch get, count and the legacy list', async () => {
    const { id } = await v1Conversation();
    expect((await call('DELETE', `/api/conversations/${id}`)).body).toBe(true);
    expect((await call('GET', `/api/v1/app-conversations?ids=${id}`)).body).toEqual([null]);
    expect((await call<{ items: unknown[] }>('GET', '/api/v1/app-conversations/search')).body.items).toEqual([]);
    expect((await call('GET', '/api/v1/app-conversations/count')).body).toBe(0);
    expect((await call<ResultSet>('GET', '/api/conversations')).body.results).toEqual([]);
  });

  it('answers 200 false for an unknown conversation (manage_conversations.py, delete_conversation)', async () => {
    expect(await call('DELETE', '/api/conversations/nope')).toMatchObject({ status: 200, body: false });
  });
});
