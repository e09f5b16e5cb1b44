/**
 * A conversation's runtime on the agent host, as openhands-agent-server 1.58.2 serves it: the
 * shell, file, git and VS Code routes under `/api/conversations/{runtime_conversation_id}/…`
 * (`runtime_router.py`, create_runtime_router and bind_local_conversation_runtime), the runtime's
 * status (`conversation_router.py`, get_local_conversation_runtime and
 * reprovision_local_conversation_runtime), a child conversation (start_child_conversation) and the
 * stop of one shell command (`bash_router.py`, stop_bash_command). The answers are those the real
 * server gave to the same requests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';

let servers: FakeServers;
const WORKSPACE = '/srv/project';
const MISSING = '00000000-0000-4000-8000-000000000000';

/** A request to the agent host: its status and body (JSON when it is). */
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${servers.agentUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
}

/** A conversation created on the host, working in WORKSPACE; its id. */
async function conversation(): Promise<string> {
  const created = await call('POST', '/api/conversations', {
    agent: { kind: 'Agent', llm: { model: 'openai/gpt-5' }, tools: [] },
    workspace: { working_dir: WORKSPACE },
  });
  expect(created.status).toBe(201);
  return (created.body as { id: string }).id;
}

beforeAll(async () => {
  servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
});
afterAll(async () => servers.close());
afterEach(async () => servers.fake.reset());

describe('/api/conversations/{runtime_conversation_id}/bash/* (runtime_router.py over bash_router.py)', () => {
  it("runs commands in the conversation's workspace by default; 404 for a conversation the host does not hold, 422 for an id that is no UUID", async () => {
    const id = await conversation();
    expect(await call('POST', `/api/conversations/${id}/bash/execute_bash_command`, { command: 'pwd' })).toMatchObject({
      status: 200,
      body: { kind: 'BashOutput', exit_code: 0, stdout: `${WORKSPACE}\n` },
    });
    expect(await call('POST', `/api/conversations/${id}/bash/start_bash_command`, { command: 'echo hi' })).toMatchObject({
      status: 200,
      body: { kind: 'BashCommand', command: 'echo hi', cwd: WORKSPACE },
    });
    expect((await call('GET', `/api/conversations/${id}/bash/bash_events/search`)).body).toMatchObject({
      items: [
        { kind: 'BashCommand', command: 'pwd' },
        { kind: 'BashOutput' },
        { kind: 'BashCommand', command: 'echo hi' },
        { kind: 'BashOutput' },
      ],
    });
    expect(await call('GET', `/api/conversations/${MISSING}/bash/bash_events/search`)).toEqual({
      status: 404,
      body: { detail: `Conversation not found: ${MISSING}` },
    });
    expect(await call('GET', '/api/conversations/nope/bash/bash_events/search')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'uuid_parsing', loc: ['path', 'runtime_conversation_id'] }] },
    });
  });
});

describe('/api/conversations/{runtime_conversation_id}/file/* and /git/* (runtime_router.py over file_router.py, git_router.py)', () => {
  it("takes paths inside the conversation's workspace only (422 otherwise); a trajectory of its own only (422)", async () => {
    const id = await conversation();
    const form = new FormData();
    form.append('file', new Blob(['notes\n']), 'notes.md');
    const uploaded = await fetch(`${servers.agentUrl}/api/conversations/${id}/file/upload?path=${WORKSPACE}/docs/notes.md`, {
      method: 'POST',
      body: form,
    });
    expect([uploaded.status, await uploaded.json()]).toEqual([200, { success: true, file_size: 6 }]);
    expect(await call('GET', `/api/conversations/${id}/file/download?path=${WORKSPACE}/docs/notes.md`)).toMatchObject({
      status: 200,
      body: 'notes\n',
    });
    for (const path of ['/etc/hostname', 'relative', `${WORKSPACE}/../elsewhere`])
      expect(await call('GET', `/api/conversations/${id}/file/download?path=${encodeURIComponent(path)}`)).toEqual({
        status: 422,
        body: { detail: 'path must be inside the conversation workspace' },
      });
    expect(await call('POST', `/api/conversations/${id}/file/create_directory?path=${WORKSPACE}/sub`)).toEqual({
      status: 200,
      body: { success: true },
    });
    expect(await call('GET', `/api/conversations/${id}/git/changes?path=/tmp`)).toMatchObject({ status: 422 });
    expect((await call('GET', `/api/conversations/${id}/git/commits?path=${WORKSPACE}`)).status).toBe(200);
    expect((await call('GET', `/api/conversations/${id}/file/download-trajectory/${id}`)).status).toBe(200);
    expect(await call('GET', `/api/conversations/${id}/file/download-trajectory/${MISSING}`)).toEqual({
      status: 422,
      body: { detail: 'Trajectory must belong to the selected conversation' },
    });
  });
});

