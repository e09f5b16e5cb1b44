/**
 * The agent server's conversations and workspace on the agent host, over real sockets: copies
 * openhands-agent-server `conversation_router.py` (search_conversations, count_conversations,
 * get_conversation, batch_get_conversations), `file_router.py` (`_upload_file`, `_download_file`,
 * upload_file_query, download_file_query, and the `{path:path}` forms removed in v1.20.0 that the
 * Nov 2025 web client calls), `git_router.py` (git_changes_query, git_diff_query) and
 * `vscode_router.py` (get_vscode_url, get_vscode_status).
 */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { serve, startConversation } from './support.js';
import type { RunningCli } from '../support/cli.js';

const call = async (url: string, key: string | null, init: RequestInit = {}) => {
  const response = await fetch(url, {
    ...init,
    headers: { ...(key ? { 'x-session-api-key': key } : {}), ...(init.headers as Record<string, string> | undefined) },
  });
  const type = response.headers.get('content-type') ?? '';
  const body: unknown = type.includes('json') ? await response.json() : await response.text();
  return { status: response.status, body, headers: response.headers };
};

/** The project directory of a conversation without a repository: the sandbox spec's working dir. */
const PROJECT = '/home/openhands/workspace';

/** A multipart form with one `file`. */
const form = (text: string, name = 'notes.txt') => {
  const data = new FormData();
  data.append('file', new Blob([text], { type: 'text/plain' }), name);
  return data;
};

describe('GET /api/conversations/{id} on the agent host', () => {
  it("describes the conversation as ConversationInfo: its agent's model and tools (never an LLM key), workspace, status and policy", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const { status, body } = await call(`${cli.agentUrl}/api/conversations/${c.id}`, c.session_api_key);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-/),
      agent: {
        kind: 'Agent',
        llm: { model: expect.any(String) },
        tools: [{ name: 'terminal' }, { name: 'file_editor' }, { name: 'task_tracker' }],
      },
      workspace: { kind: 'LocalWorkspace', working_dir: PROJECT },
      execution_status: 'finished',
      confirmation_policy: { kind: 'NeverConfirm' },
      max_iterations: 500,
      stuck_detection: true,
    });
    // The LLM's credentials are written null, as the real agent server 1.58.2 writes them (checked by test/real/agent-server.real.test.ts); never the sandbox's key.
    const llm = (body as { agent: { llm: Record<string, unknown> } }).agent.llm;
    expect([llm.api_key, llm.aws_access_key_id, llm.aws_secret_access_key, llm.aws_session_token]).toEqual([null, null, null, null]);
    expect(JSON.stringify(body)).not.toContain(c.session_api_key);
    expect(JSON.stringify(body)).not.toMatch(/session_api_key/);
    expect((body as { id: string }).id.replace(/-/g, '')).toBe(c.id);
    // Under --auth none (serve()) the agent host takes no key: the local agent server holds every running sandbox's conversations.
    expect(await call(`${cli.agentUrl}/api/conversations/${c.id}`, null)).toMatchObject({
      status: 200,
      body: { id: (body as { id: string }).id },
    });
    expect(await call(`${cli.agentUrl}/api/conversations/00000000000040008000000000000000`, c.session_api_key)).toMatchObject({
      status: 404,
      body: { detail: 'Not Found' },
    });
  });
});

describe('GET /api/conversations/search, /count, /api/conversations?ids= on the agent host', () => {
  it("hold only the conversations of the key's own sandbox, filtered by status, paged by hex id", async () => {
    const cli = await serve(['--timings', 'instant']);
    const a = await startConversation(cli, 'First');
    const b = await startConversation(cli, 'Second');
    expect(a.sandbox_id).not.toBe(b.sandbox_id);
    const search = (await call(`${cli.agentUrl}/api/conversations/search`, a.session_api_key)) as {
      status: number;
      body: { items: { id: string }[]; next_page_id: string | null };
    };
    expect(search.status).toBe(200);
    expect(search.body.items.map((i) => i.id.replace(/-/g, ''))).toEqual([a.id]);
    expect(search.body.next_page_id).toBeNull();
    expect(await call(`${cli.agentUrl}/api/conversations/count`, a.session_api_key)).toMatchObject({ status: 200, body: 1 });
    expect(await call(`${cli.agentUrl}/api/conversations/count?status=finished`, a.session_api_key)).toMatchObject({
      status: 200,
      body: 1,
    });
    expect(await call(`${cli.agentUrl}/api/conversations/count?status=running`, a.session_api_key)).toMatchObject({ status: 200, body: 0 });
    const batch = (await call(`${cli.agentUrl}/api/conversations?ids=${a.id}&ids=${b.id}`, a.session_api_key)) as {
      status: number;
      body: ({ id: string } | null)[];
    };
    expect(batch.status).toBe(200);
    expect(batch.body.map((i) => i?.id.replace(/-/g, '') ?? null)).toEqual([a.id, null]);
  });

  it('answers 422 for a bad status, sort order or limit, and for an id that is not a UUID', async () => {
    const cli = await serve(['--timings', 'instant']);
    const a = await startConversation(cli, 'First');
    expect(await call(`${cli.agentUrl}/api/conversations/search?status=sleeping`, a.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['query', 'status'] }] },
    });
    expect(await call(`${cli.agentUrl}/api/conversations/search?sort_order=NAME`, a.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['query', 'sort_order'] }] },
    });
    expect(await call(`${cli.agentUrl}/api/conversations/search?limit=101`, a.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['query', 'limit'] }] },
    });
    expect(await call(`${cli.agentUrl}/api/conversations?ids=nope`, a.session_api_key)).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'uuid_parsing', loc: ['query', 'ids', 0] }] },
    });
  });
});

