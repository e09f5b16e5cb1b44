/**
 * `replay_json` on the legacy `POST /api/conversations` (openhands `server/routes/manage_conversations.py`,
 * `new_conversation`; the replay as `controller/replay.py`'s `ReplayManager`): the new V0
 * conversation's events are read back on the V0 events route and trajectory
 * (`server/routes/conversation.py`, `search_events`; `events/serialization/event.py`,
 * `event_to_dict`) and on the agent host at the conversation's url. The trajectory is OpenHands' own
 * `tests/runtime/trajs/basic_interactions.json` (MIT, fixtures/replay-basic-interactions.json).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServers, type FakeServers } from '../../src/server.js';
import { describe as frameOf } from './support.js';

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

/** What the basic_interactions trajectory replays as on a V0 conversation (no system prompt of its own). */
const REPLAYED = [
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

describe('POST /api/conversations with replay_json', () => {
  it('replays the trajectory on the new conversation, read back on the V0 events route and on the agent host at its url', async () => {
    await start();
    const response = await post('/api/conversations', { replay_json: JSON.stringify(TRAJECTORY) });
    expect(response.status).toBe(200);
    const { conversation_id } = (await response.json()) as { conversation_id: string };
    await advance(400_000);
    // The V0 event stream (openhands server/routes/conversation.py, search_events; events/serialization/event.py, event_to_dict):
    // ids are places in the stream; the finish's observation has no V0 counterpart, so its place is empty.
    const v0 = (await (await fetch(`${servers!.url}/api/conversations/${conversation_id}/events?limit=100`)).json()) as {
      events: Record<string, unknown>[];
      has_more: boolean;
    };
    expect(v0.has_more).toBe(false);
    expect(v0.events.map((e) => [e.id, e.source, e.action ?? e.observation, e.message])).toEqual([
      [0, 'user', 'message', "what's 1+1?"],
      [1, 'environment', 'agent_state_changed', ''],
      [2, 'agent', 'message', '1 + 1 equals 2.'],
      [3, 'user', 'message', "No, I mean by Goldbach's conjecture!"],
      [4, 'agent', 'message', expect.stringMatching(/^Goldbach's conjecture is an unsolved problem/)],
      [5, 'user', 'message', 'Finish please'],
      [6, 'agent', 'finish', "All done! What's next on the agenda?"],
      [8, 'environment', 'agent_state_changed', ''],
    ]);
    expect(v0.events[0]).toEqual({
      id: 0,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/),
      source: 'user',
      message: "what's 1+1?",
      action: 'message',
      args: { content: "what's 1+1?", file_urls: null, image_urls: null, wait_for_response: false, security_risk: -1 },
    });
    const trajectory = (await (await fetch(`${servers!.url}/api/conversations/${conversation_id}/trajectory`)).json()) as {
      trajectory: unknown[];
    };
    expect(trajectory).toEqual({ trajectory: v0.events });
    expect(v0.events.at(-1)).toMatchObject({
      observation: 'agent_state_changed',
      content: '',
      extras: { agent_state: 'finished', reason: '' },
    });
    // A page: `limit` of them from `start_id`, `has_more` when more follow; `reverse` from the end.
    const page = async (query: string) =>
      (await (await fetch(`${servers!.url}/api/conversations/${conversation_id}/events?${query}`)).json()) as {
        events: { id: number }[];
        has_more: boolean;
      };
    expect(await page('start_id=5&limit=2')).toMatchObject({ events: [{ id: 5 }, { id: 6 }], has_more: true });
    expect((await page('reverse=true&limit=2')).events.map((e) => e.id)).toEqual([8, 6]);
    expect((await page('start_id=2&end_id=3')).events.map((e) => e.id)).toEqual([2, 3]);
    // The conversation's url is on the agent host, which holds it with its events.
    const info = (await (await fetch(`${servers!.url}/api/conversations/${conversation_id}`)).json()) as {
      url: string;
      session_api_key: string;
    };
    const headers = { 'x-session-api-key': info.session_api_key };
    const held = await fetch(info.url, { headers });
    expect(held.status).toBe(200);
    expect(((await held.json()) as { id: string }).id.replaceAll('-', '')).toBe(conversation_id);
    const search = (await (await fetch(`${info.url}/events/search?limit=100`, { headers })).json()) as { items: Record<string, unknown>[] };
    expect(search.items.map(frameOf)).toEqual(REPLAYED);
  });

  it('answers 422 for replay_json that is no JSON or no trajectory', async () => {
    await start();
    const broken = await post('/api/conversations', { replay_json: '[{' });
    expect(broken.status).toBe(422);
    expect(((await broken.json()) as { detail: { type: string; loc: unknown[] }[] }).detail[0]).toMatchObject({
      type: 'json_invalid',
      loc: ['body', 'replay_json'],
    });
    const notEvents = await post('/api/conversations', { replay_json: '[{"id": 1}]' });
    expect(notEvents.status).toBe(422);
    expect(((await notEvents.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'replay_json', 0]);
  });
});
