/**
 * What the agent host keeps host-wide stays bounded by count and by size: bash history and output,
 * the history a bash socket resends, MCP OAuth probe jobs, saved workspaces, `misc_settings`. Each
 * test asserts the bound (counts, characters, exact refusals), not a time: the figures at full
 * scale are in bench/reliability.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createFake, type Fake } from '../../src/index.js';
import { startFakeServers, type FakeServers } from '../../src/server.js';
import { MAX_BASH_HISTORY_CHARS, MAX_BASH_OUTPUT_CHARS, truncationMarker } from '../../src/domain/agent-world/bash.js';
import { SEND_SLICE_FRAMES, SEND_WINDOW_CHARS, SEND_WINDOW_FRAMES, SocketOutbox } from '../../src/surfaces/agent-server/socket-outbox.js';
import { MAX_OAUTH_JOB_CHARS, MAX_OAUTH_JOBS } from '../../src/domain/agent-world/mcp.js';
import { MAX_WORKSPACE_CHARS, MAX_WORKSPACES } from '../../src/domain/agent-world/host.js';
import { MAX_MISC_SETTINGS_CHARS, MAX_MISC_SETTINGS_VALUES } from '../../src/domain/agent-world/misc-settings.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';

const running: FakeServers[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(running.splice(0).map((servers) => servers.close()));
});

/** A fresh in-process fake whose agent host answers under `AGENT`. */
const inProcess = () => createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });

/** Calls the in-process agent host and reads its JSON answer. */
async function call(fake: Fake, path: string, method = 'GET', body?: unknown) {
  const response = await fake.fetch(
    new Request(`${AGENT}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /api/bash/execute_bash_command (bash_router.py, execute_bash_command)', () => {
  it('keeps at most MAX_BASH_HISTORY_CHARS of history: after 20 commands of 1 MB, only the newest that fit remain', async () => {
    const fake = await inProcess();
    const command = `echo ${'x'.repeat(1_000_000)}`;
    const stdout = `${'x'.repeat(1_000_000)}\n`;
    for (let i = 0; i < 20; i++) expect((await call(fake, '/api/bash/execute_bash_command', 'POST', { command })).status).toBe(200);
    // The newest events that fit, newest first: each output, then its command (`bashEventChars`: its strings and 200).
    let kept = 0;
    let chars = 0;
    for (const weight of Array.from({ length: 20 }, () => [200 + stdout.length, 200 + command.length]).flat()) {
      if (chars + weight > MAX_BASH_HISTORY_CHARS) break;
      chars += weight;
      kept++;
    }
    expect(await call(fake, '/api/bash/bash_events', 'DELETE')).toEqual({ status: 200, body: { cleared_count: kept } });
    expect(kept).toBeLessThan(40);
  });

  it('cuts an output past MAX_BASH_OUTPUT_CHARS, the marker saying how much there was', async () => {
    const fake = await inProcess();
    const text = 'y'.repeat(MAX_BASH_OUTPUT_CHARS + 500_000);
    const answer = await call(fake, '/api/bash/execute_bash_command', 'POST', { command: `echo ${text}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ kind: 'BashOutput', exit_code: 0, stderr: null });
    expect(answer.body.stdout).toBe(`${text.slice(0, MAX_BASH_OUTPUT_CHARS)}\n${truncationMarker(text.length + 1)}\n`);
    expect(truncationMarker(text.length + 1)).toBe(
      `[fakehands: output truncated: the first 1048576 of ${text.length + 1} characters kept]`,
    );
  });

  it('cuts a long "command not found" the same way (its stderr)', async () => {
    const fake = await inProcess();
    const name = 'z'.repeat(MAX_BASH_OUTPUT_CHARS);
    const answer = await call(fake, '/api/bash/execute_bash_command', 'POST', { command: name });
    const line = `bash: ${name}: command not found`;
    expect(answer.body).toMatchObject({
      exit_code: 127,
      stdout: null,
      stderr: `${line.slice(0, MAX_BASH_OUTPUT_CHARS)}\n${truncationMarker(line.length + 1)}\n`,
    });
  });
});

