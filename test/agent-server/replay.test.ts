/**
 * Replay of recorded sessions (issue 32). The V0 trajectory is OpenHands' own
 * `tests/runtime/trajs/basic_interactions.json` (MIT, copied verbatim to
 * fixtures/replay-basic-interactions.json); the rules copied are `ReplayManager`'s
 * (`openhands/controller/replay.py`: environment events dropped, actions issued again in order)
 * and `load_replay_log`'s (`openhands/core/main.py`: the first event is the user's message).
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server.js';
import { openSocket, describe as frameOf } from './support.js';
import { MAX_REPLAY_EVENT_BYTES } from '../../src/domain/agent/replay-zip.js';
import { MAX_REPLAY_JSON_BYTES } from '../../src/schemas/replay.js';

const TRAJECTORY = JSON.parse(readFileSync(new URL('../../fixtures/replay-basic-interactions.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>[];

let servers: FakeServers | null = null;
afterEach(async () => {
  await servers?.close();
  servers = null;
});

const start = async () =>
  (servers = await startFakeServers({ fake: { fixture: 'empty', auth: 'none', clock: 'manual', timings: 'instant' } }));
const post = (path: string, body: unknown) =>
  fetch(`${servers!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const advance = (ms: number) => post('/_fakehands/clock', { advance_ms: ms });
interface Started {
  app_conversation_id: string;
  conversation_id: string;
  conversation_url: string;
  session_api_key: string;
}
const events = async (started: Started) => {
  const page = (await (
    await fetch(`${started.conversation_url}/events/search?limit=100`, { headers: { 'x-session-api-key': started.session_api_key } })
  ).json()) as { items: Record<string, unknown>[] };
  return page.items;
};
const said = (frame: Record<string, unknown>) => (frame.llm_message as { content: { text: string }[] } | undefined)?.content[0]?.text;

/** What the basic_interactions trajectory replays as: its 3 user messages, 2 agent answers and its finish, in order. */
const BASIC_INTERACTIONS = [
  'SystemPromptEvent',
  'MessageEvent:user',
  'execution_status=running',
  'MessageEvent:assistant',
  'MessageEvent:user',
  'MessageEvent:assistant',
  'MessageEvent:user',
  'ActionEvent:FinishAction',
  'ObservationEvent:FinishObservation',
  'execution_status=finished',
];

