/**
 * Which changes the agent host publishes as a `ConversationStateUpdateEvent`: a state field's, when
 * its value changes (openhands-sdk 1.58.2 `conversation/state.py`, `ConversationState.__setattr__`:
 * the callback runs only for `old != value`). The title is no state field: a rename is kept in the
 * conversation's metadata (openhands-agent-server 1.58.2 `conversation_service.py`,
 * `update_conversation`: `save_meta`), its tags are (`_update_state_tags_sync`).
 */
import { describe, expect, it } from 'vitest';
import { createFakeCore, type FakeCore } from '../../src/fake.js';

const AGENT = 'http://localhost:3001';

/** A request on the fake's agent host: its JSON body. */
async function json(fake: FakeCore, path: string, body?: unknown, method = 'POST'): Promise<Record<string, unknown>> {
  const init = body === undefined ? {} : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return (await fake.fetch(new Request(`${AGENT}${path}`, init))).json() as Promise<Record<string, unknown>>;
}

/** A new conversation on a new fake; the fake and the conversation's path. */
async function conversation(): Promise<{ fake: FakeCore; path: string }> {
  const fake = await createFakeCore({
    baseUrl: 'http://localhost:3000',
    agentUrl: AGENT,
    auth: 'none',
    fixture: 'empty',
    timings: 'instant',
    checkResponses: true,
  });
  const created = await json(fake, '/api/conversations', {
    agent: { kind: 'Agent', llm: { model: 'openai/gpt-4o' }, tools: [] },
    workspace: { working_dir: '/workspace/project' },
  });
  return { fake, path: `/api/conversations/${String(created.id)}` };
}

/** The keys of the conversation's state updates, oldest first. */
const updates = async (fake: FakeCore, path: string) =>
  ((await json(fake, `${path}/events/search?kind=ConversationStateUpdateEvent&limit=100`)).items as { key: string }[]).map((e) => e.key);

describe('PATCH /api/conversations/{id}', () => {
  it('publishes no update for a new title, and a tags update when the tags change', async () => {
    const { fake, path } = await conversation();
    await json(fake, path, { title: 'Renamed' }, 'PATCH');
    expect(await updates(fake, path)).toEqual([]);
    await json(fake, path, { tags: { env: 'ci' } }, 'PATCH');
    await json(fake, path, { tags: { env: 'ci' } }, 'PATCH');
    expect(await updates(fake, path)).toEqual(['tags']);
  });
});

describe('POST /api/conversations/{id}/confirmation_policy and /security_analyzer', () => {
  it('publish an update only when the value changes', async () => {
    const { fake, path } = await conversation();
    await json(fake, `${path}/confirmation_policy`, { policy: { kind: 'NeverConfirm' } });
    await json(fake, `${path}/security_analyzer`, { security_analyzer: null });
    expect(await updates(fake, path)).toEqual([]);
    await json(fake, `${path}/confirmation_policy`, { policy: { kind: 'AlwaysConfirm' } });
    await json(fake, `${path}/security_analyzer`, { security_analyzer: { kind: 'LLMSecurityAnalyzer' } });
    await json(fake, `${path}/security_analyzer`, { security_analyzer: { kind: 'LLMSecurityAnalyzer' } });
    expect(await updates(fake, path)).toEqual(['confirmation_policy', 'security_analyzer']);
  });
});
