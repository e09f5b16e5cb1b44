/**
 * A session with the real app server (openhands-ai, pinned in real/requirements/, process
 * sandboxes), its agents driven by the scripted LLM, recorded through `fakehands record --compare`
 * as a web app would make it: the conversation started on the app server, then read on its
 * sandbox's agent server at the `conversation_url` the app server answered (events, a socket's
 * resend). The recorder hands the client a proxy of that agent server instead (the real one at
 * `http://localhost:{port}`: openhands `app_server/sandbox/process_sandbox_service.py`), so both
 * servers' traffic is in the recording; the recording is then served, and what the served fake
 * answers is compared with what the real servers answered through the proxy (`src/real/compare.ts`).
 * The facts count in the `real:` line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { Har } from '../../src/domain/recording/har.js';
import type { RealServer } from '../../src/real/processes.js';
import { REAL_PACKAGES } from '../../src/real/provision.js';
import { REAL_SESSION_KEY, startRealAppServer, useScriptedLlm } from '../../src/real/servers.js';
import { liveCompare, serverKind } from '../../src/record/compare.js';
import { startRecorder } from '../../src/record/recorder.js';
import { startLlmServer, type LlmServer } from '../../src/server/llm-server.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import {
  type Answered,
  call,
  compareAnswers,
  compareSequences,
  compareServer,
  eventName,
  sleep,
  type Target,
  until,
  writeFacts,
} from './support.js';

const SCRIPTS = [{ match: 'say hello', steps: [{ terminal: { command: 'echo hello', output: 'hello' } }, { finish: 'Said hello.' }] }];

compareServer('app server');

const out = mkdtempSync(join(tmpdir(), 'fakehands-real-record-app-'));
let llm: LlmServer;
let real: RealServer;
let served: FakeServers;
let summary = '';
/** What the client read through the recorder: the app conversation, its sandbox, and on its agent server its events and a socket's resend. */
const recorded = {} as {
  conversation: Answered;
  sandbox: Answered;
  direct: { exposed_urls: { name: string; url: string }[] };
  events: Answered;
  frames: Record<string, unknown>[];
  id: string;
};

/** The frames a socket receives until `quietMs` pass without one. */
async function frames(url: string, quietMs = 1500): Promise<Record<string, unknown>[]> {
  const socket = new WebSocket(url);
  const got: Record<string, unknown>[] = [];
  await new Promise<void>((resolve) => {
    let timer = setTimeout(resolve, quietMs * 2);
    socket.on('message', (data) => {
      got.push(JSON.parse(String(data)) as Record<string, unknown>);
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    });
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
  });
  socket.close();
  return got;
}

/** The first item of a list answer. */
const first = (answer: Answered) => ((answer.body as Record<string, unknown>[] | null) ?? [])[0] ?? {};

