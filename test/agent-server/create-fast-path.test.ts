/**
 * The create body's quick check (`schemas/start-conversation-fast.ts`, issue 31) is a shortcut of
 * `StartConversationRequest`: for every body it takes, it gives what the schema gives, key for key
 * and in the same order; every body the schema refuses, it leaves to the schema (so each 422 is the
 * schema's own, pinned by the agent host's create tests). Bodies: the common ones, then each field
 * of them replaced by values of every JSON kind, valid and not.
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore } from '../../src/fake.js';
import { StartConversationRequest } from '../../src/schemas/agent-conversations.js';
import { startConversationFastPath } from '../../src/schemas/start-conversation-fast.js';

const AGENT = 'http://localhost:3001';

/** Keys of every object in a value, in order, with their paths: two values with the same outline were written in the same key order. */
function outline(value: unknown, path = '$'): string[] {
  if (value === null || typeof value !== 'object') return [`${path}=${typeof value}`];
  const keys = Object.keys(value);
  return [
    `${path}:${Array.isArray(value) ? 'list' : 'map'}[${keys.join(',')}]`,
    ...keys.flatMap((key) => outline((value as Record<string, unknown>)[key], `${path}.${key}`)),
  ];
}

const COMMON = [
  {
    agent: { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [] },
    workspace: { kind: 'LocalWorkspace', working_dir: '/home/openhands/workspace' },
  },
  {
    workspace: { working_dir: '/w', type: 'local' },
    agent: { tools: [{ name: 'terminal', params: {} }], llm: { usage_id: 'agent', model: 'm' } },
  },
  { agent: { llm: { model: 'm' }, tools: [{ params: {}, name: 'terminal' }] }, workspace: { working_dir: '' } },
  { agent: { llm: { model: 'm' } }, workspace: { working_dir: '/w' }, max_iterations: 7, stuck_detection: false },
  {
    agent: { kind: 'ACPAgent', llm: { model: 'openai/gpt-5', stream: true, extra: { deep: [1, { x: null }] } }, mcp_config: {} },
    workspace: { working_dir: 'C:\\w ✓' },
  },
  { max_iterations: 1, stuck_detection: true, agent: { kind: 'Agent', llm: { model: 'm' } }, workspace: { working_dir: '/w' } },
];

/** Values of every JSON kind a field is replaced by. */
const KINDS: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  2.5,
  1e20,
  '',
  'x',
  [],
  [1],
  {},
  { kind: 'Agent' },
  { working_dir: '/w' },
  { model: 'm' },
  { name: 'terminal' },
  '0.5',
  ' 1e1 ',
  'hot',
  { kind: 'Nope' },
];

