/**
 * The scripted LLM's answers: which turn of which agent script a model request is at, and what the
 * model says there. One agent script (`schemas/agent-script.ts`) serves both the fake's own agent
 * and a real agent server's LLM: here each step is one model turn — a message, a tool call
 * (terminal, file_editor, task_tracker, think, finish, glob, grep, an MCP tool, a client tool), or a
 * provider failure (`fail`: a rate limit, a context window overflow ...). The real agent runs the
 * tools itself, so a step's scripted output is not the model's to say and is left out.
 *
 * Requests carry the whole history, so the answer is derived from the request alone, as a model's
 * is: the script is the first whose `match` the latest user message contains, the turn is the
 * number of assistant turns since that message.
 */
import { type AgentScript, type AgentScriptStep, stepKind } from '../../schemas/agent-script.js';

/** A tool call the model makes: the tool's name and its arguments. */
export interface ToolCallTurn {
  readonly kind: 'tool';
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** A line of text the model says before the call (its "thought"), or none. */
  readonly text: string | null;
}

/** A plain answer: the model says `text` and calls nothing (the agent's run ends on it). */
export interface TextTurn {
  readonly kind: 'text';
  readonly text: string;
}

/** The provider refuses the request: the failure a script's `fail` step names. */
export interface FailureTurn {
  readonly kind: 'failure';
  readonly failure: LlmFailure;
  readonly message: string;
}

/** One answer of the model. */
export type LlmTurn = ToolCallTurn | TextTurn | FailureTurn;

/** The provider failures a script can ask for (each answered with its provider's real status and error body). */
export type LlmFailure = 'rate_limit' | 'context_window' | 'authentication' | 'unavailable' | 'overloaded' | 'server_error';

/** What a turn is read from: the history as the request carries it, whatever the API. */
export interface HistoryView {
  /** The text of the latest user message. */
  readonly lastUserText: string;
  /** Assistant turns since the latest user message. */
  readonly turnsSinceUser: number;
  /** The tools the request lists, by name, with their JSON Schema parameters (`null`: none listed). */
  readonly tools: ReadonlyMap<string, Record<string, unknown>> | null;
  /** Every text of the request (system prompt included), for where the workspace is. */
  readonly allText: string;
}

/** The answer after a script's last step, and of a request no script matches. */
export const DEFAULT_ANSWER = "Hello from fakehands' scripted LLM.";

/** Where a file edit goes when the prompt names no working directory. */
const FALLBACK_WORKING_DIR = '/workspace';

/** The failure a `fail` step's `code` names: by the provider exception names LiteLLM and the SDK use. */
export function failureOf(code: string): LlmFailure {
  const c = code.toLowerCase().replace(/[^a-z]/g, '');
  if (c.includes('ratelimit') || c === '429') return 'rate_limit';
  if (c.includes('contextwindow') || c.includes('contextlength')) return 'context_window';
  if (c.includes('authentication') || c.includes('apikey')) return 'authentication';
  if (c.includes('overloaded')) return 'overloaded';
  if (c.includes('unavailable')) return 'unavailable';
  return 'server_error';
}

/** The script a history follows: the first whose `match` its latest user message contains (case-insensitive), or none. */
export function scriptFor(scripts: readonly AgentScript[], view: HistoryView): AgentScript | null {
  const lower = view.lastUserText.toLowerCase();
  return scripts.find((s) => s.match === undefined || lower.includes(s.match.toLowerCase())) ?? null;
}

/** The working directory the agent's prompt names (`<WORKSPACE>`/"working directory" lines), or `/workspace`. */
export function workingDirOf(view: HistoryView): string {
  const found = /(?:working directory|current directory|workspace)[^/\n]{0,40}(\/[\w./-]+)/i.exec(view.allText);
  return found?.[1]?.replace(/[./]+$/, '') || FALLBACK_WORKING_DIR;
}

