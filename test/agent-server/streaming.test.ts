/**
 * Token streaming (issue 32), as the agent server does it with the LLM's `stream` on
 * (software-agent-sdk `openhands/sdk/event/streaming_delta.py`, `StreamingDeltaEvent`: published to
 * the socket's subscribers only, never to the event log, so a client that reconnects gets only the
 * final `MessageEvent`; `openhands/sdk/llm/llm.py`, `LLM.stream`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server.js';
import { openSocket, describe as frameOf } from './support.js';

let servers: FakeServers | null = null;
afterEach(async () => {
  await servers?.close();
  servers = null;
});

const SCRIPT = [{ steps: [{ message: 'Tests pass now' }] }];
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const advance = (ms: number) => post(`${servers!.url}/_fakehands/clock`, { advance_ms: ms });
interface Started {
  conversation_id: string;
  conversation_url: string;
  session_api_key: string;
}
/** A RUNNING conversation with an idle agent (an empty replay). */
const runningConversation = async () =>
  (await (await post(`${servers!.url}/_fakehands/replay`, { events: [], speed: 'instant' })).json()) as Started;
const searchKinds = async (c: Started) =>
  (
    (await (
      await fetch(`${c.conversation_url}/events/search?limit=100`, { headers: { 'x-session-api-key': c.session_api_key } })
    ).json()) as { items: Record<string, unknown>[] }
  ).items.map(frameOf);

