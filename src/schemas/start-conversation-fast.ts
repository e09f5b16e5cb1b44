/**
 * A quicker check of the common create body (`POST /api/conversations` with an `agent` and a
 * `workspace`, perhaps `max_iterations` and `stuck_detection`): what `StartConversationRequest`
 * parses it to, built by hand, or `undefined` for any other body, which the schema then checks
 * (issue 31: zod's parse was ~8% of a create's CPU). Hand-written because it is a shortcut of one
 * schema, held to it by `test/agent-server/create-fast-path.test.ts` (the same output, key for key).
 */
import type { StartConversationRequest } from './agent-conversations.js';

/** The top-level keys this check takes; a body with any other key goes to the schema. */
const TAKEN = new Set(['agent', 'workspace', 'max_iterations', 'stuck_detection']);

type Loose = Record<string, unknown>;

const isMap = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A loose object's other keys after its declared ones, in the body's order, as zod's `looseObject`
 * writes them; `false` for a `__proto__` key (left to the schema).
 */
function copyRest(from: Loose, to: Loose, declared: readonly string[]): boolean {
  for (const key in from) {
    if (declared.includes(key)) continue;
    if (key === '__proto__') return false;
    to[key] = from[key];
  }
  return true;
}

/** `LlmSpec`: a model that is a non-empty string, first, the rest as given; one with a temperature goes to the schema. */
function llmOf(given: unknown): Loose | undefined {
  if (!isMap(given) || typeof given.model !== 'string' || given.model === '' || 'temperature' in given) return undefined;
  const llm: Loose = { model: given.model };
  return copyRest(given, llm, ['model']) ? llm : undefined;
}

/** `ToolSpec`s: each an object with a string name, first, the rest as given, in a list of their own. */
function toolsOf(given: unknown): Loose[] | undefined {
  if (!Array.isArray(given)) return undefined;
  const tools: Loose[] = [];
  for (const tool of given) {
    if (!isMap(tool) || typeof tool.name !== 'string') return undefined;
    const parsed: Loose = { name: tool.name };
    if (!copyRest(tool, parsed, ['name'])) return undefined;
    tools.push(parsed);
  }
  return tools;
}

/**
 * `AgentSpec`: an `Agent` (also one with an `llm` and no kind) with its `llm`, or an `ACPAgent`
 * with or without one; its tools; the rest as given. Any other agent goes to the schema.
 */
function agentOf(value: unknown): Loose | undefined {
  if (!isMap(value)) return undefined;
  const kind = 'kind' in value ? value.kind : 'llm' in value ? 'Agent' : undefined;
  if (kind !== 'Agent' && kind !== 'ACPAgent') return undefined;
  const agent: Loose = { kind };
  if ('llm' in value) {
    const llm = llmOf(value.llm);
    if (llm === undefined) return undefined;
    agent.llm = llm;
  } else if (kind === 'Agent') return undefined;
  if ('tools' in value) {
    const tools = toolsOf(value.tools);
    if (tools === undefined) return undefined;
    agent.tools = tools;
  }
  return copyRest(value, agent, ['kind', 'llm', 'tools']) ? agent : undefined;
}

/**
 * The parse of a common create body (a JSON value), equal to `StartConversationRequest`'s, or
 * `undefined` when the body is anything else (the schema decides it, and words its 422).
 */
export function startConversationFastPath(value: unknown): StartConversationRequest | undefined {
  if (!isMap(value)) return undefined;
  for (const key in value) if (!TAKEN.has(key)) return undefined;
  const agent = agentOf(value.agent);
  const workspace = value.workspace;
  if (agent === undefined || !isMap(workspace) || typeof workspace.working_dir !== 'string') return undefined;
  const maxIterations = 'max_iterations' in value ? value.max_iterations : 500;
  if (!Number.isSafeInteger(maxIterations) || (maxIterations as number) < 1) return undefined;
  const stuckDetection = 'stuck_detection' in value ? value.stuck_detection : true;
  if (typeof stuckDetection !== 'boolean') return undefined;
  const parsedWorkspace: Loose = { working_dir: workspace.working_dir };
  if (!copyRest(workspace, parsedWorkspace, ['working_dir'])) return undefined;
  // In the schema's key order: its declared keys, then none (every other key went to the schema).
  return {
    agent,
    workspace: parsedWorkspace,
    max_iterations: maxIterations as number,
    stuck_detection: stuckDetection,
    secrets: {},
    tags: {},
  } as StartConversationRequest;
}
