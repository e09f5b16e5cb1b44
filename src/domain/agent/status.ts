/**
 * What every request needs of the scripted agent (`scripted-agent.ts`) without loading it: a
 * conversation's agent status and edited turns (views), the length of the built-in run, the system
 * prompt every log starts with. Publishing one event is `publish.ts`'s (and storing it
 * `store-event.ts`'s): it needs the state, and the state needs this module (`runStepsTotal`).
 */
import type { ConversationRecord } from '../../schemas/records.js';
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

/**
 * The turns of a conversation the workspace shows: every run whose edit is done, that is whose
 * edit action is published and not waiting for the client's confirmation (then it has not run yet).
 */
export function editedTurns(conversation: ConversationRecord): number | null {
  if (conversation.agent_steps_done === undefined) return null;
  const after = conversation.agent_edit_after ?? EDIT_DONE_AFTER;
  const waiting = conversation.agent_status === 'waiting_for_confirmation' && conversation.agent_steps_done === after;
  return conversation.agent_turns - (conversation.agent_steps_done >= after && !waiting ? 0 : 1);
}

/** The agent's status as its events say: `null` for a conversation whose history has no events. */
export function agentStatus(
  conversation: ConversationRecord,
): 'running' | 'finished' | 'paused' | 'error' | 'stuck' | 'waiting_for_confirmation' | 'idle' | null {
  if (conversation.agent_status) return conversation.agent_status;
  if (conversation.agent_steps_done === undefined) return null;
  return conversation.agent_steps_done < runStepsTotal(conversation) ? 'running' : 'finished';
}

// What a conversation's timeline holds (`streaming.ts` fills and settles it; the state keeps one per conversation): generic over
// the state a step runs on, so the state names it without importing the agent's streaming (no circle).

/** An event's fields before it has an id and a timestamp. */
export type EventFields = Omit<AgentEvent, 'id' | 'timestamp'>;

/** One entry of a timeline: an event to store (its id drawn when it was held), a transient frame, or a step to run on `State`. */
export type TimelineEntry<State> =
  | { kind: 'event'; dueMs: number; id: string; fields: EventFields; streamed?: boolean }
  | { kind: 'transient'; dueMs: number; fields: EventFields }
  | { kind: 'step'; dueMs: number; run(state: State): Promise<void> };
