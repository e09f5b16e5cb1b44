/**
 * A legacy conversation's own routes: config copies openhands `server/routes/conversation.py`
 * (`get_remote_runtime_config`: a V1 conversation's sandbox as `runtime_id` and its id as
 * `session_id`; a V0 one's runtime, 404 when it is not attached); start and stop copy
 * `manage_conversations.py` (`start_conversation`, `stop_conversation`: "Conversation was not
 * running"); the workspace routes copy `files.py` (list_files, select_file, zip_current_workspace,
 * git_changes, git_diff, upload_files) over a running V0 conversation.
 */
import { describe, expect, it } from 'vitest';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty', timings: 'instant' });

/** A V0 conversation whose sandbox runs. */
async function runningV0(): Promise<string> {
  const { body } = await call<{ conversation_id: string }>('POST', '/api/conversations', {
    body: { repository: 'acme/web', git_provider: 'github' },
  });
  await env.fake.clock.advance(60_000);
  return body.conversation_id;
}

describe('GET /api/conversations/{id}/config', () => {
  it("answers a V1 conversation's sandbox and id, and a running V0 one's runtime and session", async () => {
    const task = await call<{ id: string }>('POST', '/api/v1/app-conversations', { body: {} });
    await env.fake.clock.advance(60_000);
    const [ready] = (
      await call<{ app_conversation_id: string; sandbox_id: string }[]>('GET', `/api/v1/app-conversations/start-tasks?ids=${task.body.id}`)
    ).body;
    expect(await call('GET', `/api/conversations/${ready!.app_conversation_id}/config`)).toMatchObject({
      status: 200,
      body: { runtime_id: ready!.sandbox_id, session_id: ready!.app_conversation_id },
    });
    const v0 = await runningV0();
    expect(await call('GET', `/api/conversations/${v0}/config`)).toMatchObject({
      status: 200,
      body: { runtime_id: expect.stringMatching(/^oh-agent-server-/), session_id: v0 },
    });
  });

  it('answers 404 for an unknown conversation and for a V0 one whose sandbox is paused', async () => {
    expect(await call('GET', '/api/conversations/00000000000040008000000000000000/config')).toMatchObject({
      status: 404,
      body: { detail: 'Conversation 00000000000040008000000000000000 not found' },
    });
    const v0 = await runningV0();
    await call('POST', `/api/conversations/${v0}/stop`);
    expect(await call('GET', `/api/conversations/${v0}/config`)).toMatchObject({
      status: 404,
      body: { detail: `Conversation ${v0} not found` },
    });
  });
});

describe('POST /api/conversations/{id}/stop, /start', () => {
  it('stops a running conversation (its sandbox pauses) and starts it again', async () => {
    const v0 = await runningV0();
    expect(await call('POST', `/api/conversations/${v0}/stop`)).toMatchObject({
      status: 200,
      body: { status: 'ok', conversation_id: v0, message: 'Conversation stopped successfully', conversation_status: 'STOPPED' },
    });
    expect(await call('POST', `/api/conversations/${v0}/stop`)).toMatchObject({
      status: 200,
      body: { message: 'Conversation was not running', conversation_status: 'STOPPED' },
    });
    expect(await call('POST', `/api/conversations/${v0}/start`, { body: { providers_set: ['github'] } })).toMatchObject({
      status: 200,
      body: { status: 'ok', conversation_id: v0, conversation_status: expect.stringMatching(/^(STARTING|RUNNING)$/) },
    });
    await env.fake.clock.advance(60_000);
    expect((await call<{ status: string }>('GET', `/api/conversations/${v0}`)).body.status).toBe('RUNNING');
    expect(await call('POST', '/api/conversations/00000000000040008000000000000000/start')).toMatchObject({
      status: 404,
      body: { status: 'error', conversation_id: '00000000000040008000000000000000' },
    });
  });
});

describe('the workspace of a running V0 conversation', () => {
  it('lists files, reads one, lists git changes, diffs, zips, and takes uploads', async () => {
    const v0 = await runningV0();
    const root = (await call<string[]>('GET', `/api/conversations/${v0}/list-files`)).body;
    expect(root).toContain('.openhands/');
    expect(root).toContain('README.md');
    expect((await call<string[]>('GET', `/api/conversations/${v0}/list-files?path=src`)).body.every((f) => f.startsWith('src/'))).toBe(
      true,
    );
    expect(await call('GET', `/api/conversations/${v0}/select-file?file=README.md`)).toMatchObject({
      status: 200,
      body: { code: expect.stringMatching(/^# web/) },
    });
    expect(await call('GET', `/api/conversations/${v0}/select-file?file=nope.md`)).toMatchObject({
      status: 500,
      body: { error: 'Error opening file: File not found: nope.md' },
    });
    expect(await call('GET', `/api/conversations/${v0}/git/changes`)).toMatchObject({ status: 200, body: [] });
    const form = new FormData();
    form.append('files', new Blob(['hello']), 'notes.txt');
    form.append('files', new Blob(['# todo']), 'TODO.md');
    const upload = await fetch(`http://localhost:3000/api/conversations/${v0}/upload-files`, {
      method: 'POST',
      body: form,
      headers: { 'x-session-api-key': 'test-session-key' },
    });
    expect([upload.status, await upload.json()]).toEqual([
      200,
      { uploaded_files: ['/home/openhands/workspace/web/notes.txt', '/home/openhands/workspace/web/TODO.md'], skipped_files: [] },
    ]);
    expect(await call('GET', `/api/conversations/${v0}/git/changes`)).toMatchObject({
      status: 200,
      body: [
        { status: 'ADDED', path: 'TODO.md' },
        { status: 'ADDED', path: 'notes.txt' },
      ],
    });
    expect(await call('GET', `/api/conversations/${v0}/git/diff?path=notes.txt`)).toMatchObject({
      status: 200,
      body: { original: '', modified: 'hello' },
    });
    const zip = await fetch(`http://localhost:3000/api/conversations/${v0}/zip-directory`, {
      headers: { 'x-session-api-key': 'test-session-key' },
    });
    expect(zip.status).toBe(200);
    expect([...new Uint8Array(await zip.arrayBuffer()).slice(0, 2)]).toEqual([0x50, 0x4b]);
    expect(await call('GET', `/api/conversations/${v0}/microagents`)).toMatchObject({
      status: 200,
      body: { microagents: [{ name: 'repo', type: 'repo' }] },
    });
    expect(await call('GET', `/api/conversations/${v0}/trajectory`)).toMatchObject({ status: 200, body: { trajectory: [] } });
    expect(await call('GET', `/api/conversations/${v0}/events?limit=101`)).toMatchObject({
      status: 400,
      body: { detail: 'Invalid limit' },
    });
  });

  it('answers 404 for a conversation that is not attached, and 422 without a file to select', async () => {
    expect(await call('GET', '/api/conversations/00000000000040008000000000000000/list-files')).toMatchObject({ status: 404 });
    const v0 = await runningV0();
    expect(await call('GET', `/api/conversations/${v0}/select-file`)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'file'] }] },
    });
  });
});