describe('StreamingDeltaEvent on /sockets/events/{conversation_id}', () => {
  it("precedes the agent's message with one delta per token, paced by the manual clock at streamingTokensPerSecond", async () => {
    servers = await startFakeServers({
      fake: {
        fixture: 'empty',
        auth: 'none',
        clock: 'manual',
        timings: 'instant',
        agentScripts: SCRIPT,
        streaming: true,
        streamingTokensPerSecond: 10,
      },
    });
    const conversation = await runningConversation();
    const socket = openSocket(servers.agentUrl, conversation.conversation_id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    socket.ws.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Fix the test' }], run: true }));
    // 3 tokens at 10 a second: one now, one each 100 ms, the message once the last is out.
    const first = await socket.received(5);
    expect(first.slice(1).map(frameOf)).toEqual([
      'MessageEvent:user',
      'last_user_message_id',
      'execution_status=running',
      'StreamingDeltaEvent',
    ]);
    expect(first[4]).toMatchObject({ kind: 'StreamingDeltaEvent', source: 'agent', content: 'Tests' });
    await advance(100);
    expect((await socket.received(6))[5]).toMatchObject({ kind: 'StreamingDeltaEvent', content: ' pass' });
    await advance(100);
    expect((await socket.received(7))[6]).toMatchObject({ kind: 'StreamingDeltaEvent', content: ' now' });
    expect(socket.frames).toHaveLength(7);
    await advance(100);
    const all = await socket.received(9);
    expect(all.slice(7).map(frameOf)).toEqual(['MessageEvent:assistant', 'execution_status=finished']);
    expect((all[7]!.llm_message as { content: { text: string }[] }).content[0]!.text).toBe('Tests pass now');
    socket.ws.close();
  });

  it('never stores a delta: events search and a socket that reconnects get only the final MessageEvent', async () => {
    servers = await startFakeServers({
      fake: { fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant', agentScripts: SCRIPT, streaming: true },
    });
    const conversation = await runningConversation();
    await post(
      `${conversation.conversation_url}/events`,
      { role: 'user', content: [{ type: 'text', text: 'Fix the test' }], run: true },
      { 'x-session-api-key': conversation.session_api_key },
    );
    await advance(1_000);
    const kinds = await searchKinds(conversation);
    expect(kinds).toContain('MessageEvent:assistant');
    expect(kinds).not.toContain('StreamingDeltaEvent');
    const again = openSocket(
      servers.agentUrl,
      conversation.conversation_id,
      `resend_mode=all&session_api_key=${conversation.session_api_key}`,
    );
    const frames = await again.received(kinds.length + 1);
    expect(frames.slice(1).map(frameOf)).toEqual(kinds);
    again.ws.close();
  });

  it('streams on one conversation whose agent LLM has "stream": true, the fake\'s option off', async () => {
    servers = await startFakeServers({
      fake: { fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant', agentScripts: SCRIPT },
    });
    const host = await runningConversation();
    const headers = { 'x-session-api-key': host.session_api_key };
    const plain = (await (
      await post(
        `${servers.agentUrl}/api/conversations`,
        { agent: { kind: 'Agent', llm: { model: 'm' } }, workspace: { working_dir: '/workspace/project' } },
        headers,
      )
    ).json()) as { id: string };
    const streamed = (await (
      await post(
        `${servers.agentUrl}/api/conversations`,
        { agent: { kind: 'Agent', llm: { model: 'm', stream: true } }, workspace: { working_dir: '/workspace/project' } },
        headers,
      )
    ).json()) as { id: string };
    const plainSocket = openSocket(servers.agentUrl, plain.id, `session_api_key=${host.session_api_key}`);
    const streamedSocket = openSocket(servers.agentUrl, streamed.id, `session_api_key=${host.session_api_key}`);
    await plainSocket.received(1);
    await streamedSocket.received(1);
    for (const id of [plain.id, streamed.id])
      await post(
        `${servers.agentUrl}/api/conversations/${id}/events`,
        { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true },
        headers,
      );
    await advance(1_000);
    // The first message makes the agent ready: its system prompt goes first, live (local_conversation.py, _ensure_agent_ready).
    const streamedFrames = await streamedSocket.received(10);
    expect(streamedFrames.slice(1).map(frameOf)).toEqual([
      'SystemPromptEvent',
      'MessageEvent:user',
      'last_user_message_id',
      'execution_status=running',
      'StreamingDeltaEvent',
      'StreamingDeltaEvent',
      'StreamingDeltaEvent',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
    const plainFrames = await plainSocket.received(7);
    expect(plainFrames.slice(1).map(frameOf)).toEqual([
      'SystemPromptEvent',
      'MessageEvent:user',
      'last_user_message_id',
      'execution_status=running',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
    plainSocket.ws.close();
    streamedSocket.ws.close();
  });

  it('streams once POST .../switch_llm gives an LLM with "stream": true, and stops with one without it (conversation_router.py, switch_conversation_llm)', async () => {
    servers = await startFakeServers({
      fake: { fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant', agentScripts: SCRIPT },
    });
    const conversation = await runningConversation();
    const headers = { 'x-session-api-key': conversation.session_api_key };
    const socket = openSocket(servers.agentUrl, conversation.conversation_id, `session_api_key=${conversation.session_api_key}`);
    await socket.received(1);
    const turn = async (count: number) => {
      const from = socket.frames.length;
      await post(`${conversation.conversation_url}/events`, { role: 'user', content: [{ type: 'text', text: 'Go' }], run: true }, headers);
      await advance(1_000);
      return (await socket.received(from + count)).slice(from).map(frameOf);
    };
    const switched = await post(`${conversation.conversation_url}/switch_llm`, { llm: { model: 'm', stream: true } }, headers);
    expect([switched.status, await switched.json()]).toEqual([200, { success: true }]);
    expect(await turn(8)).toEqual([
      'MessageEvent:user',
      'last_user_message_id',
      'execution_status=running',
      'StreamingDeltaEvent',
      'StreamingDeltaEvent',
      'StreamingDeltaEvent',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
    expect((await post(`${conversation.conversation_url}/switch_llm`, { llm: { model: 'm' } }, headers)).status).toBe(200);
    expect(await turn(5)).toEqual([
      'MessageEvent:user',
      'last_user_message_id',
      'execution_status=running',
      'MessageEvent:assistant',
      'execution_status=finished',
    ]);
    socket.ws.close();
  });
});

describe('a streamed message of 160,000 tokens (a replayed session)', () => {
  it('streams without ending every later request in a 500: the clock moves on and the other routes answer', async () => {
    servers = await startFakeServers({
      fake: { fixture: 'empty', auth: 'none', timings: 'instant', clock: 'manual', streaming: true },
      server: { maxBodyBytes: 8 * 1024 * 1024 },
    });
    const text = Array.from({ length: 160_000 }, (_, i) => `w${i % 10}`).join(' ');
    const events = [
      {
        kind: 'MessageEvent',
        id: 'u',
        timestamp: '2026-12-02T08:00:00',
        source: 'user',
        llm_message: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      },
      {
        kind: 'MessageEvent',
        id: 'a',
        timestamp: '2026-12-02T08:00:01',
        source: 'agent',
        llm_message: { role: 'assistant', content: [{ type: 'text', text }] },
      },
    ];
    expect((await post(`${servers.url}/_fakehands/replay`, { events })).status).toBe(201);
    expect((await advance(5_000)).status).toBe(200);
    expect((await fetch(`${servers.url}/api/v1/sandboxes/search`)).status).toBe(200);
  }, 60_000);
});
