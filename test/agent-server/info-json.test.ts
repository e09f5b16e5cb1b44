/**
 * A conversation's `ConversationInfo` written as JSON without the object (`domain/agent/info-json.ts`,
 * issue 31) is a shortcut of the general path (`hostConversationInfo`, then `JSON.stringify`): the
 * create's answer and `GET /api/conversations/{id}` take it; `GET /api/conversations?ids=` still
 * writes the object. For conversations of every shape the agent host makes (kinds, models, secrets,
 * tags, analyzers, policies, messages, parents and children, forks, titles, an app-server
 * conversation), both write the same text, byte for byte. The kept texts of `keptText` are checked
 * against `JSON.stringify` on values of every JSON kind.
 */
import { describe, expect, it } from 'vitest';
import { keptText } from '../../src/domain/agent/info-json.js';
import { createFakeCore, type FakeCore } from '../../src/fake.js';

const BASE = 'http://localhost:3000';
const AGENT = 'http://localhost:3001';
const WORKSPACE = { kind: 'LocalWorkspace', working_dir: '/home/openhands/workspace' };
const AGENT_SPEC = { kind: 'Agent', llm: { model: 'anthropic/claude-sonnet-4-5-20250929' }, tools: [] };

/** One request on the fake: status and body text. */
async function call(fake: FakeCore, path: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fake.fetch(
    new Request(`${AGENT}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
  );
  return { status: response.status, text: await response.text() };
}

/** The request bodies of the creates: one field of the common body changed each. */
const CREATES: Record<string, unknown>[] = [
  {},
  { agent: { kind: 'ACPAgent', llm: { model: 'odd "model" ✓ \u0001 \\ /' } } },
  // An agent without an llm: an ACPAgent (an Agent must have one: agent/base.py, AgentBase.llm).
  { agent: { kind: 'ACPAgent', acp_command: ['acp-server'] } },
  { agent: { kind: 'Agent', llm: { model: 'openai/gpt-5', stream: true } } },
  { secrets: { b: 'x', a: 'y', 10: 'z', 9: 'w', 'é"\n': 'v' } },
  { secrets: { only: 'one' } },
  { tags: { 2: 'b', 1: 'a', zz: 'line\nbreak "é" \u0001', z: '' } },
  { security_analyzer: { kind: 'LLMSecurityAnalyzer', extra: [1, null, { deep: '"' }] } },
  { confirmation_policy: { kind: 'AlwaysConfirm' } },
  { initial_message: { role: 'user', content: [{ type: 'text', text: 'wait for run' }], run: false } },
  { workspace: { kind: 'LocalWorkspace', working_dir: 'C:\\work "here"\u0007 ✓' } },
  { max_iterations: 1, stuck_detection: false },
  { max_iterations: 2147483647 },
];

/** A create's answer as a read writes it: `runtime_info` available instead of null (conversation_router.py, `_with_runtime_info`). */
const asRead = (created: string) =>
  created.replace(/"runtime_info":null}$/, '"runtime_info":{"runtime_status":"available","can_resume":true,"runtime_error":null}}');

/** Whether the fast writer (GET one) and the general path (GET by ids) write the same text for `id`. */
async function expectSameText(fake: FakeCore, id: string): Promise<string> {
  const one = await call(fake, `/api/conversations/${id}`);
  const batch = await call(fake, `/api/conversations?ids=${id}`);
  expect(one.status).toBe(200);
  expect(batch.status).toBe(200);
  expect(`[${one.text}]`).toBe(batch.text);
  return one.text;
}

describe('ConversationInfo written as JSON (the create and GET /api/conversations/{id})', () => {
  it('writes what JSON.stringify of the ConversationInfo writes, for conversations of every shape', async () => {
    const fake = await createFakeCore({
      baseUrl: BASE,
      agentUrl: AGENT,
      auth: 'none',
      fixture: 'empty',
      clock: 'manual',
      checkResponses: true,
    });
    const ids: string[] = [];
    for (const extra of CREATES) {
      const created = await call(fake, '/api/conversations', 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE, ...extra });
      expect(created.status, `${JSON.stringify(extra)} ${created.text}`).toBe(201);
      const id = (JSON.parse(created.text) as { id: string }).id;
      ids.push(id);
      // Nothing moved on since (a manual clock): the create answered the text the general path writes now.
      expect(created.text).toMatch(/"runtime_info":null}$/);
      expect(await expectSameText(fake, id), JSON.stringify(extra)).toBe(asRead(created.text));
    }
    // The same id again: 200 with the conversation it holds, the same text as GET.
    const again = await call(fake, '/api/conversations', 'POST', { agent: AGENT_SPEC, workspace: WORKSPACE, conversation_id: ids[0] });
    expect(again.status).toBe(200);
    expect(asRead(again.text)).toBe(await expectSameText(fake, ids[0]!));
    // A child (the parent's `sub_conversation_ids`), a run message, a title, secrets, an analyzer, a fork, an ACP model.
    const child = await call(fake, '/api/conversations', 'POST', {
      agent: AGENT_SPEC,
      workspace: WORKSPACE,
      parent_conversation_id: ids[0],
    });
    expect(child.status).toBe(201);
    ids.push((JSON.parse(child.text) as { id: string }).id);
    const running = await call(fake, '/api/conversations', 'POST', {
      agent: AGENT_SPEC,
      workspace: WORKSPACE,
      initial_message: { role: 'user', content: [{ type: 'text', text: 'run "it"' }], run: true },
    });
    expect(running.status).toBe(201);
    ids.push((JSON.parse(running.text) as { id: string }).id);
    expect((await call(fake, `/api/conversations/${ids[1]}`, 'PATCH', { title: '  A "title" ✓\t\u0000 ' })).status).toBe(200);
    expect((await call(fake, `/api/conversations/${ids[1]}/switch_acp_model`, 'POST', { model: 'acp "m"' })).status).toBe(200);
    expect((await call(fake, `/api/conversations/${ids[2]}/secrets`, 'POST', { secrets: { '10': 'x', '9': 'y', k: 'z' } })).status).toBe(
      200,
    );
    expect(
      (await call(fake, `/api/conversations/${ids[3]}/security_analyzer`, 'POST', { security_analyzer: { kind: 'Any' } })).status,
    ).toBe(200);
    const fork = await call(fake, `/api/conversations/${ids[9]}/fork`, 'POST', { title: 'Fork', tags: { b: '1', a: '2' } });
    expect(fork.status).toBe(201);
    ids.push((JSON.parse(fork.text) as { id: string }).id);
    // The run, step by step: its stats from its first LLM call on (short logs and long), as the general path writes them.
    let calls = 0;
    for (let step = 0; step < 400; step++) {
      const info = JSON.parse(await expectSameText(fake, ids.at(-2)!)) as {
        execution_status: string;
        stats: { usage_to_metrics: { default: { costs: unknown[] } } };
      };
      // Under the LLM's usage id, `default` when the client names none (openhands-sdk llm/llm.py, usage_id).
      calls = info.stats.usage_to_metrics.default.costs.length;
      if (info.execution_status === 'finished') break;
      await fake.clock.advance(100);
    }
    expect(calls).toBeGreaterThan(1);
    await fake.clock.advance(60_000);
    for (const id of ids) await expectSameText(fake, id);
    // The stats of a conversation whose agent ran differ from a new one's: written from its own text.
    const ran = JSON.parse(await expectSameText(fake, ids.at(-2)!)) as { stats: unknown; execution_status: string };
    const fresh = JSON.parse(await expectSameText(fake, ids[0]!)) as { stats: unknown };
    expect(ran.execution_status).toBe('finished');
    expect(ran.stats).not.toEqual(fresh.stats);
  });

  it('writes a conversation the app server started (no workspace kept by the host) as the general path does', async () => {
    const fake = await createFakeCore({ baseUrl: BASE, agentUrl: AGENT, auth: 'none', fixture: 'empty', timings: 'instant' });
    const task = (await (
      await fake.fetch(
        new Request(`${BASE}/api/v1/app-conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      )
    ).json()) as { id: string };
    let conversationId: string | null = null;
    for (let i = 0; i < 200 && conversationId === null; i++) {
      const [current] = (await (await fake.fetch(new Request(`${BASE}/api/v1/app-conversations/start-tasks?ids=${task.id}`))).json()) as {
        status: string;
        app_conversation_id: string | null;
      }[];
      if (current!.status === 'READY') conversationId = current!.app_conversation_id;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(conversationId).not.toBeNull();
    const text = await expectSameText(fake, conversationId!);
    expect((JSON.parse(text) as { workspace: { working_dir: string } }).workspace.working_dir).toMatch(/^\//);
  });
});