describe('/sockets/bash-events?resend_mode=all (sockets.py, bash_events_socket)', () => {
  it('makes the history frames one at a time as the client takes them, never queuing it whole, then the live events in order', async () => {
    const servers = await startFakeServers({ fake: { timings: 'instant', fixture: 'empty', auth: 'none' } });
    running.push(servers);
    const post = (command: string) =>
      fetch(`${servers.agentUrl}/api/bash/execute_bash_command`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ command }),
      }).then((r) => r.arrayBuffer());
    for (let i = 0; i < 30; i++) await post(`echo ${i}`);
    const queued = vi.spyOn(SocketOutbox.prototype, 'push');
    const ws = new WebSocket(`${servers.agentUrl.replace('http', 'ws')}/sockets/bash-events?resend_mode=all`);
    const frames: { kind: string; stdout?: string | null }[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.on('open', resolve));
    for (let i = 0; i < 500 && frames.length < 60; i++) await new Promise((r) => setTimeout(r, 10));
    // No history frame went through the queue of texts (before: 60 texts queued at once).
    expect(queued.mock.calls.filter(([, live]) => live === false)).toHaveLength(0);
    await post('echo live');
    for (let i = 0; i < 500 && frames.length < 62; i++) await new Promise((r) => setTimeout(r, 10));
    expect(frames.filter((f) => f.kind === 'BashOutput').map((f) => f.stdout)).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `${i}\n`),
      'live\n',
    ]);
    ws.close();
  });
});

