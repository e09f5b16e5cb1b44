/**
 * What a run's LLM calls cost (issue 32), shown where the real servers show it: the agent server's
 * `ConversationInfo.stats` (openhands-agent-server `models.py`, `ConversationInfo.stats`: whole
 * `Metrics` per usage id), the socket's `full_state` (openhands-sdk `event/conversation_state.py`,
 * `from_conversation_state`: `model_dump(exclude_none=True)`), a `stats` state update (its
 * `validate_value`: snapshots; `event_service.py`, `_setup_stats_streaming`) and the app server's
 * `metrics` (OpenHands `app_conversation_models.py`, `AppConversation.metrics`: a `MetricsSnapshot`).
 * The arithmetic is `llm/utils/metrics.py`'s (`add_cost`, `add_token_usage`: `per_turn_token` is
 * prompt + completion, `context_window` the largest; `merge`). Agent Canvas reads what this checks:
 * `stats.usage_to_metrics[*].accumulated_cost`, `max_budget_per_task` and the
 * `accumulated_token_usage` counts (1.20 `dist/utils/conversation-metrics.js`, `combineUsageMetrics`;
 * `dist/contexts/conversation-websocket-context.js` for the `stats` key), and an app conversation's
 * `metrics` (`dist/api/agent-server-adapter.js`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createFake, type FakeOptionsInput } from '../../src/index.js';
import { openSocket, serve, startConversation } from './support.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
const MODEL = 'litellm_proxy/anthropic/claude-sonnet-4-5-20250929';
type Json = Record<string, unknown>;
type Metrics = {
  model_name: string;
  accumulated_cost: number;
  max_budget_per_task: number | null;
  accumulated_token_usage: Json & { prompt_tokens: number; completion_tokens: number };
  costs: { cost: number; model: string; timestamp: number }[];
  response_latencies: { latency: number; response_id: string }[];
  token_usages: (Json & { prompt_tokens: number; completion_tokens: number; response_id: string })[];
};

const SCRIPTS: FakeOptionsInput['agentScripts'] = [
  { match: 'stats:hello', steps: [{ message: 'Hello there.' }, { stats: true }] },
  { match: 'stats:tokens', steps: [{ tokens: { prompt: [1, 2, 3], response: [4, 5] } }] },
  { match: 'stats:log', steps: [{ llm_log: { model: 'openai/gpt-4o', usage_id: 'title' } }] },
  { match: 'stats:condense', steps: [{ message: 'one' }, { condense: { summary: 'Said one.' } }] },
  {
    match: 'stats:vision',
    steps: [{ vision_inspect: { question: 'What is it?', profile: 'eyes', model: 'gpt-4o-mini', answer: 'A cat.' } }],
  },
];

let fake: Awaited<ReturnType<typeof createFake>>;
let json: (url: string, init?: RequestInit) => Promise<Json>;

/** A new conversation (no first message) that ran `text`; its agent-server id, key and log. */
async function ran(text: string): Promise<{ id: string; headers: Record<string, string>; log: Json[]; info: Json }> {
  const task = await json(`${APP}/api/v1/app-conversations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  fake.clock.advance(60_000);
  const [ready] = (await json(`${APP}/api/v1/app-conversations/start-tasks?ids=${task.id}`)) as unknown as {
    app_conversation_id: string;
  }[];
  const [conversation] = (await json(`${APP}/api/v1/app-conversations?ids=${ready!.app_conversation_id}`)) as unknown as {
    id: string;
    session_api_key: string;
  }[];
  const headers = { 'x-session-api-key': conversation!.session_api_key, 'content-type': 'application/json' };
  const base = `${AGENT}/api/conversations/${conversation!.id}`;
  await json(`${base}/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: true }),
  });
  fake.clock.advance(1000);
  const log = ((await json(`${base}/events/search?limit=100&sort_order=TIMESTAMP`, { headers })).items ?? []) as Json[];
  return { id: conversation!.id, headers, log, info: await json(base, { headers }) };
}
const usage = (info: Json) => (info.stats as { usage_to_metrics: Record<string, Metrics> }).usage_to_metrics;