describe('POST /_fakehands/replay', () => {
  it("replays a V0 trajectory from OpenHands' tests on a new RUNNING V1 conversation, its actions in order, at the recorded cadence", async () => {
    await start();
    const response = await post('/_fakehands/replay', { trajectory: TRAJECTORY });
    expect(response.status).toBe(201);
    const started = (await response.json()) as Started;
    expect(Object.keys(started).sort()).toEqual(['app_conversation_id', 'conversation_id', 'conversation_url', 'session_api_key']);
    expect(started.conversation_url).toBe(`${servers!.agentUrl}/api/conversations/${started.conversation_id}`);
    const [app] = (await (await fetch(`${servers!.url}/api/v1/app-conversations?ids=${started.app_conversation_id}`)).json()) as {
      sandbox_status: string;
      execution_status: string;
    }[];
    expect(app!.sandbox_status).toBe('RUNNING');
    // At once: the first user message (00:14:10.79), then the answer 1.9 s later is not due yet.
    expect((await events(started)).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 3));
    await advance(1_898);
    expect((await events(started)).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 3));
    await advance(2);
    const answered = await events(started);
    expect(answered.map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 4));
    expect(said(answered[3]!)).toBe('1 + 1 equals 2.');
    // The rest: the last event was recorded 290.4 s after the first.
    await advance(290_400);
    const all = await events(started);
    expect(all.map(frameOf)).toEqual(BASIC_INTERACTIONS);
    expect(said(all[6]!)).toBe('Finish please');
    expect((all[7]!.action as { message: string }).message).toBe("All done! What's next on the agenda?");
    expect(all[8]!.action_id).toBe(all[7]!.id);
  });

  it('divides the recorded gaps by "speed", and "instant" publishes everything at once', async () => {
    await start();
    const fast = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 100 })).json()) as Started;
    await advance(19); // 1.899 s recorded / 100
    expect((await events(fast)).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 4));
    const instant = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 'instant' })).json()) as Started;
    expect((await events(instant)).map(frameOf)).toEqual(BASIC_INTERACTIONS);
  });

  it("takes a real session's events, over the 2,000 values other bodies may hold (400 messages: 4,000+ values)", async () => {
    await start();
    const base = Date.UTC(2026, 11, 2, 8);
    const recorded = Array.from({ length: 400 }, (_, i) => ({
      kind: 'MessageEvent',
      id: `recorded-${i}`,
      timestamp: new Date(base + i * 10).toISOString().replace('Z', ''),
      source: i % 2 === 0 ? 'user' : 'agent',
      llm_message: { role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `message ${i}` }] },
    }));
    const response = await post('/_fakehands/replay', { events: recorded, speed: 'instant' });
    expect(response.status).toBe(201);
    const started = (await response.json()) as Started;
    const count = await fetch(`${started.conversation_url}/events/count?kind=MessageEvent`, {
      headers: { 'x-session-api-key': started.session_api_key },
    });
    expect(await count.json()).toBe(400);
  });

  it("takes a real session's 10,000 events, past the server's 1 MiB body limit", async () => {
    await start();
    const recorded = Array.from({ length: 10_000 }, (_, i) => ({
      kind: 'MessageEvent',
      id: `recorded-${i}`,
      timestamp: '2026-12-02T08:00:00',
      source: i % 2 === 0 ? 'user' : 'agent',
      llm_message: { role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: `message ${i} with a few words in it` }] },
    }));
    const body = JSON.stringify({ events: recorded, speed: 'instant' });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const response = await post('/_fakehands/replay', JSON.parse(body));
    expect(response.status).toBe(201);
    const started = (await response.json()) as Started;
    const count = await fetch(`${started.conversation_url}/events/count?kind=MessageEvent`, {
      headers: { 'x-session-api-key': started.session_api_key },
    });
    expect(await count.json()).toBe(10_000);
  }, 60_000);

  it(`refuses one event of more than ${MAX_REPLAY_EVENT_BYTES} bytes of JSON with a 422 at its place, as the ZIP route does, and makes nothing`, async () => {
    await start();
    const big = { kind: 'MessageEvent', source: 'user', pad: 'x'.repeat(MAX_REPLAY_EVENT_BYTES) };
    const response = await post('/_fakehands/replay', { events: [{ kind: 'MessageEvent', source: 'user' }, big], speed: 'instant' });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'events', 1],
          msg: `Value error, the event holds more than ${MAX_REPLAY_EVENT_BYTES} bytes of JSON (one event may hold at most that)`,
          input: null,
          ctx: { error: {} },
        },
      ],
    });
    const search = (await (await fetch(`${servers!.url}/api/v1/app-conversations/search`)).json()) as { items: unknown[] };
    expect(search.items).toEqual([]);
  });

  it(`refuses a body declared past ${MAX_REPLAY_JSON_BYTES} bytes with 413 before reading it`, async () => {
    await start();
    const { port } = new URL(servers!.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.write(
        `POST /_fakehands/replay HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${MAX_REPLAY_JSON_BYTES + 1}\r\n\r\n{"events":`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413[\s\S]*\{"detail":"Request body too large"\}$/);
  });

  it('bounds a replay that would outlast the calendar (speed 1e-300): every later request still answers', async () => {
    await start();
    const response = await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 1e-300 });
    expect(response.status).toBe(201);
    const started = (await response.json()) as Started;
    // A message and a pause on the replayed conversation: 200, not 500 "Invalid time value".
    const headers = { 'content-type': 'application/json', 'x-session-api-key': started.session_api_key };
    const sent = await fetch(`${started.conversation_url}/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Still there?' }], run: false }),
    });
    expect(sent.status).toBe(200);
    expect((await fetch(`${started.conversation_url}/pause`, { method: 'POST', headers })).status).toBe(200);
    expect((await advance(1_000)).status).toBe(200);
    expect((await events(started)).length).toBeGreaterThan(2);
  });

  it('replays a V1 event log as events search gives it, with new ids that keep their references', async () => {
    await start();
    const recorded = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 'instant' })).json()) as Started;
    const log = await events(recorded);
    const response = await post('/_fakehands/replay', { events: log, speed: 'instant' });
    expect(response.status).toBe(201);
    const replayed = await events((await response.json()) as Started);
    expect(replayed.map(frameOf)).toEqual(log.map(frameOf));
    expect(replayed.map(said)).toEqual(log.map(said));
    expect(replayed[7]!.id).not.toBe(log[7]!.id);
    expect(replayed[8]!.action_id).toBe(replayed[7]!.id);
  });

  it('publishes a replay to an open socket in order, paced by the clock', async () => {
    await start();
    const started = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY })).json()) as Started;
    const socket = openSocket(servers!.agentUrl, started.conversation_id, `session_api_key=${started.session_api_key}`);
    await socket.received(1);
    await advance(400_000);
    const frames = await socket.received(8);
    expect(frames.map(frameOf)).toEqual(['full_state=running', ...BASIC_INTERACTIONS.slice(3)]);
    socket.ws.close();
  });

  it("answers 422 in FastAPI's format for a body that is no replay, and makes nothing", async () => {
    await start();
    const both = await post('/_fakehands/replay', { trajectory: TRAJECTORY, events: [] });
    expect(both.status).toBe(422);
    expect(((await both.json()) as { detail: { loc: unknown[]; msg: string }[] }).detail[0]!.msg).toContain(
      'exactly one of `trajectory` (V0) and `events` (V1)',
    );
    const badSpeed = await post('/_fakehands/replay', { events: [], speed: 0 });
    expect(badSpeed.status).toBe(422);
    expect(((await badSpeed.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc.slice(0, 2)).toEqual(['body', 'speed']);
    const agentFirst = await post('/_fakehands/replay', { trajectory: TRAJECTORY.slice(1) });
    expect(agentFirst.status).toBe(422);
    expect(await agentFirst.json()).toEqual({
      detail: [
        expect.objectContaining({
          type: 'value_error',
          loc: ['body', 'trajectory'],
          msg: expect.stringContaining("must be the user's message"),
        }),
      ],
    });
    const search = (await (await fetch(`${servers!.url}/api/v1/app-conversations/search`)).json()) as { items: unknown[] };
    expect(search.items).toEqual([]);
  });
});

describe('fakehands serve --replay FILE', () => {
  it('replays the file at start-up and names the conversation on the banner', async () => {
    const { serve } = await import('./support.js');
    const cli = await serve(['--replay', new URL('../../fixtures/replay-basic-interactions.json', import.meta.url).pathname]);
    {
      let line: RegExpExecArray | null = null;
      for (let i = 0; i < 200 && !line; i++) {
        line = /replaying \S+ on conversation ([0-9a-f]{32}) \((\S+)\)/.exec(cli.stdout());
        if (!line) await new Promise((r) => setTimeout(r, 25));
      }
      expect(line).not.toBeNull();
      expect(line![2]).toBe(`${cli.agentUrl}/api/conversations/${line![1]}`);
      const page = (await (await fetch(`${line![2]}/events/search`)).json()) as { items: Record<string, unknown>[] };
      // The first answer comes 1.9 s after the user's message: the start of the recording is out.
      expect(page.items.slice(0, 3).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 3));
    }
  });

  it('refuses a file that is no trajectory with a usage error', async () => {
    const { runCli } = await import('../support/cli.js');
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const dir = await mkdtemp('/tmp/fakehands-replay-');
    await writeFile(`${dir}/bad.json`, JSON.stringify([{ id: 1, source: 'agent', action: 'message', args: { content: 'hi' } }]));
    const run = await runCli([
      'serve',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--quiet',
      '--fixture',
      'empty',
      '--replay',
      `${dir}/bad.json`,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/invalid --replay .*must be the user's message/);
  });

  it("replays a V1 conversation's downloaded ZIP given as the file", async () => {
    await start();
    const recorded = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 'instant' })).json()) as Started;
    const zip = new Uint8Array(
      await (
        await fetch(`${new URL(recorded.conversation_url).origin}/api/file/download-trajectory/${recorded.conversation_id}`, {
          headers: { 'x-session-api-key': recorded.session_api_key },
        })
      ).arrayBuffer(),
    );
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const dir = await mkdtemp('/tmp/fakehands-replay-');
    await writeFile(`${dir}/conversation.zip`, zip);
    const { serve } = await import('./support.js');
    const cli = await serve(['--replay', `${dir}/conversation.zip`]);
    let line: RegExpExecArray | null = null;
    for (let i = 0; i < 200 && !line; i++) {
      line = /replaying \S+ on conversation ([0-9a-f]{32}) \((\S+)\)/.exec(cli.stdout());
      if (!line) await new Promise((r) => setTimeout(r, 25));
    }
    expect(line).not.toBeNull();
    const page = (await (await fetch(`${line![2]}/events/search`)).json()) as { items: Record<string, unknown>[] };
    expect(page.items.slice(0, 3).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 3));
  });
});

describe('POST /_fakehands/replay/zip', () => {
  const replayZip = (zip: Uint8Array, query = '') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'conversation.zip');
    return fetch(`${servers!.url}/_fakehands/replay/zip${query}`, { method: 'POST', body: form });
  };
  const download = async (started: Started) =>
    new Uint8Array(
      await (
        await fetch(`${new URL(started.conversation_url).origin}/api/file/download-trajectory/${started.conversation_id}`, {
          headers: { 'x-session-api-key': started.session_api_key },
        })
      ).arrayBuffer(),
    );

  it("replays a V1 conversation's downloaded ZIP (file_router.py, download_trajectory) as the log it holds, in order", async () => {
    await start();
    const recorded = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY, speed: 'instant' })).json()) as Started;
    const zip = await download(recorded);
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const response = await replayZip(zip, '?speed=instant');
    expect(response.status).toBe(201);
    const replayed = (await response.json()) as Started;
    expect(replayed.conversation_id).not.toBe(recorded.conversation_id);
    const original = await events(recorded);
    const again = await events(replayed);
    expect(again.map(frameOf)).toEqual(original.map(frameOf));
    expect(again.map(said)).toEqual(original.map(said));
    expect(new Set(again.map((e) => e.id)).size).toBe(again.length);
    expect(again.some((e) => original.some((o) => o.id === e.id))).toBe(false);
  });

  it('paces the events at their recorded gaps divided by ?speed=', async () => {
    await start();
    // Recorded at its own cadence, so that the downloaded events carry the gaps.
    const recorded = (await (await post('/_fakehands/replay', { trajectory: TRAJECTORY })).json()) as Started;
    await advance(300_000);
    const zip = await download(recorded);
    const replayed = (await (await replayZip(zip, '?speed=1000')).json()) as Started;
    // The first answer came 1.9 s after the first message: 1.9 ms at a thousand times the speed.
    expect((await events(replayed)).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 3));
    await advance(2);
    expect((await events(replayed)).map(frameOf)).toEqual(BASIC_INTERACTIONS.slice(0, 4));
    await advance(300);
    expect((await events(replayed)).map(frameOf)).toEqual(BASIC_INTERACTIONS);
  });

  it('answers 422 at body.file for bytes that are no conversation ZIP, or a bad ?speed=, and makes nothing', async () => {
    await start();
    const before = await (await fetch(`${servers!.url}/api/v1/app-conversations/search`)).json();
    const notZip = await replayZip(new TextEncoder().encode('not a zip at all'));
    expect(notZip.status).toBe(422);
    const notZipBody = (await notZip.json()) as { detail: { loc: string[]; msg: string }[] };
    expect(notZipBody.detail[0]!.loc).toEqual(['body', 'file']);
    expect(notZipBody.detail[0]!.msg).toBe('Value error, the file is not a ZIP archive (no end of central directory)');
    const speed = await replayZip(new Uint8Array([0x50, 0x4b, 0x05, 0x06]), '?speed=fast');
    expect(speed.status).toBe(422);
    expect(((await speed.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(['query', 'speed']);
    expect(await (await fetch(`${servers!.url}/api/v1/app-conversations/search`)).json()).toEqual(before);
  });

  it('stops an archive whose events inflate past the bound (a ZIP bomb) with a 422 at body.file, before inflating the rest', async () => {
    const { zipSync, strToU8 } = await import('fflate');
    const { eventsOfTrajectoryZip } = await import('../../src/domain/agent/replay-zip.js');
    const huge = new Uint8Array(4 * 1024 * 1024).fill(0x20);
    huge.set(strToU8('{"kind":"MessageEvent","source":"user"'), 0);
    huge.set(strToU8('}'), huge.length - 1);
    const bomb = zipSync({ 'events/event-00000-a.json': huge }, { level: 1 });
    expect(bomb.length).toBeLessThan(16 * 1024);
    // Under the bound, the same archive reads as its one event; past it, a refusal.
    expect(await eventsOfTrajectoryZip(bomb, 8 * 1024 * 1024, 8 * 1024 * 1024)).toEqual([{ kind: 'MessageEvent', source: 'user' }]);
    const refused = await eventsOfTrajectoryZip(bomb, 1024 * 1024, 8 * 1024 * 1024);
    expect(refused).toMatchObject({
      reason: 'invalid',
      errors: [{ loc: ['body', 'file'], msg: "Value error, the archive's events inflate to more than 1048576 bytes" }],
    });
  });
});
