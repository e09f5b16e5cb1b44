/**
 * Records the domain builds itself are stored without a second parse (`Table.insertValidated`:
 * a conversation created on the agent host, every event `storeEvent` publishes). These tests hold
 * that shortcut to what the parse gave: each such record is already what its schema writes (the
 * same JSON text, key for key), the state loads again, and the store budget counts it as before
 * (`sizeOf`, from one JSON text, is the sum of its fields' weights). What a client or a fixture
 * sends still goes through the schema (`round-four-data.test.ts`, finding 3).
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';
import { AgentEventRecord, ConversationRecord } from '../../src/schemas/records.js';
import { fieldWeight, sizeOf } from '../../src/domain/store/budget.js';
import { constantEventSize } from '../../src/domain/agent/store-event.js';
import { SYSTEM_PROMPT } from '../../src/domain/agent/system-prompt.js';

const BASE = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';

async function post(fake: FakeCore, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fake.fetch(
    new Request(`${AGENT}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The budget weight of a record counted field by field, as `sizeOf` counted it before. */
const fieldByField = (record: object) => Object.entries(record).reduce((size, [key, value]) => size + fieldWeight(key, value), 2);

describe('POST /api/conversations on the agent host: the records it stores', () => {
  it('stores the conversation and its events exactly as their schemas write them, and the state loads again', async () => {
    const fake = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });
    const plain = await post(fake, '/api/conversations', {
      agent: { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [] },
      workspace: { kind: 'LocalWorkspace', working_dir: '/home/openhands/workspace' },
    });
    expect(plain.status).toBe(201);
    const full = await post(fake, '/api/conversations', {
      agent: { kind: 'ACPAgent', llm: { model: 'openai/gpt-5-mini-2025-08-07', stream: true } },
      workspace: { working_dir: '/workspace/project' },
      parent_conversation_id: plain.body.id,
      confirmation_policy: { kind: 'AlwaysConfirm' },
      security_analyzer: { kind: 'LLMSecurityAnalyzer' },
      secrets: { GITHUB_TOKEN: 'ghp_never_kept', NPM: { kind: 'StaticSecret', value: 'x' } },
      tags: { team: 'core', ticket: '42' },
      max_iterations: 7,
      stuck_detection: false,
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the "retry" bug' }], run: true },
    });
    expect(full.status).toBe(201);
    fake.clock.advance(60_000);
    const snapshot = await fake.snapshot();
    expect(snapshot.conversations).toHaveLength(2);
    expect(snapshot.events.length).toBeGreaterThan(3);
    // Field for field (an update since, the run's, appends the keys it adds: as it always did).
    for (const conversation of snapshot.conversations) {
      expect(conversation).toEqual(ConversationRecord.parse(conversation));
      expect(sizeOf(conversation)).toBe(fieldByField(conversation));
    }
    for (const event of snapshot.events) {
      expect(JSON.stringify(event)).toBe(JSON.stringify(AgentEventRecord.parse(event)));
      expect(sizeOf(event)).toBe(fieldByField(event));
    }
    const again = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: snapshot, timings: 'instant' });
    const reloaded = await again.snapshot();
    expect(reloaded.conversations.map((c) => [c.id, c.agent_host])).toEqual(snapshot.conversations.map((c) => [c.id, c.agent_host]));
    expect(reloaded.events).toHaveLength(snapshot.events.length);
  });

  it('writes a new conversation key for key in the order its schema writes it (a state file reads the same as before)', async () => {
    const fake = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });
    const created = await post(fake, '/api/conversations', {
      agent: { kind: 'Agent', llm: { model: 'm' } },
      workspace: { working_dir: '/w' },
      confirmation_policy: { kind: 'AlwaysConfirm' },
    });
    expect(created.status).toBe(201);
    const [conversation] = (await fake.snapshot()).conversations;
    expect(JSON.stringify(conversation)).toBe(JSON.stringify(ConversationRecord.parse(conversation)));
    expect(conversation!.agent_host).toMatchObject({ created_here: true, agent_kind: 'Agent', working_dir: '/w', max_iterations: 500 });
    expect(conversation!.llm_model).toBe('m');
  });
});

describe('sizeOf', () => {
  it('is the sum of the weights of the fields JSON writes (none: 2; an absent value: nothing)', () => {
    for (const record of [
      {},
      { a: undefined },
      { a: undefined, b: [] },
      { id: 'x', nested: { list: [1, { deep: null }], text: 'quote " and é\n' }, gone: undefined, map: { 'k"ey': 'v' } },
    ])
      expect(sizeOf(record)).toBe(fieldByField(record));
  });
});

describe('constantEventSize', () => {
  it('weighs an event record of constant fields as sizeOf does (the system prompt of each conversation, weighed once)', async () => {
    const fake = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });
    // The system prompt is published at the first message (local_conversation.py, _ensure_agent_ready).
    const initial_message = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
    expect(
      (
        await post(fake, '/api/conversations', {
          agent: { kind: 'Agent', llm: { model: 'm' } },
          workspace: { working_dir: '/w' },
          initial_message,
        })
      ).status,
    ).toBe(201);
    const [prompt] = (await fake.snapshot()).events;
    expect(prompt!.event.kind).toBe(SYSTEM_PROMPT.kind);
    expect(constantEventSize(prompt!, SYSTEM_PROMPT)).toBe(sizeOf(prompt!));
    const record = (fields: object) => ({ ...prompt!, event: { id: prompt!.id, timestamp: 'é"\n', ...fields } });
    for (const fields of [{}, { kind: 'X', list: [1, { deep: null }, []], gone: undefined }, { quote: 'a "b"\n', map: { 'k"': {} } }])
      expect(constantEventSize(record(fields), Object.freeze(fields))).toBe(sizeOf(record(fields)));
  });
});