describe('SocketOutbox frame budgets', () => {
  it("hands out at most SEND_WINDOW_FRAMES unwritten frames a socket, and SEND_SLICE_FRAMES of sources' frames a turn across sockets", async () => {
    const held: (() => void)[] = [];
    const slow = new SocketOutbox(
      (_text, written) => held.push(written),
      () => undefined,
    );
    for (let i = 0; i < 2 * SEND_WINDOW_FRAMES; i++) slow.push('x', false);
    expect(held).toHaveLength(SEND_WINDOW_FRAMES);
    await new Promise((resolve) => setImmediate(resolve));
    // Sockets that write at once: a turn's slice of frames, the rest on later turns.
    let sent = 0;
    const outboxes = Array.from(
      { length: 4 },
      () =>
        new SocketOutbox(
          (_text, written) => {
            sent++;
            written();
          },
          () => undefined,
        ),
    );
    for (const outbox of outboxes) {
      let made = 0;
      outbox.pushSource(() => (made++ < SEND_SLICE_FRAMES ? 'y' : undefined));
    }
    expect(sent).toBe(SEND_SLICE_FRAMES);
    for (let turn = 0; turn < 10 && sent < 4 * SEND_SLICE_FRAMES; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toBe(4 * SEND_SLICE_FRAMES);
  });
});

describe('SocketOutbox.pushSource', () => {
  it('makes a frame only when the window has room: a client that reads nothing gets at most a window of them', async () => {
    // A turn of its own: the slice of a turn is shared by every socket of the process.
    await new Promise((resolve) => setImmediate(resolve));
    const handed: { text: string; written: () => void }[] = [];
    const outbox = new SocketOutbox(
      (text, written) => handed.push({ text, written }),
      () => undefined,
    );
    const frame = 'h'.repeat(100 * 1024);
    let made = 0;
    outbox.pushSource(() => (made < 100 ? `${made++}:${frame}` : undefined));
    outbox.push('live');
    const window = Math.ceil(SEND_WINDOW_CHARS / frame.length);
    expect(made).toBe(window);
    expect(handed).toHaveLength(window);
    // As the client reads, the rest come (a slice a turn), the live frame after the last of them.
    const sent: string[] = [];
    for (let turn = 0; turn < 100 && handed.length > 0; turn++) {
      while (handed.length > 0) {
        const next = handed.shift()!;
        sent.push(next.text);
        next.written();
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(made).toBe(100);
    expect(sent.at(-1)).toBe('live');
    expect(sent.slice(0, -1).map((t) => Number(t.split(':')[0]))).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });
});

describe('/api/mcp/oauth/* (mcp_router.py, start_mcp_oauth, get_mcp_oauth_status)', () => {
  const server = { type: 'http', url: 'https://mcp.example.com/mcp', auth: { strategy: 'oauth2' } };
  const start = async (fake: Fake, body: Record<string, unknown> = {}) => {
    const answer = await call(fake, '/api/mcp/oauth/start', 'POST', { server, ...body });
    return answer.body as { job_id: string; authorization_url: string };
  };

  it('keeps at most MAX_OAUTH_JOBS: past it the oldest finished ones go first, then the oldest; a job gone answers 404', async () => {
    const fake = await inProcess();
    const early = [];
    for (let i = 0; i < 5; i++) early.push(await start(fake));
    for (const done of [early[1]!, early[3]!]) {
      const redirect = new URL(done.authorization_url).searchParams.get('redirect_uri')!;
      const finished = await call(fake, `/api/mcp/oauth/callback/${done.job_id}`, 'POST', { callback_url: `${redirect}?code=abc` });
      expect(finished.body).toMatchObject({ status: 'succeeded' });
    }
    for (let i = 0; i < MAX_OAUTH_JOBS - 2; i++) await start(fake);
    const gone = { status: 404, body: { detail: 'MCP OAuth job not found' } };
    expect(await call(fake, `/api/mcp/oauth/status/${early[1]!.job_id}`)).toEqual(gone);
    expect(await call(fake, `/api/mcp/oauth/status/${early[3]!.job_id}`)).toEqual(gone);
    expect(await call(fake, `/api/mcp/oauth/status/${early[0]!.job_id}`)).toEqual(gone);
    for (const kept of [early[2]!, early[4]!])
      expect(await call(fake, `/api/mcp/oauth/status/${kept.job_id}`)).toMatchObject({ status: 200, body: { status: 'authorizing' } });
  });

  it("refuses a job that would hold more than MAX_OAUTH_JOB_CHARS with a 400, keeping nothing; a tool call's arguments are not kept", async () => {
    const fake = await inProcess();
    const name = 't'.repeat(MAX_OAUTH_JOB_CHARS);
    const refused = await call(fake, '/api/mcp/oauth/start', 'POST', { server, tool_call: { name } });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(
      new RegExp(
        `^MCP OAuth probe too large: its URLs, tool call name and outcome hold \\d+ characters, at most ${MAX_OAUTH_JOB_CHARS} \\(a fakehands bound\\)$`,
      ),
    );
    // 900 KB of arguments: accepted, and the job's outcome still names the tool.
    const big = await start(fake, { tool_call: { name: 'fetch', arguments: { blob: 'a'.repeat(900_000) } } });
    const redirect = new URL(big.authorization_url).searchParams.get('redirect_uri')!;
    expect(
      (await call(fake, `/api/mcp/oauth/callback/${big.job_id}`, 'POST', { callback_url: `${redirect}?code=abc` })).body,
    ).toMatchObject({
      status: 'succeeded',
      tool_result: { is_error: false, text: 'ok' },
    });
  });
});

describe('POST /api/workspaces (workspaces_router.py, add_workspaces)', () => {
  const item = (i: number, length = 20) => {
    const path = `/w/${i}/${'p'.repeat(Math.max(0, length - 4 - String(i).length))}`;
    return { id: path, name: `w${i}`, path };
  };

  it('keeps at most MAX_WORKSPACES: a save past it is refused with a 507 and adds none; paths already saved do not count', async () => {
    const fake = await inProcess();
    const first = Array.from({ length: MAX_WORKSPACES - 1 }, (_, i) => item(i));
    // A request body holds at most 2,000 values: 400 items (3 entries and their map each) a request.
    for (let at = 0; at < first.length; at += 400)
      expect((await call(fake, '/api/workspaces', 'POST', { workspaces: first.slice(at, at + 400) })).status).toBe(200);
    // Paths already saved again (and one twice within the request) and one new one: fits.
    const again = await call(fake, '/api/workspaces', 'POST', {
      workspaces: [...first.slice(0, 300), item(MAX_WORKSPACES), item(MAX_WORKSPACES)],
    });
    expect((again.body.workspaces as unknown[]).length).toBe(MAX_WORKSPACES);
    expect(await call(fake, '/api/workspaces', 'POST', { workspaces: [item(MAX_WORKSPACES + 1)] })).toEqual({
      status: 507,
      body: { detail: `Insufficient Storage: the fake keeps at most ${MAX_WORKSPACES} workspaces` },
    });
    expect(((await call(fake, '/api/workspaces')).body.workspaces as unknown[]).length).toBe(MAX_WORKSPACES);
  });

  it('keeps at most MAX_WORKSPACE_CHARS of ids, names and paths with the parents: past it a 507, nothing added', async () => {
    const fake = await inProcess();
    // 4,000-character paths (as id and path): 8,000 and the name each.
    const long = Array.from({ length: 600 }, (_, i) => item(i, 4_000));
    const perItem = long[0]!.id.length + long[0]!.path.length + long[0]!.name.length;
    const fit = Math.floor(MAX_WORKSPACE_CHARS / (perItem + 1));
    for (let at = 0; at < fit; at += 300)
      expect((await call(fake, '/api/workspaces', 'POST', { workspaces: long.slice(at, Math.min(fit, at + 300)) })).status).toBe(200);
    expect(await call(fake, '/api/workspaces/parents', 'POST', { parents: long.slice(fit, fit + 20) })).toEqual({
      status: 507,
      body: {
        detail: `Insufficient Storage: the fake keeps at most ${MAX_WORKSPACE_CHARS} characters of saved workspaces and parents (ids, names, paths)`,
      },
    });
    const listed = (await call(fake, '/api/workspaces')).body;
    expect([(listed.workspaces as unknown[]).length, (listed.workspaceParents as unknown[]).length]).toEqual([fit, 0]);
  });

  it('refuses a path longer than the real 4,096 characters with its 422', async () => {
    const fake = await inProcess();
    const path = `/${'p'.repeat(4096)}`;
    const refused = await call(fake, '/api/workspaces', 'POST', { workspaces: [{ id: 'x', name: 'x', path }] });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toMatchObject([
      { type: 'string_too_long', loc: ['body', 'workspaces', 0, 'path'], ctx: { max_length: 4096 } },
    ]);
  });
});

describe('PATCH /api/settings misc_settings_diff (settings_router.py, update_settings)', () => {
  const patch = (fake: Fake, diff: Record<string, unknown>) => call(fake, '/api/settings', 'PATCH', { misc_settings_diff: diff });
  const keys = (from: number, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${from + i}`, i]));

  it("refuses a merge past MAX_MISC_SETTINGS_VALUES with a 422 in FastAPI's detail list; the settings stay as they were", async () => {
    const fake = await inProcess();
    for (let from = 0; from < MAX_MISC_SETTINGS_VALUES; from += 1_000) expect((await patch(fake, keys(from, 1_000))).status).toBe(200);
    expect(await patch(fake, { one_more: true })).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'too_long',
            loc: ['body', 'misc_settings_diff'],
            msg: `misc_settings should have at most ${MAX_MISC_SETTINGS_VALUES} values (maps, lists, their entries and items) once merged`,
            input: {},
            ctx: { max_length: MAX_MISC_SETTINGS_VALUES },
          },
        ],
      },
    });
    const misc = (await call(fake, '/api/settings')).body.misc_settings as Record<string, unknown>;
    expect(Object.keys(misc)).toHaveLength(MAX_MISC_SETTINGS_VALUES);
    expect(misc.one_more).toBeUndefined();
    // A value replaced, or a key removed, still fits.
    expect((await patch(fake, { k0: 'changed' })).status).toBe(200);
  });

  it('refuses a merge past MAX_MISC_SETTINGS_CHARS of JSON with its 422', async () => {
    const fake = await inProcess();
    const big = 'v'.repeat(600_000);
    expect((await patch(fake, { a: big })).status).toBe(200);
    const refused = await patch(fake, { b: big });
    const chars = JSON.stringify({ a: big, b: big }).length;
    expect(refused).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'too_long',
            loc: ['body', 'misc_settings_diff'],
            msg: `misc_settings should take at most ${MAX_MISC_SETTINGS_CHARS} characters of JSON once merged, not ${chars}`,
            input: {},
            ctx: { max_length: MAX_MISC_SETTINGS_CHARS, actual_length: chars },
          },
        ],
      },
    });
    expect(Object.keys((await call(fake, '/api/settings')).body.misc_settings as object)).toEqual(['a']);
  });
});