beforeAll(async () => {
  fake = await createFake({
    baseUrl: APP,
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    clock: 'manual',
    timings: 'instant',
    checkResponses: true,
    agentScripts: SCRIPTS,
  });
  json = async (url, init = {}) => (await fake.fetch(new Request(url, init))).json() as Promise<Json>;
}, 60_000);

describe('GET /api/conversations/{id}: stats', () => {
  it("counts the agent's answer as one call of its usage id, with Metrics' arithmetic (the numbers are the fake's, fixed)", async () => {
    const { log, info } = await ran('stats:hello');
    const answer = log.find((e) => e.kind === 'MessageEvent' && e.source === 'agent')!;
    // The answer is the log's fifth event (system prompt, message, its last_user_message_id, running); the state update is not
    // in prompts, so its prompt is 1,800 + 3 × 120 tokens; "Hello there." is 3.
    expect(log.indexOf(answer)).toBe(4);
    expect(Object.keys(usage(info))).toEqual(['agent']);
    const agent = usage(info).agent!;
    const tokens = {
      model: MODEL,
      prompt_tokens: 2160,
      completion_tokens: 3,
      cache_read_tokens: 0,
      cache_write_tokens: 2160,
      reasoning_tokens: 0,
      context_window: 200_000,
      per_turn_token: 2163,
    };
    expect(agent).toEqual({
      model_name: MODEL,
      accumulated_cost: 0.006525,
      max_budget_per_task: null,
      accumulated_token_usage: { ...tokens, response_id: '' },
      costs: [{ model: MODEL, cost: 0.006525, timestamp: Date.parse(`${String(answer.timestamp)}Z`) / 1000 }],
      response_latencies: [{ model: MODEL, latency: 0.395, response_id: `resp_${String(answer.id)}` }],
      token_usages: [{ ...tokens, response_id: `resp_${String(answer.id)}` }],
    });
  });

  it("agrees with a TokenEvent: its prompt and response token ids are the call's prompt and completion tokens", async () => {
    const { log, info } = await ran('stats:tokens');
    const event = log.find((e) => e.kind === 'TokenEvent')!;
    expect(usage(info).agent!.token_usages).toEqual([
      expect.objectContaining({
        prompt_tokens: (event.prompt_token_ids as number[]).length,
        completion_tokens: (event.response_token_ids as number[]).length,
        response_id: `resp_${String(event.id)}`,
      }),
    ]);
    expect(usage(info).agent!.accumulated_token_usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 2, per_turn_token: 5 });
  });

  it("agrees with an LLMCompletionLogEvent: the usage its log data records, under the log's usage id and model", async () => {
    const { log, info } = await ran('stats:log');
    const event = log.find((e) => e.kind === 'LLMCompletionLogEvent')!;
    const logged = (JSON.parse(String(event.log_data)) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
    // The agent's own LLM is there from the start, without a call (ConversationStats.register_llm).
    expect(Object.keys(usage(info))).toEqual(['agent', 'title']);
    expect(usage(info).agent).toMatchObject({
      accumulated_cost: 0,
      costs: [],
      token_usages: [],
      accumulated_token_usage: { prompt_tokens: 0 },
    });
    expect(usage(info).title).toMatchObject({
      model_name: 'openai/gpt-4o',
      accumulated_token_usage: { model: 'openai/gpt-4o', prompt_tokens: logged.prompt_tokens, completion_tokens: logged.completion_tokens },
      token_usages: [expect.objectContaining({ prompt_tokens: 1200, completion_tokens: 80 })],
    });
  });

  it('keeps one Metrics per usage id: the condenser, and a vision profile (vision_inspect.py: usage id vision-profile:<name>)', async () => {
    const condensed = await ran('stats:condense');
    expect(Object.keys(usage(condensed.info))).toEqual(['agent', 'condenser']);
    expect(usage(condensed.info).condenser!.token_usages).toHaveLength(1);
    const vision = await ran('stats:vision');
    expect(Object.keys(usage(vision.info))).toEqual(['agent', 'vision-profile:eyes']);
    expect(usage(vision.info)['vision-profile:eyes']).toMatchObject({
      model_name: 'gpt-4o-mini',
      token_usages: [{ completion_tokens: 2 }],
    });
  });
});