beforeAll(async () => {
  llm = await startLlmServer({ scripts: SCRIPTS });
  real = await startRealAppServer({ log: (line) => process.stderr.write(`${line}\n`) });
  await useScriptedLlm(real, llm.url);
  const kind = await serverKind(new URL(real.url));
  const recorder = await startRecorder({
    target: new URL(real.url),
    out,
    host: '127.0.0.1',
    port: 0,
    maxBytes: 256 * 1024 * 1024,
    note: (line) => process.stderr.write(`${line}\n`),
    compare: await liveCompare({ kind, agentScripts: SCRIPTS, out, print: () => undefined }),
  });
  const proxy: Target = { side: 'real', url: recorder.url, key: REAL_SESSION_KEY };
  const started = await call(proxy, 'POST', '/api/v1/app-conversations', {
    initial_message: { role: 'user', content: [{ type: 'text', text: 'Please say hello' }] },
  });
  expect(started.status, JSON.stringify(started.body).slice(0, 300)).toBe(200);
  const taskId = (started.body as { id: string }).id;
  // The real server limits a client to 10 requests a second: polls wait half a second.
  const task = first(
    await until(
      async () => {
        await sleep(500);
        return call(proxy, 'GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`);
      },
      (a) => ['READY', 'ERROR'].includes(String(first(a).status)),
      180_000,
    ),
  );
  expect(task.status).toBe('READY');
  recorded.id = String(task.app_conversation_id);
  recorded.conversation = await until(
    async () => {
      await sleep(500);
      return call(proxy, 'GET', `/api/v1/app-conversations?ids=${recorded.id}`);
    },
    (a) => !['running', 'idle', undefined].includes(first(a).execution_status as string),
    180_000,
  );
  const conversation = first(recorded.conversation) as { conversation_url: string; session_api_key: string; sandbox_id: string };
  recorded.sandbox = await call(proxy, 'GET', `/api/v1/sandboxes?id=${conversation.sandbox_id}`);
  recorded.direct = first(await call({ ...proxy, url: real.url }, 'GET', `/api/v1/sandboxes?id=${conversation.sandbox_id}`)) as never;
  const agent: Target = {
    side: 'real',
    url: conversation.conversation_url.replace(/\/api\/conversations\/.*$/, ''),
    key: conversation.session_api_key,
  };
  const hex = recorded.id.replace(/-/g, '');
  // The agent server titles the conversation with an LLM call of its own after the message; its last state update comes with the title.
  await until(
    async () => {
      await sleep(500);
      return call(agent, 'GET', `/api/conversations/${hex}`);
    },
    (a) => typeof (a.body as { title?: unknown }).title === 'string',
    60_000,
  );
  recorded.events = await call(agent, 'GET', `/api/conversations/${hex}/events/search?limit=100`);
  recorded.frames = await frames(
    `${agent.url.replace(/^http/, 'ws')}/sockets/events/${hex}?session_api_key=${conversation.session_api_key}&resend_mode=all`,
  );
  summary = await recorder.close();
  served = await startFakeServers({ fake: { recording: out, auth: 'none', timings: 'instant' } });
}, 900_000);

afterAll(async () => {
  writeFacts(import.meta.filename, { 'app server': REAL_PACKAGES['app-server'].version });
  await Promise.all([real?.stop(), llm?.close(), served?.close()]);
  rmSync(out, { recursive: true, force: true });
});

describe("a web app's session with the real app server, recorded", () => {
  it("is handed a proxy of the sandbox's agent server, the rest of each URL as the app server wrote it", () => {
    const realAgent = recorded.direct.exposed_urls.find((u) => u.name === 'AGENT_SERVER')!.url;
    const conversation = first(recorded.conversation) as { conversation_url: string };
    const proxied = (first(recorded.sandbox) as { exposed_urls: { name: string; url: string }[] }).exposed_urls;
    const agentProxy = proxied.find((u) => u.name === 'AGENT_SERVER')!.url;
    expect(realAgent).toMatch(/^http:\/\/localhost:\d+$/);
    expect(agentProxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(agentProxy).not.toBe(realAgent);
    expect(conversation.conversation_url).toBe(`${agentProxy}/api/conversations/${recorded.id.replace(/-/g, '')}`);
    expect(recorded.events.status).toBe(200);
    expect(recorded.frames.length).toBeGreaterThan(5);
  });

  it("holds both servers' exchanges, the agent server's socket, and the conversation's events as an export", () => {
    const har = JSON.parse(readFileSync(join(out, 'recording.har'), 'utf8')) as Har;
    const realAgent = new URL(recorded.direct.exposed_urls.find((u) => u.name === 'AGENT_SERVER')!.url).host;
    const hosts = new Set(har.log.entries.map((entry) => new URL(entry.request.url).host));
    expect([...hosts].sort()).toEqual([new URL(real.url).host, realAgent].sort());
    const sockets = har.log.entries.filter((entry) => entry._resourceType === 'websocket');
    expect(sockets.map((entry) => new URL(entry.request.url).host)).toEqual([realAgent]);
    // Named by the id hyphenated, as the agent server's own conversations are.
    const dashed = recorded.id.replace(/-/g, '').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
    expect(readFileSync(join(out, 'conversations', `${dashed}.zip`)).length).toBeGreaterThan(1000);
    expect(summary).toMatch(/through 1 proxy\(ies\) of the servers it hands out\) and 1 conversation\(s\)/);
  });

  it('was compared with the fake as it went, sockets too', () => {
    const lines = readFileSync(join(out, 'differences.jsonl'), 'utf8').trim().split('\n');
    const socket = lines
      .map((line) => JSON.parse(line) as { id: string; declared: string | null })
      .filter((f) => f.id.includes('› socket '));
    process.stderr.write(`record --compare of the real app session: ${/compare: .*/.exec(summary)?.[0]}\n`);
    expect(summary).toMatch(/compare: \d+\/\d+ facts agree, \d+ difference\(s\) \(\d+ declared\) in /);
    // The socket's events agree with the fake's but for what the suite declares (the real agent's statistics updates).
    expect(socket.map((f) => f.id)).toEqual(['agent server › socket /sockets/events/{id} › frames › stats updates published']);
    expect(socket.filter((f) => f.declared === null)).toEqual([]);
  });
});

describe('the recording served', () => {
  const fakeTarget = (): Target => ({ side: 'fake', url: served.url, key: REAL_SESSION_KEY });

  it('answers the app conversation as the real app server did', async () => {
    const answer = await call(fakeTarget(), 'GET', `/api/v1/app-conversations?ids=${recorded.id}`);
    expect(compareAnswers('served recording › GET /api/v1/app-conversations?ids=', recorded.conversation, answer)).toEqual([]);
  });

  it("answers the conversation's events on its agent server as the sandbox's did, event by event", async () => {
    const conversation = first(await call(fakeTarget(), 'GET', `/api/v1/app-conversations?ids=${recorded.id}`)) as {
      conversation_url: string;
      session_api_key: string;
    };
    const agent: Target = {
      side: 'fake',
      url: conversation.conversation_url.replace(/\/api\/conversations\/.*$/, ''),
      key: conversation.session_api_key,
    };
    const hex = recorded.id.replace(/-/g, '');
    const events = await call(agent, 'GET', `/api/conversations/${hex}/events/search?limit=100`);
    const names = (answer: Answered) => ((answer.body as { items?: Record<string, unknown>[] }).items ?? []).map(eventName);
    const differences = [
      ...compareAnswers('served recording › GET /api/conversations/{id}/events/search', recorded.events, events),
      ...compareSequences('served recording › events', names(recorded.events), names(events)),
    ];
    expect(names(events).length).toBeGreaterThan(5);
    const resent = await frames(`${agent.url.replace(/^http/, 'ws')}/sockets/events/${hex}?session_api_key=${agent.key}&resend_mode=all`);
    differences.push(
      ...compareSequences('served recording › socket resend › frames', recorded.frames.map(eventName), resent.map(eventName)),
    );
    expect(differences).toEqual([]);
  });
});
