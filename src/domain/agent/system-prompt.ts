/**
 * The first event of every conversation's log: its own module, so the first chunks of a page (which
 * read `status.ts`) carry none of its text; the agent and a conversation's start read it (issue 30).
 */
import type { AgentEvent } from './status.js';

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
