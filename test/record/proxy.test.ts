/**
 * `fakehands record`'s proxy in front of a server (a fake's agent host standing in for the real
 * agent server): what a client gets through it is what it gets from the server directly, REST
 * and WebSocket frames alike, and the recording holds both as HAR 1.2 and the conversation's export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventsOfTrajectoryZip } from '../../src/domain/agent/replay-zip.js';
import type { HarEntry } from '../../src/domain/recording/har.js';
import type { FakeServers } from '../../src/server/start.js';
import { filesOf, harOf, jsonHeaders, recordInto, runConversation, socketFrames, startTarget } from './support.js';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';

let target: FakeServers;
let proxy: string;
let out: string;
let close: () => Promise<string>;
let id: string;

beforeAll(async () => {
  target = await startTarget();
  const recording = await recordInto(target.agentUrl);
  proxy = recording.recorder.url;
  out = recording.out;
  close = recording.recorder.close;
  id = await runConversation(proxy);
});

afterAll(async () => {
  await target.close();
});

/** Status, content type and body bytes of an answer. */
async function answer(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('REST through the proxy', () => {
  it('answers a read byte for byte as the server does', async () => {
    for (const path of [`/api/conversations/${id}`, `/api/conversations/${id}/events/search?limit=5`, '/api/conversations/count']) {
      const [through, direct] = [
        await answer(`${proxy}${path}`, { headers: jsonHeaders() }),
        await answer(`${target.agentUrl}${path}`, { headers: jsonHeaders() }),
      ];
      expect(through).toEqual(direct);
      expect(through.status).toBe(200);
    }
  });

  it("forwards a request's body as sent: a malformed one gets the server's own 422 echoing it", async () => {
    const raw = '{"agent": {"kind": "Agent", "llm": {}}, "workspace": {"working_dir": "/tmp"}}';
    const init = { method: 'POST', headers: jsonHeaders(), body: raw };
    const [through, direct] = [
      await answer(`${proxy}/api/conversations`, init),
      await answer(`${target.agentUrl}/api/conversations`, init),
    ];
    expect(through.status).toBe(422);
    expect(through).toEqual(direct);
    expect(JSON.parse(through.body).detail[0].loc).toEqual(['body', 'agent', 'llm']);
  });

  it("answers an unknown route with the server's 404", async () => {
    const through = await answer(`${proxy}/api/no-such-route`);
    expect(through).toEqual(await answer(`${target.agentUrl}/api/no-such-route`));
    expect(through.status).toBe(404);
  });
});

/** What the proxy answers a raw request (its status line and body). */
function raw(text: string): Promise<{ status: string; body: string }> {
  return new Promise((resolve) => {
    const { port } = new URL(proxy);
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let got = '';
    socket.on('data', (chunk) => {
      got += chunk;
    });
    socket.on('close', () => resolve({ status: got.split('\r\n')[0]!, body: got.slice(got.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('what the proxy does not send on', () => {
  it('refuses a host name that is not a loopback one (against DNS rebinding): 421 with a detail', async () => {
    expect(await raw('GET /api/conversations/count HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n')).toEqual({
      status: 'HTTP/1.1 421 Misdirected Request',
      body: JSON.stringify({
        detail: 'Misdirected Request: this host name is not served (the proxy serves loopback names; add others with --allowed-host)',
      }),
    });
  });

  it('refuses a request target that is no path (an absolute URL): 400, and keeps a path that starts with // on the target', async () => {
    expect(await raw('GET http://elsewhere.example/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toEqual({
      status: 'HTTP/1.1 400 Bad Request',
      body: JSON.stringify({ detail: 'Bad Request: the request target is not a path' }),
    });
    const kept = await raw('GET //elsewhere.example/api/conversations/count HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(kept.status).toBe('HTTP/1.1 404 Not Found');
  });

  it('refuses an upgrade that is no WebSocket handshake: 400, the target never asked', async () => {
    expect(await raw('GET /sockets/events/x HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n')).toEqual({
      status: 'HTTP/1.1 400 Bad Request',
      body: JSON.stringify({ detail: 'Bad Request: not a WebSocket handshake' }),
    });
  });
});

describe('WebSocket /sockets/events/{id} through the proxy', () => {
  const socketUrl = (base: string, conversation: string) =>
    `${base.replace(/^http/, 'ws')}/sockets/events/${conversation}?session_api_key=fakehands-dev-key&resend_mode=all`;

  it('passes the frames of a resend as the server sends them (after the full state, which is made per connection)', async () => {
    const [through, direct] = [await socketFrames(socketUrl(proxy, id)), await socketFrames(socketUrl(target.agentUrl, id))];
    expect(through.frames.length).toBeGreaterThan(5);
    expect(JSON.parse(through.frames[0]!).key).toBe('full_state');
    expect(through.frames.slice(1)).toEqual(direct.frames.slice(1));
  });

  it("passes the server's close code and reason for an unknown conversation", async () => {
    const unknown = '8a3a0c6f-6d3c-4c43-a5a8-3f0d8a1b2c3d';
    const [through, direct] = [await socketFrames(socketUrl(proxy, unknown)), await socketFrames(socketUrl(target.agentUrl, unknown))];
    expect(through.close).toEqual({ code: 4004, reason: 'Conversation not found' });
    expect(through.close).toEqual(direct.close);
  });

  it("passes a client's frame on: a message sent through the proxy runs the agent", async () => {
    const socket = new WebSocket(socketUrl(proxy, id));
    const seen: string[] = [];
    socket.on('message', (data) => seen.push(String(data)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'And once more' }], run: true }));
    for (let i = 0; i < 100 && !seen.some((f) => f.includes('And once more')); i++) await new Promise((r) => setTimeout(r, 20));
    socket.close();
    const events = (await (
      await fetch(`${target.agentUrl}/api/conversations/${id}/events/search?limit=100`, { headers: jsonHeaders() })
    ).json()) as {
      items: { kind: string; source: string; llm_message?: { content: { text: string }[] } }[];
    };
    expect(
      events.items.filter((e) => e.kind === 'MessageEvent' && e.source === 'user').map((e) => e.llm_message!.content[0]!.text),
    ).toEqual(['Please say hello', 'And once more']);
  });
});

describe('WebSocket /sockets/bash-events through the proxy', () => {
  it('passes the bash events of a resend as the server sends them', async () => {
    const ran = await fetch(`${proxy}/api/bash/execute_bash_command`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({ command: 'echo through the proxy' }),
    });
    expect(ran.status).toBe(200);
    const path = '/sockets/bash-events?session_api_key=fakehands-dev-key&resend_mode=all';
    const [through, direct] = [
      await socketFrames(`${proxy.replace(/^http/, 'ws')}${path}`),
      await socketFrames(`${target.agentUrl.replace(/^http/, 'ws')}${path}`),
    ];
    expect(through.frames.length).toBeGreaterThan(0);
    expect(through.frames).toEqual(direct.frames);
    expect(through.frames.some((f) => f.includes('echo through the proxy'))).toBe(true);
  });
});

describe('the recording', () => {
  let entries: HarEntry[];
  beforeAll(async () => {
    // The run the socket's message started ends; its log is read through the proxy.
    for (let i = 0; i < 100; i++) {
      const info = (await (await fetch(`${proxy}/api/conversations/${id}`, { headers: jsonHeaders() })).json()) as {
        execution_status: string;
      };
      if (info.execution_status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await fetch(`${proxy}/api/conversations/${id}/events/search?limit=100`, { headers: jsonHeaders() });
    expect(await close()).toMatch(/^recorded \d+ exchange\(s\) \(\d socket\(s\)\) and 1 conversation\(s\) into /);
    entries = (await harOf(out)).log.entries;
  });

  it('is HAR 1.2: the log and every entry with the fields the format requires', async () => {
    const har = await harOf(out);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'fakehands record', version: expect.any(String) });
    expect(entries.length).toBeGreaterThan(8);
    for (const entry of entries) {
      expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
      expect(entry).toMatchObject({
        time: expect.any(Number),
        cache: {},
        timings: { send: expect.any(Number), wait: expect.any(Number), receive: expect.any(Number) },
      });
      expect(entry.request).toMatchObject({
        method: expect.any(String),
        url: expect.stringMatching(/^(http|ws):\/\/127\.0\.0\.1:\d+\//),
        httpVersion: 'HTTP/1.1',
        cookies: expect.any(Array),
        headers: expect.any(Array),
        queryString: expect.any(Array),
        headersSize: -1,
        bodySize: expect.any(Number),
      });
      expect(entry.response).toMatchObject({
        status: expect.any(Number),
        statusText: expect.any(String),
        httpVersion: 'HTTP/1.1',
        cookies: expect.any(Array),
        headers: expect.any(Array),
        content: { size: expect.any(Number), mimeType: expect.any(String) },
        redirectURL: expect.any(String),
        headersSize: -1,
        bodySize: expect.any(Number),
      });
      for (const pair of [...entry.request.headers, ...entry.request.queryString, ...entry.response.headers])
        expect(pair).toEqual({ name: expect.any(String), value: expect.any(String) });
    }
  });

  it('holds each exchange as it passed: the malformed body and its 422, an answer byte for byte', async () => {
    const refused = entries.find((e) => e.response.status === 422)!;
    expect(refused.request.postData).toEqual({
      mimeType: 'application/json',
      text: '{"agent": {"kind": "Agent", "llm": {}}, "workspace": {"working_dir": "/tmp"}}',
    });
    const count = entries.find((e) => e.request.url.endsWith('/api/conversations/count'))!;
    expect(count.response.content).toEqual({ size: 1, mimeType: 'application/json', text: '1' });
  });

  it("holds a socket's frames in order, each way (Chromium's _webSocketMessages)", () => {
    const sockets = entries.filter((e) => e._resourceType === 'websocket');
    expect(sockets.map((e) => e.response.status)).toEqual([101, 101, 101, 101]);
    const sent = sockets.flatMap((e) => e._webSocketMessages!.filter((m) => m.type === 'send'));
    expect(sent.map((m) => JSON.parse(m.data).content[0].text)).toEqual(['And once more']);
    const resend = sockets[0]!._webSocketMessages!;
    expect(resend.every((m) => m.type === 'receive' && m.opcode === 1 && typeof m.time === 'number')).toBe(true);
  });

  it("writes the conversation's events as the agent server exports them: the replay's reader reads the log the server holds", async () => {
    const files = await filesOf(out);
    expect([...files.keys()].filter((f) => f.startsWith('conversations/'))).toEqual([`conversations/${id}.zip`]);
    const events = await eventsOfTrajectoryZip(new Uint8Array(await readFile(join(out, 'conversations', `${id}.zip`))));
    const held = (await (
      await fetch(`${target.agentUrl}/api/conversations/${id}/events/search?limit=100`, { headers: jsonHeaders() })
    ).json()) as { items: unknown[] };
    expect(events).toEqual(held.items);
  });
});
