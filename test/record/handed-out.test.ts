/**
 * `fakehands record` in front of an app server: its answers send the client straight to each
 * sandbox's agent server (`conversation_url`, a sandbox's `exposed_urls`), so the recorder rewrites
 * each URL whose origin the target hands out (a loopback name or the target's host, never another)
 * to a proxy of that origin it starts, recording into the same folder. A web app pointed at the
 * recorder then records both servers, and the recording serves the conversation's events too.
 * (The real app server's URLs: openhands `app_server/sandbox/process_sandbox_service.py`, the
 * `AGENT_SERVER` `ExposedUrl` at `http://localhost:{port}`;
 * `app_conversation/live_status_app_conversation_service.py`, `conversation_url` =
 * that URL + `/api/conversations/{id.hex}`.)
 */
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import type { FakeServers } from '../../src/server/start.js';
import { harOf, jsonHeaders, recordInto, socketFrames, startTarget, textsOf } from './support.js';

/** A stub target answering `GET /answer/NAME` with the JSON text `answers[NAME]` (gzip'd under `/gzip/NAME`). */
let stub: Server;
let stubUrl: string;
const answers: Record<string, string> = {};

beforeAll(async () => {
  stub = createServer((req, res) => {
    const [, how, name] = (req.url ?? '').split('/');
    const text = answers[name ?? ''] ?? '{}';
    const body = how === 'gzip' ? gzipSync(text) : Buffer.from(text);
    res.writeHead(200, { 'content-type': 'application/json', ...(how === 'gzip' ? { 'content-encoding': 'gzip' } : {}) });
    res.end(body);
  });
  await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => stub.close(resolve));
});