/** The common bodies, and each with one field (at any depth of the declared ones) replaced, removed or added. */
function bodies(): unknown[] {
  const out: unknown[] = [...COMMON, null, 1, 'x', [], {}, { agent: null, workspace: { working_dir: '/w' } }];
  const base = COMMON[0]! as unknown as Record<string, Record<string, unknown>>;
  const at = (edit: (body: Record<string, Record<string, unknown>>) => void) => {
    const body = structuredClone(base);
    edit(body);
    out.push(body);
  };
  for (const value of KINDS) {
    for (const key of [
      'agent',
      'workspace',
      'max_iterations',
      'stuck_detection',
      'tags',
      'secrets',
      'conversation_id',
      'agent_settings',
      'agent_profile_id',
      'initial_message',
      'confirmation_policy',
      'extra',
    ])
      at((body) => (body[key] = value as Record<string, unknown>));
    for (const key of ['kind', 'llm', 'tools', 'other']) at((body) => (body.agent![key] = value));
    for (const key of ['model', 'usage_id', 'temperature']) at((body) => ((body.agent!.llm as Record<string, unknown>)[key] = value));
    at((body) => (body.agent!.tools = [value]));
    for (const key of ['name', 'params']) at((body) => (body.agent!.tools = [{ name: 'terminal', [key]: value }]));
    for (const key of ['working_dir', 'kind']) at((body) => (body.workspace![key] = value));
  }
  for (const key of ['agent', 'workspace']) at((body) => delete body[key]);
  at((body) => delete body.agent!.kind);
  at((body) => delete body.agent!.llm);
  at((body) => {
    delete body.agent!.kind;
    delete body.agent!.llm;
  });
  at((body) => delete (body.agent!.llm as Record<string, unknown>).model);
  at((body) => delete body.workspace!.working_dir);
  // A `__proto__` key as JSON.parse makes it (an own key) at each level the quick check rebuilds.
  for (const text of [
    '{"__proto__":{"x":1},"agent":{"llm":{"model":"m"}},"workspace":{"working_dir":"/w"}}',
    '{"agent":{"__proto__":{"x":1},"llm":{"model":"m"}},"workspace":{"working_dir":"/w"}}',
    '{"agent":{"llm":{"model":"m","__proto__":{"x":1}}},"workspace":{"working_dir":"/w"}}',
    '{"agent":{"llm":{"model":"m"},"tools":[{"name":"t","__proto__":{"x":1}}]},"workspace":{"working_dir":"/w"}}',
    '{"agent":{"llm":{"model":"m"}},"workspace":{"working_dir":"/w","__proto__":{"x":1}}}',
  ])
    out.push(JSON.parse(text));
  return out;
}

describe('POST /api/conversations: the quick check of the body', () => {
  it('gives what the schema gives, key for key, for every body it takes, and takes none the schema refuses', () => {
    let taken = 0;
    let refused = 0;
    for (const body of bodies()) {
      const fast = startConversationFastPath(body);
      const full = StartConversationRequest.safeParse(body);
      if (!full.success) refused++;
      if (fast === undefined) continue;
      taken++;
      expect(full.success, JSON.stringify(body)).toBe(true);
      expect(fast, JSON.stringify(body)).toStrictEqual(full.data);
      expect(outline(fast), JSON.stringify(body)).toEqual(outline(full.data));
    }
    // Both sides are exercised: the common bodies go the quick way, and many bodies are refused.
    expect(taken).toBeGreaterThanOrEqual(COMMON.length + 20);
    expect(refused).toBeGreaterThan(50);
  });

  it('takes each common body', () => {
    for (const body of COMMON) expect(startConversationFastPath(body), JSON.stringify(body)).toBeDefined();
  });

  it('gives each create its own secrets and tags maps', () => {
    const [a, b] = [startConversationFastPath(COMMON[0]), startConversationFastPath(COMMON[0])];
    expect(a!.tags).toEqual({});
    expect(a!.tags).not.toBe(b!.tags);
    expect(a!.secrets).not.toBe(b!.secrets);
  });

  it('answers a create taken the quick way as one the schema checked', async () => {
    const fake = await createFakeCore({
      baseUrl: 'http://localhost:3000',
      agentUrl: AGENT,
      auth: 'none',
      fixture: 'empty',
      timings: 'instant',
    });
    const create = async (body: unknown) => {
      const response = await fake.fetch(
        new Request(`${AGENT}/api/conversations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // The same request, once with a key only the schema takes (`hook_config: null`, which changes nothing).
    const quick = await create({ ...COMMON[3]!, workspace: { working_dir: '/quick' } });
    const checked = await create({ ...COMMON[3]!, workspace: { working_dir: '/checked' }, hook_config: null });
    expect(quick.status).toBe(201);
    expect(checked.status).toBe(201);
    const strip = (info: Record<string, unknown>) => {
      const { id, created_at, updated_at, workspace, ...rest } = info;
      return rest;
    };
    expect(strip(quick.body)).toEqual(strip(checked.body));
    expect(quick.body.max_iterations).toBe(7);
    expect(quick.body.stuck_detection).toBe(false);
    expect(quick.body.workspace).toEqual({ kind: 'LocalWorkspace', working_dir: '/quick' });
  });
});
