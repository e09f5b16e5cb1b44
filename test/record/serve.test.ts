/**
 * A recording served: `createFake({ recording })` and `fakehands serve --from-recording DIR` seed
 * the fake from what `fakehands record` wrote, so the conversation list, each conversation's events
 * and a socket's resend come up as recorded (the same ids and times), and from there the fake
 * behaves as itself (a new message runs its agent).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startFakeServers, type FakeServers } from '../../src/server/start.js';
import { runCli, startCli } from '../support/cli.js';
import { harOf, jsonHeaders, recordInto, runConversation, socketFrames, startTarget } from './support.js';

let out: string;
/** What the target answered, as recorded: the conversation list, one conversation's events, its socket's resend. */
let recorded: { list: unknown; events: { items: { id: string }[] }; frames: string[]; id: string };

beforeAll(async () => {
  const target = await startTarget();
  const recording = await recordInto(target.agentUrl);
  out = recording.out;
  const url = recording.recorder.url;
  const id = await runConversation(url);
  const list = await (await fetch(`${url}/api/conversations/search`, { headers: jsonHeaders() })).json();
  const events = (await (await fetch(`${url}/api/conversations/${id}/events/search?limit=100`, { headers: jsonHeaders() })).json()) as {
    items: { id: string }[];
  };
  const { frames } = await socketFrames(
    `${url.replace(/^http/, 'ws')}/sockets/events/${id}?session_api_key=fakehands-dev-key&resend_mode=all`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  await recording.recorder.close();
  await target.close();
  recorded = { list, events, frames, id };
});

describe('createFake({ recording })', () => {
  it("lists the recorded conversations as the server answered, and each one's events with their ids and times", async () => {
    const fake = await createFake({ recording: out, agentUrl: 'http://agent.test', auth: 'none', timings: 'instant' });
    const list = await (await fake.fetch(new Request('http://agent.test/api/conversations/search', { headers: jsonHeaders() }))).json();
    expect(list).toEqual(recorded.list);
    const events = await (
      await fake.fetch(
        new Request(`http://agent.test/api/conversations/${recorded.id}/events/search?limit=100`, { headers: jsonHeaders() }),
      )
    ).json();
    expect(events).toEqual(recorded.events);
    expect(recorded.events.items.length).toBeGreaterThan(5);
  });

  it('takes a recording already parsed, with its HAR alone', async () => {
    const fake = await createFake({ recording: { har: await harOf(out) }, agentUrl: 'http://agent.test', auth: 'none' });
    const events = (await (
      await fake.fetch(
        new Request(`http://agent.test/api/conversations/${recorded.id}/events/search?limit=100`, { headers: jsonHeaders() }),
      )
    ).json()) as { items: { id: string }[] };
    // The HAR holds the events search the client made and the socket's frames: the same log.
    expect(events.items.map((e) => e.id)).toEqual(recorded.events.items.map((e) => e.id));
  });

  it('refuses a fixture and a recording together, and a recording that is no HAR, naming the option', async () => {
    await expect(createFake({ recording: out, fixture: 'empty' })).rejects.toMatchObject({
      code: 'invalid_options',
      message:
        'Failed to create the fake: invalid options (recording: give a fixture or a recording, not both). See "Options" in the README.',
    });
    await expect(createFake({ recording: { har: { log: {} } as never } })).rejects.toMatchObject({
      code: 'invalid_options',
      message: 'invalid recording: no "log.entries" list',
    });
    await expect(createFake({ recording: '/no/such/recording' })).rejects.toMatchObject({
      code: 'invalid_options',
      message: 'invalid recording "/no/such/recording": no such file or folder',
    });
  });
});

describe('a served recording on its servers', () => {
  let servers: FakeServers;
  beforeAll(async () => {
    servers = await startFakeServers({ fake: { recording: out, auth: 'none', timings: 'instant' } });
  });
  afterAll(async () => {
    await servers.close();
  });

  it("resends a conversation's recorded frames on a socket as the server did (after the full state)", async () => {
    const { frames } = await socketFrames(`${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${recorded.id}?resend_mode=all`);
    expect(JSON.parse(frames[0]!).key).toBe('full_state');
    expect(frames.slice(1)).toEqual(recorded.frames.slice(1));
  });

  it('behaves as the fake from there: a new message runs the agent on the recorded conversation', async () => {
    const sent = await fetch(`${servers.agentUrl}/api/conversations/${recorded.id}/events`, {
      method: 'POST',
      headers: jsonHeaders(),
      body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Go on' }], run: true }),
    });
    expect(sent.status).toBe(200);
    let items: { id: string; kind: string; source: string }[] = [];
    for (let i = 0; i < 100; i++) {
      items = (
        (await (await fetch(`${servers.agentUrl}/api/conversations/${recorded.id}/events/search?limit=100`)).json()) as {
          items: typeof items;
        }
      ).items;
      if (items.length > recorded.events.items.length + 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(items.slice(0, recorded.events.items.length).map((e) => e.id)).toEqual(recorded.events.items.map((e) => e.id));
    expect(items.slice(recorded.events.items.length).map((e) => `${e.kind}:${e.source}`)).toContain('MessageEvent:user');
  });
});

describe('fakehands serve --from-recording', () => {
  it('says what it read in one line, and serves it', async () => {
    const cli = await startCli(['--agent-port', '0', '--auth', 'none', '--from-recording', out]);
    expect(cli.stdout()).toContain(`from recording ${out}: 1 conversation(s), ${recorded.events.items.length} event(s) from `);
    expect(cli.stdout()).toMatch(/; no other host\n/);
    const list = (await (await fetch(`${cli.agentUrl}/api/conversations/search`)).json()) as { items: { id: string }[] };
    expect(list.items.map((c) => c.id)).toEqual([recorded.id]);
  });

  it('refuses a missing recording, and a fixture beside it, in one line, exit 2', async () => {
    expect(await runCli(['serve', '--port', '0', '--from-recording', '/no/such/recording'])).toMatchObject({
      code: 2,
      stderr: 'fakehands: invalid --from-recording "/no/such/recording": no such file or folder (see fakehands serve --help)\n',
    });
    expect(await runCli(['serve', '--port', '0', '--fixture', 'empty', '--from-recording', out])).toMatchObject({
      code: 2,
      stderr: 'fakehands: --from-recording and --fixture both say what to start from: give one (see fakehands serve --help)\n',
    });
  });
});

describe('what the fake does not make from its records', () => {
  it("shows the recorded statistics and socket state until the conversation's log moves on", async () => {
    const har = await harOf(out);
    const stats = { usage_to_metrics: { default: { model_name: 'recorded-model', accumulated_cost: 0.25, costs: [], token_usages: [] } } };
    const state = { id: recorded.id, execution_status: 'finished', agent: { kind: 'Agent', llm: { model: 'recorded-model' } } };
    for (const entry of har.log.entries) {
      const body = entry.response.content.text;
      if (entry.request.url.includes('/api/conversations/search')) {
        const page = JSON.parse(body!) as { items: Record<string, unknown>[] };
        page.items[0]!.stats = stats;
        entry.response.content.text = JSON.stringify(page);
      }
      const first = entry._webSocketMessages?.find((m) => m.type === 'receive');
      if (first) first.data = JSON.stringify({ ...JSON.parse(first.data), value: state });
    }
    const servers = await startFakeServers({ fake: { recording: { har }, auth: 'none', timings: 'instant' } });
    try {
      const read = async () =>
        ((await (await fetch(`${servers.agentUrl}/api/conversations/${recorded.id}`)).json()) as { stats: unknown }).stats;
      expect(await read()).toEqual(stats);
      const { frames } = await socketFrames(`${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${recorded.id}`);
      expect(JSON.parse(frames[0]!)).toMatchObject({ kind: 'ConversationStateUpdateEvent', key: 'full_state', value: state });
      await fetch(`${servers.agentUrl}/api/conversations/${recorded.id}/events`, {
        method: 'POST',
        headers: jsonHeaders(),
        body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Go on' }], run: true }),
      });
      // The log moved on: the fake's own statistics and state, read from its records.
      const own = (await read()) as { usage_to_metrics: Record<string, { model_name: string; accumulated_cost: number }> };
      expect(Object.keys(own.usage_to_metrics)).toEqual(['default']);
      expect(own.usage_to_metrics.default!.model_name).not.toBe('recorded-model');
      const after = await socketFrames(`${servers.agentUrl.replace(/^http/, 'ws')}/sockets/events/${recorded.id}`);
      expect(JSON.parse(after.frames[0]!).value.agent.llm.model).not.toBe('recorded-model');
    } finally {
      await servers.close();
    }
  });
});

describe('a recording of the app server', () => {
  it('serves its conversations, sandboxes, settings and secret names (never a value)', async () => {
    const target = await startTarget({ fixture: 'default' });
    const recording = await recordInto(target.url);
    const url = recording.recorder.url;
    const json = { 'content-type': 'application/json' };
    await fetch(`${url}/api/v1/settings`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ language: 'fr', llm_api_key: 'sk-app-marker-9f1' }),
    });
    await fetch(`${url}/api/secrets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'DEPLOY_KEY', value: 'value-marker-77b', description: 'deploys' }),
    });
    const answered = {
      conversations: (await (await fetch(`${url}/api/v1/app-conversations/search?limit=100`)).json()) as {
        items: Record<string, unknown>[];
      },
      sandboxes: (await (await fetch(`${url}/api/v1/sandboxes/search?limit=100`)).json()) as { items: Record<string, unknown>[] },
      settings: (await (await fetch(`${url}/api/v1/settings`)).json()) as Record<string, unknown>,
      secrets: await (await fetch(`${url}/api/secrets`)).json(),
    };
    await recording.recorder.close();
    await target.close();
    const fake = await createFake({ recording: recording.out, auth: 'none' });
    const get = async (path: string) =>
      (await fake.fetch(new Request(`http://localhost:3000${path}`))).json() as Promise<Record<string, unknown>>;
    const shown = (c: Record<string, unknown>) => [
      c.id,
      c.title,
      c.sandbox_id,
      c.sandbox_status,
      c.selected_repository,
      c.created_at,
      c.updated_at,
    ];
    expect(((await get('/api/v1/app-conversations/search?limit=100')) as typeof answered.conversations).items.map(shown)).toEqual(
      answered.conversations.items.map(shown),
    );
    const sandbox = (s: Record<string, unknown>) => [s.id, s.status, s.sandbox_spec_id, s.created_at];
    expect(((await get('/api/v1/sandboxes/search?limit=100')) as typeof answered.sandboxes).items.map(sandbox)).toEqual(
      answered.sandboxes.items.map(sandbox),
    );
    const settings = await get('/api/v1/settings');
    expect([settings.language, settings.llm_api_key_set]).toEqual(['fr', true]);
    expect(await get('/api/secrets')).toEqual(answered.secrets);
    const snapshot = JSON.stringify(await fake.snapshot());
    expect(snapshot).not.toContain('sk-app-marker-9f1');
    expect(snapshot).not.toContain('value-marker-77b');
  });
});
