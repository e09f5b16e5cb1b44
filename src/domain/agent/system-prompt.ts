/**
 * The system prompt a conversation's agent publishes when it is made ready (its first message): its
 * own module, so the first chunks of a page (which read `status.ts`) carry none of its text; the
 * agent and a conversation's start read it (issue 30). Its tools are the agent's — the ones the
 * start request names, in its order, then the built-in `finish` and `think` (openhands-sdk
 * `agent/base.py`, `include_default_tools`) — as ToolDefinitions (`tool/tool.py`, serialized with
 * their kind, action and observation kinds and `title`, no `None` field); `dialect.ts` writes them
 * as the OpenAI function list servers before 1.7.0 sent.
 */
import type { AgentEvent } from './status.js';

/** The prompt's text. */
const PROMPT = 'You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.';

/** A ToolDefinition: its description, kinds, annotations (MCP's hints; `title` where the tool names one) and title. */
const tool = (title: string, kind: string, description: string, hints: Record<string, boolean>, titled = true) => ({
  description,
  action_type: `${kind}Action`,
  observation_type: `${kind}Observation`,
  annotations: titled ? { title, ...hints } : hints,
  kind: `${kind}Tool`,
  title,
});
const hints = (readOnly: boolean, destructive: boolean, idempotent: boolean, openWorld: boolean) => ({
  readOnlyHint: readOnly,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: openWorld,
});

/** The tools the fake describes, by the name a start request gives (`terminal`) or its class (`TerminalTool`). */
const TOOLS: Readonly<Record<string, ReturnType<typeof tool>>> = Object.freeze({
  terminal: tool('terminal', 'Terminal', 'Execute a bash command in the terminal.', hints(false, true, false, true)),
  file_editor: tool('file_editor', 'FileEditor', 'View, create and edit files.', hints(false, true, false, false)),
  task_tracker: tool('task_tracker', 'TaskTracker', 'Plan and track the tasks of the work.', hints(false, false, true, false), false),
  finish: tool('finish', 'Finish', 'Finish the task.', hints(true, false, true, false)),
  think: tool('think', 'Think', 'Think about something, without changing anything.', hints(true, false, true, false), false),
});
/** The built-in tools every agent has, after the ones it names. */
const BUILT_IN = ['finish', 'think'] as const;
/** The tools of an agent that names none (an app server's conversation). */
const DEFAULT_TOOLS = ['terminal', 'file_editor', 'task_tracker'] as const;

/** A tool's name as the table has it: `TerminalTool` → `terminal`. */
const nameOf = (name: string) =>
  name.endsWith('Tool')
    ? name
        .slice(0, -4)
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase()
    : name;

/** The system prompt's fields for each tool list, made once per list. */
const prompts = new Map<string, Omit<AgentEvent, 'id' | 'timestamp'>>();
/** Most tool lists whose prompt is kept. */
const KEPT_PROMPTS = 256;

/** The `SystemPromptEvent` of an agent whose start request names `tools` (`null`: none named), a frozen constant per list. */
export function systemPromptFor(tools: readonly string[] | null): Omit<AgentEvent, 'id' | 'timestamp'> {
  const names = [...new Set([...(tools ?? DEFAULT_TOOLS).map(nameOf), ...BUILT_IN])].filter((name) => name in TOOLS);
  const key = names.join(',');
  let prompt = prompts.get(key);
  if (!prompt) {
    prompt = Object.freeze({
      kind: 'SystemPromptEvent',
      source: 'agent',
      system_prompt: { cache_prompt: false, type: 'text', text: PROMPT },
      tools: names.map((name) => TOOLS[name]),
    });
    if (prompts.size >= KEPT_PROMPTS) prompts.clear();
    prompts.set(key, prompt);
  }
  return prompt;
}

/** The system prompt of an agent that names no tools (an app server's conversation). */
export const SYSTEM_PROMPT: Omit<AgentEvent, 'id' | 'timestamp'> = systemPromptFor(null);
