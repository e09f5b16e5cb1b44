/**
 * The store budget's weight of a record (`sizeOf`, `weightOf` in `domain/store/budget.ts`) is
 * counted by walking the record, without writing its JSON text (issue 31: the text of each new
 * conversation cost a create a few microseconds). These tests hold the walk to the count as it was
 * made from the text: `JSON.stringify`'s length plus 64 bytes per object and array (the record
 * itself left out of `sizeOf`, which adds one comma), for records of every kind the store holds and
 * for the values JSON writes its own way.
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/fake.js';
import { sizeOf, weightOf } from '../../src/domain/store/budget.js';
import { hostConversationRecord, hostRecordSize } from '../../src/domain/agent/host-record.js';
import type { DomainState } from '../../src/domain/store/state.js';
import { StartConversationRequest } from '../../src/schemas/agent-conversations.js';

/** Objects and arrays in a value, itself included, walked as the budget always counted them. */
function containers(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 1;
  for (const key in value as Record<string, unknown>) count += containers((value as Record<string, unknown>)[key]);
  return count;
}

/** `sizeOf` as it was: one JSON text of the record. */
function sizeFromText(record: object): number {
  const text = JSON.stringify(record);
  return text.length === 2 ? 2 : text.length + 1 + 64 * (containers(record) - 1);
}

/** `weightOf` as it was. */
const weightFromText = (value: unknown) => (value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0) + 64 * containers(value));

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1, b: 'two' });

/** Values JSON writes each its own way: escapes, numbers, what it leaves out or writes as null, `toJSON`, classes. */
const odd: Record<string, unknown> = {
  empty: {},
  emptyList: [],
  quote: 'say "hi"',
  backslash: 'C:\\Users\\dev',
  controls: 'tab\there\nnewline\u0000nul\u001f',
  unicode: 'héllo wörld ✓ 日本語',
  emoji: 'ship it 🚀👩‍💻',
  loneHigh: 'half \ud83d here',
  loneLow: '\ude80 alone',
  'key "quoted"\n': 'a key JSON escapes',
  'clé ✓': 'a unicode key',
  numbers: [0, -0, 1, -1, 2.71, 1e21, 1e-7, 123456789012345, Number.MAX_SAFE_INTEGER, 2 ** 70, 0.1 + 0.2],
  notFinite: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  booleans: [true, false],
  nulls: [null, { value: null }],
  skipped: { a: undefined, b: () => 1, c: Symbol('s'), d: 'kept' },
  onlySkipped: { a: undefined },
  listHoles: [undefined, () => 1, Symbol('s'), 'kept'],
  sparse: Object.assign(new Array(3), { 0: 1, 2: 3 }),
  date: new Date('2026-11-25T14:00:00.000Z'),
  toJson: { toJSON: () => ({ written: 'instead' }) },
  toJsonUndefined: { toJSON: () => undefined },
  listToJsonUndefined: [{ toJSON: () => undefined }],
  instance: new Point(1, 2),
  map: new Map([['a', 1]]),
  set: new Set([1]),
  nullPrototype,
  deep: { a: { b: { c: { d: [{ e: [[], [{}], { f: 'g' }] }] } } } },
};