describe('keptText (the texts of values seen twice in a row)', () => {
  const VALUES: unknown[] = [
    {},
    [],
    { a: 1, b: [1, 2, { c: null }], d: 'x"y', e: true, f: false },
    { b: 1, a: 1 },
    { a: 1, b: 1 },
    { a: 1, b: 1, c: 1 },
    { a: undefined, b: 1 },
    { a: () => 1, b: 1 },
    { a: Number.NaN, b: -0, c: 1e21, d: 1.5 },
    { a: [undefined, () => 1, null] },
    { 2: 'b', 1: 'a' },
    { a: new Date(0) },
    { toJSON: () => 'replaced' },
    { a: { toJSON: () => ({ x: 1 }) } },
    [1, 2, 3],
    [1, 2],
    { a: '\u2028\ud800' },
    { usage_to_metrics: { agent: { model_name: 'm', costs: [], accumulated_cost: 0 } } },
    { usage_to_metrics: { agent: { model_name: 'n', costs: [], accumulated_cost: 0 } } },
    { usage_to_metrics: { agent: { model_name: 'm', costs: [{ cost: 1 }], accumulated_cost: 0 } } },
  ];

  it('writes what JSON.stringify writes, each value after any other, three times in a row', () => {
    for (const first of VALUES)
      for (const value of VALUES) {
        for (const seen of [first, first, value, value, value])
          expect(keptText('test', seen as object), JSON.stringify(seen)).toBe(JSON.stringify(seen));
      }
  });

  it('is not changed by a value changed after its text was kept', () => {
    const value = { a: [1, 2], b: { c: 'x' } };
    keptText('changed', value);
    expect(keptText('changed', value)).toBe('{"a":[1,2],"b":{"c":"x"}}');
    value.a.push(3);
    value.b.c = 'y';
    expect(keptText('changed', value)).toBe('{"a":[1,2,3],"b":{"c":"y"}}');
    expect(keptText('changed', { a: [1, 2], b: { c: 'x' } })).toBe('{"a":[1,2],"b":{"c":"x"}}');
  });
});
