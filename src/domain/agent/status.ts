/**
 * What every request needs of the scripted agent (`scripted-agent.ts`) without loading it: a
 * conversation's agent status and edited turns (views), the length of the built-in run, the system
 * prompt every log starts with, and publishing one event. The agent's script and runs load with
 * the first run (a dynamic import: a chunk of its own in a page, issue 23).
 */
import type { AgentEventRecord, ConversationRecord } from '../../schemas/records.js';
import { naiveTimestamp } from '../fixtures/fixtures.js';
import { inDialect } from './dialect.js';
import type { DomainState } from '../store/state.js';
import { holdEvent, isStreamed } from './streaming.js';
import { DEFAULT_EDIT_AFTER, DEFAULT_SCRIPT } from './default-script.js';
import type { EventSource } from './vocabulary.js';

/** A wire event: `kind`, `id`, `timestamp`, `source` and its kind's fields. */
export type AgentEvent = Record<string, unknown> & { kind: string; id: string; timestamp: string; source: EventSource };

export { text, stateUpdate } from './vocabulary.js';

/** How many steps the built-in run has: the length of `DEFAULT_SCRIPT` (`default-script.ts`). */
export const RUN_STEPS = DEFAULT_SCRIPT.length;

/** The step after which the built-in run's file edit is done (the workspace shows the turn from then on). */
export const EDIT_DONE_AFTER = DEFAULT_EDIT_AFTER;

/** The first event of every conversation's log. */
export const SYSTEM_PROMPT: Omit<AgentEvent, 'id' | 'timestamp'> = Object.freeze({
  kind: 'SystemPromptEvent',
  source: 'agent',
  system_prompt: {
    type: 'text',
    text: 'You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.',
  },
  // The tools as ToolDefinitions (openhands-sdk `tool/tool.py` `ToolDefinition`, serialized with
  // its kind, action and observation kinds and its `title`); `dialect.ts` writes them as the
  // OpenAI function list servers before 1.7.0 sent.
  tools: [
    {
      description: 'Execute a bash command in the terminal.',
      action_type: 'TerminalAction',
      observation_type: 'TerminalObservation',
      annotations: { title: 'terminal', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      meta: null,
      kind: 'TerminalTool',
      title: 'terminal',
    },
    {
      description: 'View, create and edit files.',
      action_type: 'FileEditorAction',
      observation_type: 'FileEditorObservation',
      annotations: { title: 'file_editor', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      meta: null,
      kind: 'FileEditorTool',
      title: 'file_editor',
    },
    {
      description: 'Finish the task.',
      action_type: 'FinishAction',
      observation_type: 'FinishObservation',
      annotations: { title: 'finish', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      meta: null,
      kind: 'FinishTool',
      title: 'finish',
    },
  ],
});

/** How many steps a conversation's current run has. */
export function runStepsTotal(conversation: ConversationRecord): number {
  return conversation.agent_steps_total ?? RUN_STEPS;
}

/** The turns of a conversation the workspace shows: every run whose edit is done. */
export function editedTurns(conversation: ConversationRecord): number | null {
  if (conversation.agent_steps_done === undefined) return null;
  return conversation.agent_turns - (conversation.agent_steps_done >= (conversation.agent_edit_after ?? EDIT_DONE_AFTER) ? 0 : 1);
}

/** The agent's status as its events say: `null` for a conversation whose history has no events. */
export function agentStatus(
  conversation: ConversationRecord,
): 'running' | 'finished' | 'paused' | 'error' | 'stuck' | 'waiting_for_confirmation' | 'idle' | null {
  if (conversation.agent_status) return conversation.agent_status;
  if (conversation.agent_steps_done === undefined) return null;
  return conversation.agent_steps_done < runStepsTotal(conversation) ? 'running' : 'finished';
}

/** Stores a new event of a conversation at `atMs` (default now); returns it. */
export async function publishEvent(
  state: DomainState,
  conversationId: string,
  fields: Omit<AgentEvent, 'id' | 'timestamp'>,
  atMs?: number,
): Promise<AgentEvent> {
  // Held while a replay or a streamed message goes on, or streamed first (issue 32): `streaming.ts`.
  if (state.timelines.has(conversationId) || isStreamed(state, conversationId, fields))
    return holdEvent(state, conversationId, fields, atMs ?? state.clock.now());
  return storeEvent(state, conversationId, fields, atMs);
}

/** Stores a new event of a conversation at `atMs` (default now) at once, held back by nothing; returns it. */
export async function storeEvent(
  state: DomainState,
  conversationId: string,
  fields: Omit<AgentEvent, 'id' | 'timestamp'>,
  atMs?: number,
  id?: string,
): Promise<AgentEvent> {
  const stamp = state.stamp(atMs);
  // An id no stored event has: a state loaded again (a restart, a snapshot as fixture) replays the seeded ids (issue 29, finding 5).
  id ??= state.unusedId(
    () => state.random.uuid(),
    (taken) => state.store.events.get(taken) !== undefined,
  );
  const event = { id, timestamp: naiveTimestamp(stamp), ...inDialect(fields, state.options.agentServerVersion) } as AgentEvent;
  await state.store.appendEvent({ id: event.id, conversation_id: conversationId, created_at: stamp, event } satisfies AgentEventRecord);
  return event;
}