describe('GET /api/conversations/{id}/runtime and POST .../runtime/reprovision (get_local_conversation_runtime, reprovision_local_conversation_runtime)', () => {
  it('a local runtime is available and can resume; 404 for a conversation the host does not hold', async () => {
    const id = await conversation();
    const available = { runtime_status: 'available', can_resume: true, runtime_error: null };
    expect(await call('GET', `/api/conversations/${id}/runtime`)).toEqual({ status: 200, body: available });
    expect(await call('POST', `/api/conversations/${id}/runtime/reprovision`)).toEqual({ status: 200, body: available });
    expect(await call('GET', `/api/conversations/${MISSING}/runtime`)).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });
});

describe('POST /api/conversations/{id}/children (conversation_router.py, start_child_conversation)', () => {
  it("starts a child on the parent's agent and workspace, linked both ways, its task run; 404 for an unknown parent, 422 without a task", async () => {
    const parent = await conversation();
    const started = await call('POST', `/api/conversations/${parent}/children`, { task: 'Write a plan', title: 'Plan' });
    expect(started).toMatchObject({
      status: 201,
      body: { parent_conversation_id: parent, status: 'idle', title: 'Plan', url: null, workspace: WORKSPACE, isolation: 'shared' },
    });
    const child = (started.body as { conversation_id: string }).conversation_id;
    expect((await call('GET', `/api/conversations/${parent}`)).body).toMatchObject({ sub_conversation_ids: [child] });
    expect((await call('GET', `/api/conversations/${child}`)).body).toMatchObject({
      parent_conversation_id: parent,
      title: 'Plan',
      execution_status: 'finished',
      agent: { llm: { model: 'openai/gpt-5' } },
      workspace: { working_dir: WORKSPACE },
    });
    expect(await call('POST', `/api/conversations/${MISSING}/children`, { task: 'x' })).toEqual({
      status: 404,
      body: { detail: 'Parent conversation not found' },
    });
    expect(await call('POST', `/api/conversations/${parent}/children`, { task: '' })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'string_too_short', loc: ['body', 'task'] }] },
    });
  });
});

describe('POST /api/bash/bash_commands/{command_id}/stop (bash_router.py, stop_bash_command)', () => {
  it('stops a running command (its last output exit code -15, no more lines); a finished one succeeds too; 404 for an unknown id', async () => {
    // `sleep 30` ends 30 s after it starts, on the fake's clock: still running when stopped.
    const started = await call('POST', '/api/bash/start_bash_command', { command: 'sleep 30' });
    const id = (started.body as { id: string }).id;
    expect(await call('POST', `/api/bash/bash_commands/${id}/stop`)).toEqual({ status: 200, body: { success: true } });
    const outputs = (await call('GET', `/api/bash/bash_events/search?kind__eq=BashOutput&command_id__eq=${id}`)).body as {
      items: { exit_code: number | null }[];
    };
    expect(outputs.items.map((o) => o.exit_code)).toEqual([-15]);
    expect(await call('POST', `/api/bash/bash_commands/${id.replaceAll('-', '')}/stop`)).toEqual({ status: 200, body: { success: true } });
    expect(await call('POST', `/api/bash/bash_commands/${MISSING}/stop`)).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });
});