/** The model's answer to a history: its script's step at the history's turn, or a plain answer once the script has run out. */
export function nextTurn(scripts: readonly AgentScript[], view: HistoryView): LlmTurn {
  const script = scriptFor(scripts, view);
  const step = script?.steps[view.turnsSinceUser];
  if (!step) return { kind: 'text', text: DEFAULT_ANSWER };
  const turn = turnOfStep(step, view);
  // A request that lists no tools (a title to generate, a summary) cannot be answered with a call: it gets a plain answer.
  if (turn.kind === 'tool' && (view.tools === null || view.tools.size === 0)) return { kind: 'text', text: DEFAULT_ANSWER };
  return turn;
}

/** A tool call turn, with `security_risk` added where the tool's schema asks for it (the SDK's LLM security analyzer). */
function call(view: HistoryView, name: string, args: Record<string, unknown>, text: string | null = null): ToolCallTurn {
  const properties = view.tools?.get(name)?.properties;
  const wantsRisk = typeof properties === 'object' && properties !== null && 'security_risk' in properties;
  return { kind: 'tool', name, arguments: wantsRisk ? { ...args, security_risk: 'LOW' } : args, text };
}

/** The turn one step of a script is: the tool call that makes the real agent publish that step's events. */
export function turnOfStep(step: AgentScriptStep, view: HistoryView): LlmTurn {
  switch (stepKind(step)) {
    case 'message':
      return { kind: 'text', text: (step as { message: string }).message };
    case 'terminal': {
      const { command } = (step as { terminal: { command: string } }).terminal;
      return call(view, 'terminal', { command });
    }
    case 'think':
      return call(view, 'think', { thought: (step as { think: string }).think });
    case 'finish':
      return call(view, 'finish', { message: (step as { finish: string }).finish });
    case 'task_tracker': {
      const { tasks } = (step as { task_tracker: { tasks: { title: string; notes: string; status: string }[] } }).task_tracker;
      return call(view, 'task_tracker', { command: 'plan', task_list: tasks });
    }
    case 'edit':
      return call(view, 'file_editor', {
        command: 'create',
        path: `${workingDirOf(view)}/NOTES.md`,
        file_text: 'Notes written by the scripted LLM.\n',
      });
    case 'str_replace': {
      const { path, old_str, new_str } = (step as { str_replace: { path: string; old_str: string; new_str: string } }).str_replace;
      const absolute = path.startsWith('/') ? path : `${workingDirOf(view)}/${path}`;
      return call(view, 'file_editor', { command: 'str_replace', path: absolute, old_str, new_str });
    }
    case 'glob':
      return call(view, 'glob', { pattern: (step as { glob: { pattern: string } }).glob.pattern });
    case 'grep': {
      const { pattern, include } = (step as { grep: { pattern: string; include?: string } }).grep;
      return call(view, 'grep', include === undefined ? { pattern } : { pattern, include });
    }
    case 'mcp': {
      const { tool, arguments: args } = (step as { mcp: { tool: string; arguments: Record<string, unknown> } }).mcp;
      return call(view, tool, args);
    }
    case 'client_tool': {
      const { name, arguments: args } = (step as { client_tool: { name: string; arguments: Record<string, unknown> } }).client_tool;
      return call(view, name, args);
    }
    case 'skill':
      return call(view, 'invoke_skill', { name: (step as { skill: string }).skill });
    case 'fail': {
      const { code, detail } = (step as { fail: { code: string; detail: string } }).fail;
      return { kind: 'failure', failure: failureOf(code), message: detail };
    }
    default:
      return { kind: 'text', text: `(the scripted LLM has no model turn for a '${stepKind(step)}' step)` };
  }
}

/** The step kinds a model turn stands for (the others are the agent's or the server's own doing). */
export const LLM_STEP_KINDS = Object.freeze([
  'message',
  'terminal',
  'think',
  'finish',
  'task_tracker',
  'edit',
  'str_replace',
  'glob',
  'grep',
  'mcp',
  'client_tool',
  'skill',
  'fail',
] as const);