describe('POST /api/file/upload, GET /api/file/download on the agent host', () => {
  it('writes a file that downloads byte for byte and shows in git changes and diff on the agent host and the app server', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const path = `${PROJECT}/docs/notes.txt`;
    expect(
      await call(`${cli.agentUrl}/api/file/upload?path=${encodeURIComponent(path)}`, c.session_api_key, {
        method: 'POST',
        body: form('first draft\n'),
      }),
    ).toMatchObject({ status: 200, body: { success: true } });
    const download = await call(`${cli.agentUrl}/api/file/download?path=${encodeURIComponent(path)}`, c.session_api_key);
    expect(download.status).toBe(200);
    expect(download.body).toBe('first draft\n');
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="notes.txt"');
    const changes = await call(`${cli.agentUrl}/api/git/changes?path=${PROJECT}`, c.session_api_key);
    expect(changes).toMatchObject({
      status: 200,
      body: [
        { status: 'ADDED', path: 'PLAN.md' },
        { status: 'ADDED', path: 'docs/notes.txt' },
      ],
    });
    expect(await call(`${cli.agentUrl}/api/git/diff?path=${encodeURIComponent(path)}`, c.session_api_key)).toMatchObject({
      status: 200,
      body: { original: '', modified: 'first draft\n' },
    });
    expect(await (await fetch(`${cli.url}/api/v1/app-conversations/${c.id}/git/changes?path=/workspace/project`)).json()).toEqual(
      changes.body,
    );
    expect(await (await fetch(`${cli.url}/api/v1/app-conversations/${c.id}/file?file_path=${encodeURIComponent(path)}`)).json()).toBe(
      'first draft\n',
    );
  });

  it('takes the path in the URL as the Nov 2025 web client sends it, encoded or not, and replaces a file uploaded twice', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    expect(
      await call(`${cli.agentUrl}/api/file/upload/${encodeURIComponent(`${PROJECT}/a.md`)}`, c.session_api_key, {
        method: 'POST',
        body: form('one'),
      }),
    ).toMatchObject({ status: 200, body: { success: true } });
    expect(
      await call(`${cli.agentUrl}/api/file/upload/${PROJECT}/a.md`, c.session_api_key, { method: 'POST', body: form('two') }),
    ).toMatchObject({ status: 200, body: { success: true } });
    expect(await call(`${cli.agentUrl}/api/file/download/${PROJECT}/a.md`, c.session_api_key)).toMatchObject({ status: 200, body: 'two' });
    expect(await call(`${cli.agentUrl}/api/file/download/${encodeURIComponent(`${PROJECT}/README.md`)}`, c.session_api_key)).toMatchObject({
      status: 200,
      body: expect.stringMatching(/^# project/),
    });
  });

  it('refuses as the real helpers do: a relative path 400, a missing file 404, a directory 400, a path under a file 400, no file 422; nothing changes (file_router.py, _upload_file, _download_file)', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const key = c.session_api_key;
    // Status and body: the headers hold a Date, which moves on when a second ticks between the two.
    const changes = async () =>
      (({ status, body }) => ({ status, body }))(await call(`${cli.agentUrl}/api/git/changes?path=${PROJECT}`, key));
    const before = await changes();
    expect(await call(`${cli.agentUrl}/api/file/upload?path=notes.txt`, key, { method: 'POST', body: form('x') })).toMatchObject({
      status: 400,
      body: { detail: 'Path must be absolute' },
    });
    expect(await call(`${cli.agentUrl}/api/file/upload?path=${PROJECT}/src`, key, { method: 'POST', body: form('x') })).toMatchObject({
      status: 400,
      body: { detail: 'Path is a directory' },
    });
    expect(
      await call(`${cli.agentUrl}/api/file/upload?path=/home/openhands/projects`, key, { method: 'POST', body: form('x') }),
    ).toMatchObject({
      status: 400,
      body: { detail: 'Path is a directory' },
    });
    expect(
      await call(`${cli.agentUrl}/api/file/upload?path=${PROJECT}/README.md/x`, key, { method: 'POST', body: form('x') }),
    ).toMatchObject({
      status: 400,
      body: { detail: 'A parent of the path is not a directory' },
    });
    expect(
      await call(`${cli.agentUrl}/api/file/upload?path=${PROJECT}/x`, key, {
        method: 'POST',
        body: JSON.stringify({ file: 'x' }),
        headers: { 'content-type': 'application/json' },
      }),
    ).toMatchObject({ status: 422, body: { detail: [{ type: 'missing', loc: ['body', 'file'], msg: 'Field required' }] } });
    const text = new FormData();
    text.append('file', 'not a file');
    expect(await call(`${cli.agentUrl}/api/file/upload?path=${PROJECT}/x`, key, { method: 'POST', body: text })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'value_error', loc: ['body', 'file'] }] },
    });
    expect(await call(`${cli.agentUrl}/api/file/upload`, key, { method: 'POST', body: form('x') })).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'path'] }] },
    });
    expect(await call(`${cli.agentUrl}/api/file/download?path=${PROJECT}/nope.txt`, key)).toMatchObject({
      status: 404,
      body: { detail: 'File not found' },
    });
    expect(await call(`${cli.agentUrl}/api/file/download?path=${PROJECT}/src`, key)).toMatchObject({
      status: 400,
      body: { detail: 'Path is not a file' },
    });
    expect(await call(`${cli.agentUrl}/api/file/download?path=relative.txt`, key)).toMatchObject({
      status: 400,
      body: { detail: 'Path must be absolute' },
    });
    expect(await changes()).toEqual(before);
  });

  it('under --auth none, without a key, writes and reads on the local agent server: the newest RUNNING sandbox, where its conversations are', async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const key = c.session_api_key;
    // file_router.py, upload_file / download_file: the local agent server's files are its machine's.
    expect(
      await call(`${cli.agentUrl}/api/file/upload?path=${PROJECT}/local.txt`, null, { method: 'POST', body: form('from the client') }),
    ).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const read = await fetch(`${cli.agentUrl}/api/file/download?path=${PROJECT}/local.txt`);
    expect(read.status).toBe(200);
    expect(await read.text()).toBe('from the client');
    // The same file through the sandbox's own key: one machine.
    const withKey = await fetch(`${cli.agentUrl}/api/file/download?path=${PROJECT}/local.txt`, { headers: { 'x-session-api-key': key } });
    expect(await withKey.text()).toBe('from the client');
    expect(await call(`${cli.agentUrl}/api/file/download?path=${PROJECT}/nope.txt`, null)).toMatchObject({
      status: 404,
      body: { detail: 'File not found' },
    });
  });
});

