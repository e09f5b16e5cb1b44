/**
 * What the fake emits is what its document says: every event the showcase publishes (a user
 * message containing `showcase`, `domain/agent/showcase.ts`) validates under its kind's schema
 * (`schemas/sdk-events.ts`: the fields, types, enums and required fields of the SDK's models,
 * openhands-sdk `openhands/sdk/event/`, and of the tools' actions and observations), read from
 * the events search of the agent server and of the app server.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { createFake } from '../../src/index.js';
import { AgentEventSchemas, STATE_VALUE_SCHEMAS } from '../../src/schemas/agent-events.js';

const APP = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
type Json = Record<string, unknown>;

let log: Json[] = [];
let appLog: Json[] = [];

beforeAll(async () => {
  const fake = await createFake({
    baseUrl: APP,
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    clock: 'manual',
    timings: 'instant',
    checkResponses: true,
  });
  const json = async (url: string, init: RequestInit = {}) => (await fake.fetch(new Request(url, init))).json() as Promise<Json>;
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
  await json(`${AGENT}/api/conversations/${conversation!.id}/events`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'Please run the showcase' }], run: true }),
  });
  fake.clock.advance(1000);
  const search = `/events/search?limit=100&sort_order=TIMESTAMP`;
  log = ((await json(`${AGENT}/api/conversations/${conversation!.id}${search}`, { headers })).items ?? []) as Json[];
  appLog = ((await json(`${APP}/api/v1/conversation/${conversation!.id}${search}`)).items ?? []) as Json[];
}, 60_000);

/** The problems of `event` under its kind's schema, strictly: no field the schema does not name. */
function problems(event: Json): string[] {
  const schema = (AgentEventSchemas as Record<string, z.ZodMiniType>)[String(event.kind)];
  if (!schema) return [`${String(event.kind)}: no schema`];
  const result = schema.safeParse(event);
  const issues = result.success ? [] : result.error.issues.map((i) => `${String(event.kind)} ${i.path.join('.')}: ${i.message}`);
  // A field the schema does not name would pass z.object (it strips): compare the keys too.
  const parsed = result.success ? (result.data as Json) : {};
  const extra = result.success ? Object.keys(event).filter((key) => !(key in parsed)) : [];
  return [...issues, ...extra.map((key) => `${String(event.kind)} ${key}: not in the schema`)];
}

describe('GET /api/conversations/{id}/events/search after the showcase', () => {
  it('publishes many kinds, each event under its own schema with every required field and no other', () => {
    expect(log.length).toBeGreaterThan(30);
    expect(new Set(log.map((e) => e.kind)).size).toBeGreaterThanOrEqual(15);
    expect(log.flatMap(problems)).toEqual([]);
  });

  it("holds the tools Agent Canvas renders (client tools, vision, the whole browser set) and a stats value under its key's schema", () => {
    const inner = new Set(log.map((e) => String(((e.action ?? e.observation) as Json | undefined)?.kind)));
    for (const kind of [
      'ClientAction_canvas_ui_control',
      'ClientAction_open_settings',
      'ClientToolObservation',
      'VisionInspectObservation',
      'BrowserListTabsAction',
    ])
      expect(inner.has(kind), kind).toBe(true);
    const stats = log.find((e) => e.kind === 'ConversationStateUpdateEvent' && e.key === 'stats')!;
    expect(STATE_VALUE_SCHEMAS.stats.safeParse(stats.value).success).toBe(true);
    expect(Object.keys((stats.value as { usage_to_metrics: Json }).usage_to_metrics)).toEqual([
      'agent',
      'vision-profile:vision',
      'default',
    ]);
    // The check can fail: a snapshot without its token usage.
    const agent = (stats.value as { usage_to_metrics: { agent: Json } }).usage_to_metrics.agent;
    const { accumulated_token_usage: _dropped, ...broken } = agent;
    expect(STATE_VALUE_SCHEMAS.stats.safeParse({ usage_to_metrics: { agent: broken } }).success).toBe(false);
  });

  it('refuses an event without a required field (the check can fail): an ActionEvent without tool_call', () => {
    const action = log.find((e) => e.kind === 'ActionEvent')!;
    const { tool_call: _dropped, ...withoutToolCall } = action;
    expect(problems(withoutToolCall)).toEqual(['ActionEvent tool_call: Invalid input: expected object, received undefined']);
  });
});

describe('GET /api/v1/conversation/{id}/events/search after the showcase', () => {
  it('serves the same events, each under its own schema', () => {
    expect(appLog.map((e) => e.id)).toEqual(log.map((e) => e.id));
    expect(appLog.flatMap(problems)).toEqual([]);
  });
});