/** A URL's origin and the rest of it as written. */
const split = (url: string) => {
  const origin = /^https?:\/\/[^/?#]*/.exec(url)![0];
  return { origin, rest: url.slice(origin.length) };
};

describe('a JSON answer of the target naming servers it hands out', () => {
  it('has each loopback or target-host URL in conversation_url and exposed_urls rewritten to a proxy of its origin, the rest of each URL kept', async () => {
    answers.sandbox = JSON.stringify({
      id: 'sb1',
      conversation_url: 'http://localhost:8011/api/conversations/abc',
      exposed_urls: [
        { name: 'AGENT_SERVER', url: 'http://localhost:8011', port: 8011 },
        { name: 'VSCODE', url: 'http://127.0.0.1:8012/?tkn=t1&folder=/workspace', port: 8012 },
      ],
      legacy: { url: 'http://localhost:8011/api/conversations/abc', session_api_key: 'k' },
    });
    const { recorder, notes } = await recordInto(stubUrl);
    const body = (await (await fetch(`${recorder.url}/answer/sandbox`)).json()) as {
      conversation_url: string;
      exposed_urls: { name: string; url: string; port: number }[];
      legacy: { url: string };
    };
    await recorder.close();
    const agent = split(body.conversation_url);
    const vscode = split(body.exposed_urls[1]!.url);
    expect(agent.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(vscode.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([agent.origin, vscode.origin, split(recorder.url).origin]).size).toBe(3);
    expect(body).toEqual({
      id: 'sb1',
      conversation_url: `${agent.origin}/api/conversations/abc`,
      exposed_urls: [
        { name: 'AGENT_SERVER', url: agent.origin, port: 8011 },
        { name: 'VSCODE', url: `${vscode.origin}/?tkn=t1&folder=/workspace`, port: 8012 },
      ],
      legacy: { url: `${agent.origin}/api/conversations/abc`, session_api_key: 'k' },
    });
    expect(notes).toEqual([
      `fakehands record: http://localhost:8011, which the target hands out, is recorded through ${agent.origin}`,
      `fakehands record: http://127.0.0.1:8012, which the target hands out, is recorded through ${vscode.origin}`,
    ]);
  });

  it("has a URL of the target's own origin rewritten to the recorder itself, no other proxy started", async () => {
    answers.own = JSON.stringify({ conversation_url: `${stubUrl}/api/conversations/abc` });
    const { recorder, notes } = await recordInto(stubUrl);
    const body = await (await fetch(`${recorder.url}/answer/own`)).json();
    const summary = await recorder.close();
    expect(body).toEqual({ conversation_url: `${recorder.url}/api/conversations/abc` });
    expect(notes).toEqual([]);
    expect(summary).not.toContain('proxy(ies)');
  });

  it('keeps URLs of other hosts, and loopback URLs in other fields, as the target sent them', async () => {
    answers.others = JSON.stringify({
      conversation_url: 'https://app.example.com/api/conversations/abc',
      exposed_urls: [{ name: 'AGENT_SERVER', url: 'http://10.0.0.7:8000', port: 8000 }],
      agent: { llm: { base_url: 'http://127.0.0.1:4000/v1' } },
      url: 'http://localhost:8011',
    });
    const { recorder, notes } = await recordInto(stubUrl);
    const answer = await fetch(`${recorder.url}/answer/others`);
    expect(await answer.text()).toBe(answers.others);
    await recorder.close();
    expect(notes).toEqual([]);
  });

  it('sends an answer with nothing to rewrite on byte for byte, and decodes a compressed one it rewrites', async () => {
    answers.spaced = '{ "conversation_url" : null,\n  "cost": 1.0 }';
    answers.zipped = JSON.stringify({ conversation_url: 'http://localhost:8013/api/conversations/z' });
    const { recorder, out } = await recordInto(stubUrl);
    const spaced = await fetch(`${recorder.url}/answer/spaced`);
    expect(await spaced.text()).toBe(answers.spaced);
    const zipped = await fetch(`${recorder.url}/gzip/zipped`, { headers: { 'accept-encoding': 'gzip' } });
    const text = await zipped.text();
    expect([zipped.headers.get('content-encoding'), zipped.headers.get('content-length')]).toEqual([null, String(text.length)]);
    expect(text).toMatch(/^\{"conversation_url":"http:\/\/127\.0\.0\.1:\d+\/api\/conversations\/z"\}$/);
    await recorder.close();
    // The recording keeps what the target answered.
    const entries = (await harOf(out)).log.entries.map((entry) => entry.response.content.text);
    expect(entries).toEqual([answers.spaced, answers.zipped]);
  });
});

describe('a web app pointed at a recorder in front of an app server', () => {
  let target: FakeServers;
  let out: string;
  let id: string;
  let conversationUrl: string;
  let events: { items: { id: string }[] };
  let frames: string[];
  let sandboxKey: string;

  beforeAll(async () => {
    target = await startTarget();
    const recording = await recordInto(target.url);
    out = recording.out;
    const app = recording.recorder.url;
    const started = await fetch(`${app}/api/v1/app-conversations`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Please say hello' }] } }),
    });
    const task = (await started.json()) as { id: string };
    let ready: { status: string; app_conversation_id: string } | undefined;
    for (let i = 0; i < 100 && ready?.status !== 'READY'; i++) {
      [ready] = (await (await fetch(`${app}/api/v1/app-conversations/start-tasks?ids=${task.id}`, { headers: jsonHeaders() })).json()) as [
        typeof ready,
      ];
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    id = ready!.app_conversation_id;
    const [conversation] = (await (await fetch(`${app}/api/v1/app-conversations?ids=${id}`, { headers: jsonHeaders() })).json()) as [
      { conversation_url: string; session_api_key: string },
    ];
    conversationUrl = conversation.conversation_url;
    sandboxKey = conversation.session_api_key;
    const key = { 'X-Session-API-Key': conversation.session_api_key };
    for (let i = 0; i < 100; i++) {
      const info = (await (await fetch(conversationUrl, { headers: key })).json()) as { execution_status: string };
      if (info.execution_status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    events = (await (await fetch(`${conversationUrl}/events/search?limit=100`, { headers: key })).json()) as typeof events;
    const socket = conversationUrl.replace(/^http/, 'ws').replace('/api/conversations/', '/sockets/events/');
    ({ frames } = await socketFrames(`${socket}?session_api_key=${conversation.session_api_key}&resend_mode=all`));
    await recording.recorder.close();
  });

  afterAll(async () => {
    await target.close();
  });

  it("is sent to a proxy of the sandbox's agent server, not to the agent server itself", () => {
    expect(split(conversationUrl).origin).not.toBe(target.agentUrl);
    expect(split(conversationUrl).rest).toBe(`/api/conversations/${id.replace(/-/g, '')}`);
    expect(events.items.length).toBeGreaterThan(5);
    expect(frames.length).toBe(events.items.length + 1);
  });

  it("records both servers' exchanges and the agent server's socket into one HAR, and the conversation's events as an export", async () => {
    const hosts = new Set((await harOf(out)).log.entries.map((entry) => new URL(entry.request.url).host));
    expect([...hosts].sort()).toEqual([new URL(target.url).host, new URL(target.agentUrl).host].sort());
    const sockets = (await harOf(out)).log.entries.filter((entry) => entry._resourceType === 'websocket');
    expect(sockets.map((entry) => [new URL(entry.request.url).host, entry._webSocketMessages?.length])).toEqual([
      [new URL(target.agentUrl).host, frames.length],
    ]);
    const texts = await textsOf(out);
    expect([...texts.keys()].filter((name) => name.includes('!events/')).length).toBe(events.items.length);
    // The sandbox's key, in the app server's answers, the agent server's request headers and the socket's query, is masked everywhere.
    expect(sandboxKey.length).toBeGreaterThan(20);
    expect([...texts].filter(([, text]) => text.includes(sandboxKey)).map(([name]) => name)).toEqual([]);
  });

  it("serves the app conversation with the events the client read from the sandbox's agent server", async () => {
    const fake = await createFake({ recording: out, agentUrl: 'http://agent.test', auth: 'none', timings: 'instant' });
    const [conversation] = (await (await fake.fetch(new Request(`http://localhost:3000/api/v1/app-conversations?ids=${id}`))).json()) as [
      { id: string; conversation_url: string },
    ];
    expect(conversation.conversation_url).toBe(`http://agent.test/api/conversations/${id.replace(/-/g, '')}`);
    const served = (await (
      await fake.fetch(new Request(`${conversation.conversation_url}/events/search?limit=100`))
    ).json()) as typeof events;
    expect(served).toEqual(events);
  });
});
