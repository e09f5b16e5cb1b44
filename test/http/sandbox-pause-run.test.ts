/**
 * Pausing a sandbox under a run: Agent Canvas's Stop on a cloud backend (its
 * `hooks/mutation/conversation-mutation-utils.ts`, `pauseConversation`: `POST
 * /api/v1/sandboxes/{sandbox_id}/pause`, where a local backend interrupts the conversation).
 * The real app server pauses the runtime and tells the agent server nothing
 * (openhands/app_server/sandbox/remote_sandbox_service.py and docker_sandbox_service.py,
 * `pause_sandbox`), so the run stops where it is; the agent server that comes back on resume finds
 * the conversation it saved as running stale: `error`, with an `AgentErrorEvent` for the tool call
 * in flight (openhands/agent_server/event_service.py, `EventService.start`).
 */
import { describe, expect, it } from 'vitest';
import { RESTART_INTERRUPTED_TOOL } from '../../src/domain/agent/runtime-stop.js';
import type { AppConversation, AppConversationStartTask } from '../../src/schemas/app-conversation.js';
import { call, useFake } from '../support/api.js';

const env = useFake({ fixture: 'empty' });

type WireEvent = { id: string; kind: string; key?: string; value?: unknown; tool_call_id?: string; [field: string]: unknown };

/** Starts a conversation with a message and advances the clock until its task is READY: its run has just begun. */
async function runningConversation(): Promise<AppConversation> {
  const { body: task } = await call<AppConversationStartTask>('POST', '/api/v1/app-conversations', {
    body: { initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] } },
  });
  for (let i = 0; i < 50; i++) {
    const { body } = await call<(AppConversationStartTask | null)[]>('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`);
    if (body[0]!.status === 'READY') return conversation(body[0]!.app_conversation_id!);
    env.fake.clock.advance(250);
  }
  throw new Error('start task never became READY');
}

async function conversation(id: string): Promise<AppConversation> {
  return (await call<AppConversation[]>('GET', `/api/v1/app-conversations?ids=${id}`)).body[0]!;
}

/** The conversation's events, oldest first. */
async function eventsOf(id: string): Promise<WireEvent[]> {
  return (await call<{ items: WireEvent[] }>('GET', `/api/v1/conversation/${id}/events/search?limit=100`)).body.items;
}

/** An event as `kind` or `kind:key=value` for a state update. */
const label = (e: WireEvent) => (e.kind === 'ConversationStateUpdateEvent' ? `${e.kind}:${e.key}=${JSON.stringify(e.value)}` : e.kind);

describe('POST /api/v1/sandboxes/{sandbox_id}/pause under a run', () => {
  it('stops the run where it is: no step after the pause, the tool call in flight cut and the conversation error, as the agent server that comes back on resume finds it', async () => {
    const started = await runningConversation();
    expect(started.execution_status).toBe('running');
    env.fake.clock.advance(env.fake.timings.agentRunMs * 0.3);
    const before = await eventsOf(started.id);
    expect(before.map(label).slice(-2)).toEqual(['ConversationStateUpdateEvent:execution_status="running"', 'ActionEvent']);
    const action = before.at(-1)!;

    expect(await call('POST', `/api/v1/sandboxes/${started.sandbox_id}/pause`)).toMatchObject({ status: 200, body: { success: true } });
    env.fake.clock.advance(env.fake.timings.agentRunMs * 3);
    const paused = await conversation(started.id);
    expect([paused.sandbox_status, paused.execution_status]).toEqual(['PAUSED', null]);
    const afterPause = await eventsOf(started.id);
    expect(afterPause.map(label)).toEqual([
      ...before.map(label),
      'AgentErrorEvent',
      'ConversationStateUpdateEvent:execution_status="error"',
    ]);
    expect(afterPause.at(-2)).toMatchObject({
      kind: 'AgentErrorEvent',
      source: 'agent',
      parent_id: action.id,
      tool_name: action.tool_name,
      tool_call_id: action.tool_call_id,
      error: RESTART_INTERRUPTED_TOOL,
    });

    expect((await call('POST', `/api/v1/sandboxes/${started.sandbox_id}/resume`)).status).toBe(200);
    env.fake.clock.advance(env.fake.timings.sandboxStartMs + env.fake.timings.agentRunMs);
    const resumed = await conversation(started.id);
    expect([resumed.sandbox_status, resumed.execution_status]).toEqual(['RUNNING', 'error']);
    expect((await eventsOf(started.id)).map(label)).toEqual(afterPause.map(label));

    // The next message starts a new run, which finishes.
    const sent = await call('POST', `/api/v1/app-conversations/${started.id}/send-message`, {
      body: { content: [{ type: 'text', text: 'Go on' }] },
    });
    expect(sent).toMatchObject({ status: 200, body: { success: true, sandbox_status: 'RUNNING' } });
    env.fake.clock.advance(env.fake.timings.agentRunMs);
    expect((await conversation(started.id)).execution_status).toBe('finished');
  });

  it('leaves a finished conversation finished, with no event added', async () => {
    const started = await runningConversation();
    env.fake.clock.advance(env.fake.timings.agentRunMs);
    const done = await eventsOf(started.id);
    expect((await call('POST', `/api/v1/sandboxes/${started.sandbox_id}/pause`)).status).toBe(200);
    expect((await call('POST', `/api/v1/sandboxes/${started.sandbox_id}/resume`)).status).toBe(200);
    env.fake.clock.advance(env.fake.timings.sandboxStartMs);
    expect((await conversation(started.id)).execution_status).toBe('finished');
    expect(await eventsOf(started.id)).toEqual(done);
  });

  it('stops the run of a sandbox that fails as well (its container dies)', async () => {
    const started = await runningConversation();
    env.fake.clock.advance(env.fake.timings.agentRunMs * 0.3);
    await env.fake.service.failSandbox(started.sandbox_id!);
    env.fake.clock.advance(env.fake.timings.agentRunMs * 3);
    expect((await eventsOf(started.id)).map(label).slice(-2)).toEqual([
      'AgentErrorEvent',
      'ConversationStateUpdateEvent:execution_status="error"',
    ]);
  });
});
