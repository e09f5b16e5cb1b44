/**
 * Work that stays proportional to what a request asks for: a streamed message's tokens, a fork's
 * events, a replay's count check. Each test counts what the fake does or holds (entries, parses,
 * items checked), never how long it takes: the figures at full scale are in bench/reliability.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createFake, type Fake } from '../../src/index.js';
import { startFakeServers } from '../../src/server.js';
import { DomainState, type SavedIndexes } from '../../src/domain/store/state.js';
import { Table } from '../../src/domain/store/table.js';
import { V0Trajectory } from '../../src/schemas/replay.js';
import { listLongerThan } from '../../src/domain/agent/json-list.js';
import { verifyMessages } from '../../src/pact/messages.js';
import { MAX_PROVIDER_ANSWER_BYTES } from '../../src/pact/answer-text.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Calls the in-process fake and reads its JSON answer. */
async function call(fake: Fake, url: string, method = 'GET', body?: unknown) {
  const response = await fake.fetch(
    new Request(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('POST /_fakehands/clock past a streamed message', () => {
  it('holds a message of 20,000 tokens as one stream entry: what each request copies to roll back stays 3 entries, not one per token', async () => {
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', streaming: true });
    const text = Array.from({ length: 20_000 }, (_, i) => `w${i % 10}`).join(' ');
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
    const replayed = await call(fake, `${APP}/_fakehands/replay`, 'POST', { events });
    expect(replayed.status).toBe(201);
    expect((await call(fake, `${APP}/_fakehands/clock`, 'POST', { advance_ms: 5_000 })).status).toBe(200);

    const saved: (SavedIndexes | null)[] = [];
    const save = DomainState.prototype.saveIndexes;
    vi.spyOn(DomainState.prototype, 'saveIndexes').mockImplementation(function (this: DomainState) {
      const indexes = save.call(this);
      saved.push(indexes);
      return indexes;
    });
    expect((await call(fake, `${APP}/api/v1/sandboxes/search`)).status).toBe(200);
    // The stream (its next token), the agent's message, the replay's last step.
    expect(saved.at(-1)?.timelines.map(([, entries]) => entries.length)).toEqual([3]);

    // Past the stream's end (20,000 tokens at 50 a second): the message is stored, nothing is held.
    expect((await call(fake, `${APP}/_fakehands/clock`, 'POST', { advance_ms: 500_000 })).status).toBe(200);
    const id = String((replayed.body as { conversation_id?: string; id?: string }).conversation_id ?? replayed.body.id);
    const page = await call(fake, `${AGENT}/api/conversations/${id}/events/search?limit=100`);
    const agent = (page.body.items as { source: string; llm_message?: { content: { text: string }[] } }[]).filter(
      (e) => e.source === 'agent',
    );
    expect(agent.at(-1)?.llm_message?.content[0]?.text).toBe(text);
    saved.length = 0;
    await call(fake, `${APP}/api/v1/sandboxes/search`);
    expect(saved.at(-1)).toBeNull();
  });
});

describe('/sockets/events/{conversation_id} while the clock moves past a streamed message', () => {
  it('sends every one of 40,000 deltas in order, then the message, and keeps the socket open (6 MB of frames at once is no slow reader)', async () => {
    const servers = await startFakeServers({
      fake: { fixture: 'empty', auth: 'none', timings: 'instant', clock: 'manual', streaming: true },
      server: { maxBodyBytes: 8 * 1024 * 1024 },
    });
    try {
      const text = Array.from({ length: 40_000 }, (_, i) => `w${i % 10}`).join(' ');
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
      const post = (path: string, body: unknown) =>
        fetch(`${servers.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const replayed = (await (await post('/_fakehands/replay', { events })).json()) as { conversation_id: string };
      const ws = new WebSocket(`${servers.agentUrl.replace('http', 'ws')}/sockets/events/${replayed.conversation_id}`);
      const deltas: string[] = [];
      let closed: number | null = null;
      const ended = new Promise<void>((resolve) => {
        ws.on('message', (data) => {
          const frame = JSON.parse(String(data)) as { kind: string; content?: string; source?: string };
          if (frame.kind === 'StreamingDeltaEvent') deltas.push(frame.content!);
          if (frame.kind === 'MessageEvent' && frame.source === 'agent') resolve();
        });
        ws.on('close', (code) => {
          closed = code;
          resolve();
        });
      });
      await new Promise((resolve) => ws.once('open', resolve));
      expect((await post('/_fakehands/clock', { advance_ms: 1_000_000 })).status).toBe(200);
      await ended;
      expect(closed).toBeNull();
      expect(deltas).toHaveLength(40_000);
      expect(deltas.join('')).toBe(text);
      ws.close();
    } finally {
      await servers.close();
    }
  }, 60_000);
});

/** A replayed conversation of `count` messages, all stored: its id. */
async function conversationOf(fake: Fake, count: number): Promise<string> {
  const events = Array.from({ length: count }, (_, i) => ({
    kind: 'MessageEvent',
    id: `e${i}`,
    timestamp: '2026-12-02T08:00:00',
    source: i % 2 ? 'agent' : 'user',
    llm_message: { role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `message ${i}` }] },
  }));
  const replayed = await call(fake, `${APP}/_fakehands/replay`, 'POST', { events, speed: 'instant' });
  expect(replayed.status).toBe(201);
  await call(fake, `${APP}/_fakehands/clock`, 'POST', { advance_ms: 1_000 });
  return String(replayed.body.conversation_id);
}

describe('POST /api/conversations/{id}/fork (conversation_router.py, fork_conversation)', () => {
  it('copies 2,000 events without validating any again, stamped at the fork (after every stored event, not sorted in among them), its parents renamed', async () => {
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'instant' });
    const id = await conversationOf(fake, 2_000);
    const source = await call(fake, `${AGENT}/api/conversations/${id}`);
    const before = (await fake.snapshot()).events.length;
    const inserts = vi.spyOn(Table.prototype, 'insert');
    const reads = vi.spyOn(Table.prototype, 'get');
    const forked = await call(fake, `${AGENT}/api/conversations/${id}/fork`, 'POST', {});
    expect(forked.status).toBe(201);
    expect(inserts.mock.calls.filter(([record]) => (record as { event?: unknown }).event !== undefined)).toHaveLength(0);
    // Each source event read a bounded number of times to be copied (its path to the root, then its copy); not once per copy made.
    expect(reads.mock.calls.length).toBeLessThan(6_100);
    // A fork starts with empty statistics, as on the real agent server 1.58.2 (its copied agent not yet made ready).
    expect(source.body.stats).not.toEqual({ usage_to_metrics: {} });
    expect(forked.body.stats).toEqual({ usage_to_metrics: {} });

    const events = (await fake.snapshot()).events;
    const fork = String(forked.body.id).replaceAll('-', '');
    const ofFork = events.map((e, i) => [i, e.conversation_id.replaceAll('-', '')] as const).filter(([, c]) => c === fork);
    // Every event of the source up to its last (2,000 messages and the replay's state updates), after all of them.
    expect(ofFork.length).toBe(events.length - before);
    expect(ofFork.length).toBeGreaterThanOrEqual(2_000);
    expect(ofFork[0]![0]).toBe(before);
    // In the source's order, each naming as its parent an event copied before it (renamed), or none.
    const page = await call(fake, `${AGENT}/api/conversations/${fork}/events/search?limit=100`);
    const items = page.body.items as { id: string; parent_id?: string | null; llm_message?: { content: { text: string }[] } }[];
    expect(
      items
        .filter((e) => e.llm_message)
        .map((e) => e.llm_message!.content[0]!.text)
        .slice(0, 3),
    ).toEqual(['message 0', 'message 1', 'message 2']);
    const seen = new Set<string>();
    for (const item of items) {
      if (item.parent_id != null) expect(seen.has(item.parent_id)).toBe(true);
      seen.add(item.id);
    }
    expect(items.filter((item) => item.parent_id != null).length).toBeGreaterThan(items.length / 2);
  });
});

describe('POST /api/conversations with replay_json (legacy)', () => {
  it('refuses a trajectory of 330,000 items with the count 422 before parsing or checking any of them', async () => {
    const fake = await createFake({ baseUrl: APP, agentUrl: AGENT, auth: 'none', fixture: 'empty', clock: 'manual', timings: 'instant' });
    const replayJson = JSON.stringify(Array.from({ length: 330_000 }, () => ({})));
    const checks = vi.spyOn(V0Trajectory, 'safeParse');
    const parses = vi.spyOn(JSON, 'parse');
    const answer = await call(fake, `${APP}/api/conversations`, 'POST', { replay_json: replayJson });
    expect(answer).toEqual({
      status: 422,
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'replay_json'],
            msg: 'Value error, Too big: expected array to have <=10000 items',
            input: null,
            ctx: { error: {} },
          },
        ],
      },
    });
    expect(checks).not.toHaveBeenCalled();
    // Counted on its text: the 330,000 items were never parsed.
    expect(parses.mock.calls.filter(([text]) => text === replayJson)).toHaveLength(0);
    expect((await fake.snapshot()).conversations).toHaveLength(0);
  });
});

describe('listLongerThan (a replay_json counted on its text)', () => {
  it('counts the items of the outermost list only, never a comma or bracket inside a string or a nested value', () => {
    expect(listLongerThan('[1, 2, 3]', 2)).toBe(true);
    expect(listLongerThan(' [1,2] ', 2)).toBe(false);
    expect(listLongerThan('[]', 0)).toBe(false);
    expect(listLongerThan('[{"a": [1, 2, 3], "b": "x,y]"}, "\\",]"]', 2)).toBe(false);
    expect(listLongerThan('{"a": [1, 2, 3]}', 1)).toBe(false);
  });
});

describe('fakehands verify --messages against a provider whose answer never ends', () => {
  it('stops reading the create answer past MAX_PROVIDER_ANSWER_BYTES and fails naming the route and the cap', async () => {
    // A provider (127.0.0.1) whose conversation create answers 200 and then writes for as long as it is read.
    let written = 0;
    const provider = createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!response.destroyed && written < 8 * MAX_PROVIDER_ANSWER_BYTES) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      response.write('[');
      more();
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    try {
      const verified = verifyMessages({ baseUrl: url, apiKey: '', files: [], report: () => undefined, timeoutMs: 30_000 });
      await expect(verified).rejects.toMatchObject({
        code: 'contract_violation',
        message: `POST /api/v1/app-conversations: the provider's answer is larger than ${MAX_PROVIDER_ANSWER_BYTES} bytes (16 MiB), the most fakehands verify --messages reads of one answer; it stopped reading there`,
      });
      // What was written before the read stopped: the cap and what the connection's buffers held.
      expect(written).toBeLessThan(4 * MAX_PROVIDER_ANSWER_BYTES);
    } finally {
      provider.closeAllConnections();
      await new Promise((resolve) => provider.close(resolve));
    }
  }, 30_000);
});