describe('the stats step: a ConversationStateUpdateEvent of key stats', () => {
  it("publishes each usage id's snapshot so far: the totals without the call lists", async () => {
    const { log, info } = await ran('stats:hello');
    const update = log.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'stats')!;
    const { costs: _c, response_latencies: _l, token_usages: _t, ...snapshot } = usage(info).agent!;
    expect(update.value).toEqual({ usage_to_metrics: { agent: snapshot } });
    expect(snapshot).toMatchObject({ accumulated_cost: 0.006525, max_budget_per_task: null });
  });
});

describe('GET /api/v1/app-conversations: metrics', () => {
  it("are every usage id's totals together (get_combined_metrics), under the conversation's model", async () => {
    const { id, info } = await ran('stats:condense');
    const [conversation] = (await json(`${APP}/api/v1/app-conversations?ids=${id}`)) as unknown as { metrics: Json }[];
    const all = Object.values(usage(info));
    const sum = (pick: (m: Metrics) => number) => all.reduce((total, m) => total + pick(m), 0);
    expect(conversation!.metrics).toMatchObject({
      model_name: 'default',
      max_budget_per_task: null,
      accumulated_token_usage: {
        model: 'default',
        prompt_tokens: sum((m) => m.accumulated_token_usage.prompt_tokens),
        completion_tokens: sum((m) => m.accumulated_token_usage.completion_tokens),
      },
    });
    expect(conversation!.metrics.accumulated_cost).toBeCloseTo(
      sum((m) => m.accumulated_cost),
      9,
    );
    expect(all).toHaveLength(2);
  });

  it('are read off the log of a state loaded with its events (a fixture saved from another fake), not estimated', async () => {
    const { id } = await ran('stats:condense');
    const [before] = (await json(`${APP}/api/v1/app-conversations?ids=${id}`)) as unknown as { metrics: Json }[];
    // A fresh fake whose store holds events before any step: the runner reads them with the agent's module (issue 30).
    const again = await createFake({ baseUrl: APP, auth: 'none', fixture: await fake.snapshot(), clock: 'manual', timings: 'instant' });
    const [after] = (await (await again.fetch(new Request(`${APP}/api/v1/app-conversations?ids=${id}`))).json()) as { metrics: Json }[];
    expect(after!.metrics).toEqual(before!.metrics);
  });
});

describe('/sockets/events/{id}: the full_state', () => {
  it('carries the stats as ConversationInfo has them, whole Metrics with None fields left out', async () => {
    const cli = await serve(['--timings', 'instant']);
    const conversation = await startConversation(cli);
    const socket = openSocket(cli.agentUrl, conversation.id, `session_api_key=${conversation.session_api_key}`);
    const [first] = await socket.received(1);
    socket.ws.close();
    const info = (await (
      await fetch(`${cli.agentUrl}/api/conversations/${conversation.id}`, {
        headers: { 'x-session-api-key': conversation.session_api_key },
      })
    ).json()) as Json;
    const { max_budget_per_task, ...agent } = usage(info).agent!;
    expect(max_budget_per_task).toBeNull();
    // The built-in run: a terminal command, the file edit and the answer are three calls.
    expect(agent.token_usages).toHaveLength(3);
    expect((first!.value as Json).stats).toEqual({ usage_to_metrics: { agent } });
  });
});
