/**
 * A conversation's statistics keep one `Metrics` per LLM that the conversation registered, as
 * openhands-sdk 1.58.2 `conversation/impl/local_conversation.py` registers them: `ask_agent` calls a
 * copy of the agent's LLM under `ask-agent-llm` (`ASK_AGENT_LLM_USAGE_ID`), `switch_profile`
 * registers the profile's LLM under `profile:NAME` (empty until it answers), and `switch_llm`
 * registers the LLM given under its `usage_id`, a usage id seen before keeping its metrics (and the
 * model they were first kept for: `switch_llm`'s `restore_metrics`).
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';

const AGENT = 'http://localhost:3001';
const MODEL = 'openai/gpt-4o';
type Metrics = { model_name: string; token_usages: { response_id: string }[] };

/** A fake whose agent host answers at AGENT, with a saved LLM profile `smart`. */
async function start(): Promise<FakeCore> {
  const fake = await createFakeCore({
    baseUrl: 'http://localhost:3000',
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    timings: 'instant',
    checkResponses: true,
  });
  await fake.fetch(
    new Request(`${AGENT}/api/profiles/smart`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ llm: { model: 'openai/wise' } }),
    }),
  );
  return fake;
}

/** A request on the fake: its JSON body. */
async function json(fake: FakeCore, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return (await fake.fetch(new Request(`${AGENT}${path}`, init))).json() as Promise<Record<string, unknown>>;
}

/** A conversation on the agent host that ran one message; its path. */
async function ranConversation(fake: FakeCore): Promise<string> {
  const created = await json(fake, '/api/conversations', {
    agent: { kind: 'Agent', llm: { model: MODEL }, tools: [] },
    workspace: { working_dir: '/workspace/project' },
  });
  const path = `/api/conversations/${String(created.id)}`;
  await json(fake, `${path}/events`, { role: 'user', content: [{ type: 'text', text: 'Hello' }], run: true });
  return path;
}

const usages = async (fake: FakeCore, path: string) =>
  ((await json(fake, path)).stats as { usage_to_metrics: Record<string, Metrics> }).usage_to_metrics;

describe('POST /api/conversations/{id}/ask_agent: statistics', () => {
  it("counts the answer as one call of ask-agent-llm, on the agent's model, beside the agent's own usage", async () => {
    const fake = await start();
    const path = await ranConversation(fake);
    const before = await usages(fake, path);
    expect(Object.keys(before)).toEqual(['default']);
    await json(fake, `${path}/ask_agent`, { question: 'What changed?' });
    const after = await usages(fake, path);
    expect(Object.keys(after)).toEqual(['default', 'ask-agent-llm']);
    expect(after.default).toEqual(before.default);
    expect(after['ask-agent-llm']!.model_name).toBe(MODEL);
    expect(after['ask-agent-llm']!.token_usages).toHaveLength(1);
    await json(fake, `${path}/ask_agent`, { question: 'And then?' });
    expect((await usages(fake, path))['ask-agent-llm']!.token_usages).toHaveLength(2);
  });
});

describe('POST /api/conversations/{id}/switch_profile and /switch_llm: statistics', () => {
  it('registers profile:NAME with empty metrics; a switch back to default keeps its metrics and their first model', async () => {
    const fake = await start();
    const path = await ranConversation(fake);
    const first = (await usages(fake, path)).default!;
    await json(fake, `${path}/switch_profile`, { profile_name: 'smart' });
    const switched = await usages(fake, path);
    expect(Object.keys(switched)).toEqual(['default', 'profile:smart']);
    expect(switched['profile:smart']).toMatchObject({ model_name: 'openai/wise', accumulated_cost: 0, costs: [], token_usages: [] });
    expect(((await json(fake, path)).agent as { llm: { usage_id: string } }).llm.usage_id).toBe('profile:smart');
    await json(fake, `${path}/switch_llm`, { llm: { model: 'openai/other' } });
    const back = await usages(fake, path);
    expect(Object.keys(back)).toEqual(['default', 'profile:smart']);
    expect(back.default).toEqual(first);
    expect(back.default!.model_name).toBe(MODEL);
  });

  it("counts the agent's calls after a switch under the usage id switched to", async () => {
    const fake = await start();
    const path = await ranConversation(fake);
    const calls = (await usages(fake, path)).default!.token_usages.length;
    expect(calls).toBeGreaterThan(0);
    await json(fake, `${path}/switch_profile`, { profile_name: 'smart' });
    await json(fake, `${path}/events`, { role: 'user', content: [{ type: 'text', text: 'Again' }], run: true });
    const after = await usages(fake, path);
    expect(after.default!.token_usages).toHaveLength(calls);
    expect(after['profile:smart']!.token_usages).toHaveLength(calls);
    expect(after['profile:smart']!.model_name).toBe('openai/wise');
  });
});

describe('GET /api/conversations/{id}: the costs of a model without a price', () => {
  it('records no cost for a model LiteLLM has no price for (telemetry.py, on_response: only a positive cost is added), its tokens still counted', async () => {
    const fake = await start();
    const created = await json(fake, '/api/conversations', {
      agent: { kind: 'Agent', llm: { model: 'openai/fakehands' }, tools: [] },
      workspace: { working_dir: '/workspace/project' },
    });
    const path = `/api/conversations/${String(created.id)}`;
    await json(fake, `${path}/events`, { role: 'user', content: [{ type: 'text', text: 'Hello' }], run: true });
    const unpriced = (await usages(fake, path)).default! as Metrics & { costs: unknown[]; accumulated_cost: number };
    expect(unpriced.token_usages.length).toBeGreaterThan(0);
    expect({ costs: unpriced.costs, accumulated_cost: unpriced.accumulated_cost }).toEqual({ costs: [], accumulated_cost: 0 });
    const priced = (await usages(fake, await ranConversation(fake))).default! as Metrics & { costs: unknown[] };
    expect(priced.costs).toHaveLength(priced.token_usages.length);
  });
});