describe('GET /api/vscode/url, /api/vscode/status on the agent host', () => {
  it("gives the sandbox's VSCODE exposed URL with a connection token (never the session key) and the folder", async () => {
    const cli = await serve(['--timings', 'instant']);
    const c = await startConversation(cli);
    const [sandbox] = (await (await fetch(`${cli.url}/api/v1/sandboxes?id=${c.sandbox_id}`)).json()) as {
      exposed_urls: { name: string; url: string }[];
    }[];
    const vscode = sandbox!.exposed_urls.find((u) => u.name === 'VSCODE')!.url;
    const { status, body } = (await call(`${cli.agentUrl}/api/vscode/url`, c.session_api_key)) as { status: number; body: { url: string } };
    expect(status).toBe(200);
    // The exposed URL has its own folder (the working dir); the route's is `workspace_dir` (vscode_router.py's default).
    expect(body.url).toMatch(/\?tkn=vsc-[0-9a-f]{8}&folder=workspace$/);
    expect(body.url.split('&folder=')[0]).toBe(vscode.split('&folder=')[0]);
    expect(body.url).not.toContain(c.session_api_key);
    expect(
      await call(`${cli.agentUrl}/api/vscode/url?base_url=http://127.0.0.1:9999/&workspace_dir=/workspace/project`, c.session_api_key),
    ).toMatchObject({
      status: 200,
      body: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9999\/\?tkn=vsc-[0-9a-f]{8}&folder=\/workspace\/project$/) },
    });
    expect(await call(`${cli.agentUrl}/api/vscode/status`, c.session_api_key)).toMatchObject({
      status: 200,
      body: { running: true, enabled: true },
    });
  });
});

describe("the agent host's files in-process (fake.handlers with setupServer)", () => {
  it('takes a multipart upload through msw and gives the same bytes back', async () => {
    const fake = await createFake({
      baseUrl: 'http://localhost:3000',
      agentUrl: 'http://localhost:3001',
      auth: 'none',
      fixture: 'empty',
      timings: 'instant',
    });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const c = await startConversation({ url: 'http://localhost:3000', agentUrl: 'http://localhost:3001' } as RunningCli);
      const bytes = new Uint8Array([0, 255, 1, 254, 10]);
      const data = new FormData();
      data.append('file', new Blob([bytes]), 'blob.bin');
      expect(
        await call(`http://localhost:3001/api/file/upload/${encodeURIComponent('/workspace/blob.bin')}`, c.session_api_key, {
          method: 'POST',
          body: data,
        }),
      ).toMatchObject({ status: 200, body: { success: true } });
      const download = await fetch('http://localhost:3001/api/file/download?path=/workspace/blob.bin', {
        headers: { 'x-session-api-key': c.session_api_key },
      });
      expect(download.status).toBe(200);
      expect([...new Uint8Array(await download.arrayBuffer())]).toEqual([...bytes]);
    } finally {
      server.close();
    }
  });
});