describe('sizeOf: a record weighed without writing its JSON', () => {
  it('equals the count from the JSON text for values JSON writes its own way', () => {
    expect(sizeOf(odd)).toBe(sizeFromText(odd));
    for (const [key, value] of Object.entries(odd)) {
      expect(sizeOf({ [key]: value }), key).toBe(sizeFromText({ [key]: value }));
      expect(weightOf(value), key).toBe(weightFromText(value));
    }
  });

  it('weighs a record with no written field as 2 and a nested empty record as its text', () => {
    expect(sizeOf({})).toBe(2);
    expect(sizeOf({ gone: undefined })).toBe(2);
    expect(sizeOf({ inner: {} })).toBe(sizeFromText({ inner: {} }));
    expect(weightOf(undefined)).toBe(0);
    expect(weightOf('a"b')).toBe(JSON.stringify('a"b').length);
  });

  it('throws where JSON.stringify throws (a bigint)', () => {
    expect(() => sizeOf({ big: 10n })).toThrow(TypeError);
  });

  it('equals the count from the JSON text for every record a busy fake stores', async () => {
    const agent = 'http://localhost:3001';
    const fake = await createFakeCore({
      baseUrl: 'http://localhost:3000',
      agentUrl: agent,
      auth: 'none',
      fixture: 'empty',
      timings: 'instant',
    });
    const post = async (path: string, body: unknown) => {
      const response = await fake.fetch(
        new Request(`${agent}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      );
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return (await response.json()) as { id: string };
    };
    const first = await post('/api/conversations', {
      agent: { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [{ name: 'terminal', params: {} }] },
      workspace: { kind: 'LocalWorkspace', working_dir: '/home/openhands/wörkspace ✓' },
    });
    await post('/api/conversations', {
      agent: {
        kind: 'ACPAgent',
        llm: { model: 'openai/gpt-5 "mini"\t🚀', stream: true },
        agent_context: { registered_marketplaces: [{ name: 'mkt ✓' }] },
      },
      workspace: { working_dir: 'C:\\work\\proj' },
      parent_conversation_id: first.id,
      confirmation_policy: { kind: 'AlwaysConfirm' },
      security_analyzer: { kind: 'LLMSecurityAnalyzer', nested: { deep: ['a', { b: null }] } },
      secrets: { GITHUB_TOKEN: 'ghp_never_kept', NPM: { kind: 'StaticSecret', value: 'x' } },
      tags: { team: 'cœur', ticket: '42 "quoted"' },
      max_iterations: 7,
      stuck_detection: false,
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the "retry" bug \ud83d\ude80 and \u0001 this' }], run: true },
    });
    fake.clock.advance(60_000);
    const snapshot = (await fake.snapshot()) as unknown as Record<string, unknown>;
    let weighed = 0;
    for (const records of Object.values(snapshot)) {
      if (!Array.isArray(records)) continue;
      for (const record of records as object[]) {
        expect(sizeOf(record)).toBe(sizeFromText(record));
        weighed++;
      }
    }
    expect(weighed).toBeGreaterThanOrEqual(10);
  });
});

describe('hostRecordSize (the weight of a record the agent host builds on create)', () => {
  /** Create bodies: the common one, then each field that reaches the record changed. */
  const BODIES: Record<string, unknown>[] = [
    {},
    // An agent without an llm: an ACPAgent (an Agent must have one: agent/base.py, AgentBase.llm).
    { agent: { kind: 'ACPAgent', acp_command: ['acp-server'] } },
    { agent: { kind: 'ACPAgent', llm: { model: 'openai/gpt-5 "mini"\t🚀', stream: true } } },
    {
      agent: {
        kind: 'Agent',
        llm: { model: 'm', stream: false },
        agent_context: { registered_marketplaces: [{ name: 'mkt ✓' }, { x: 1 }] },
      },
    },
    { agent: { kind: 'Agent', llm: { model: 'm' }, agent_context: {} } },
    { workspace: { working_dir: 'C:\\work "q" \u0001' } },
    { tags: { team: 'cœur', ticket: '42 "quoted"' } },
    { security_analyzer: { kind: 'LLMSecurityAnalyzer', nested: { deep: ['a', { b: null }] } } },
    { confirmation_policy: { kind: 'AlwaysConfirm' } },
    { max_iterations: 1234567, stuck_detection: false },
    { initial_message: { role: 'user', content: [{ type: 'text', text: 'hi' }] } },
    { initial_message: { role: 'user', content: [] } },
  ];
  const MADE = [
    { id: '0a1b2c3d-0000-4000-8000-000000000001', sandboxId: 'sb1', parentId: null, secretNames: [], now: '2025-11-03T09:00:00.123456Z' },
    {
      id: 'ffffffff-ffff-4fff-bfff-ffffffffffff',
      sandboxId: 'a-much-longer-sandbox-id "quoted"',
      parentId: '0a1b2c3d-0000-4000-8000-000000000001',
      secretNames: ['A', 'B_TOKEN', 'é\n'],
      now: '2026-01-01T00:00:00.000001Z',
    },
  ];

  it('is sizeOf of the record, for records of every shape a create makes', () => {
    let weighed = 0;
    for (const userId of ['user', null, 'a "user" ✓'])
      for (const body of BODIES)
        for (const made of MADE) {
          const request = StartConversationRequest.parse({
            agent: { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [] },
            workspace: { kind: 'LocalWorkspace', working_dir: '/home/openhands/workspace' },
            ...body,
          });
          const record = hostConversationRecord({ options: { userId } } as unknown as DomainState, request, made);
          expect(hostRecordSize(record), JSON.stringify([userId, body, made])).toBe(sizeOf(record));
          weighed++;
        }
    expect(weighed).toBe(3 * BODIES.length * MADE.length);
  });
});
