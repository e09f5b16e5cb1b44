/**
 * The agent server's settings model as openhands-agent-server 1.58.2 writes it: every field of
 * `OpenHandsAgentSettings` (the LLM's every option, tools, the meta-profile fields, MCP, the agent
 * context, the condenser, verification) or of `ACPAgentSettings`, and of `ConversationSettings`
 * (iterations, confirmation, the runtime, worktree and container fields), with 1.58.2's defaults
 * and bounds (openhands-sdk `settings/model.py`, `llm/llm.py`, `context/agent_context.py`). A diff
 * is an RFC 7386 merge patch for the agent settings (`apply_agent_settings_diff`, `_merge_patch`: a
 * `null` anywhere resets the key to its default; a new `agent_kind` starts from that variant's
 * defaults) and a deep merge for the conversation settings (`_deep_merge`: a `null` on a field is
 * validated). Unknown keys are dropped, as pydantic ignores them.
 */
import * as z from 'zod/mini';
import { agentSettingsDefaults, conversationSettingsDefaults } from './settings-defaults.js';

export {
  AGENT_SETTINGS_SCHEMA_VERSION,
  agentSettingsDefaults,
  conversationSettingsDefaults,
  DEFAULT_LLM_MODEL,
  defaultLlmSettings,
  LLM_SECRET_FIELDS,
} from './settings-defaults.js';

const nullableString = z.nullable(z.string());
const int = (min: number) => z.int().check(z.gte(min));
const nonNegative = z.number().check(z.gte(0));
const between = (low: number, high: number) => z.number().check(z.gt(low), z.lt(high));

/** `LLM`: its fields in 1.58.2's order, with their bounds. */
const LLMSettings = z.object({
  model: z.string(),
  api_key: nullableString,
  provider_connection_id: nullableString,
  auth_type: z.enum(['api_key', 'subscription']),
  subscription_vendor: z.nullable(z.literal('openai')),
  base_url: nullableString,
  api_version: nullableString,
  aws_access_key_id: nullableString,
  aws_secret_access_key: nullableString,
  aws_session_token: nullableString,
  aws_region_name: nullableString,
  aws_profile_name: nullableString,
  aws_role_name: nullableString,
  aws_session_name: nullableString,
  aws_bedrock_runtime_endpoint: nullableString,
  openrouter_site_url: z.string(),
  openrouter_app_name: z.string(),
  num_retries: int(0),
  retry_multiplier: nonNegative,
  retry_min_wait: int(0),
  retry_max_wait: int(0),
  timeout: z.nullable(int(0)),
  stream_idle_timeout: z.nullable(nonNegative),
  max_message_chars: int(1),
  temperature: z.nullable(nonNegative),
  top_p: z.nullable(z.number().check(z.gte(0), z.lte(1))),
  top_k: z.nullable(nonNegative),
  max_input_tokens: z.nullable(int(1)),
  max_output_tokens: z.nullable(int(1)),
  model_canonical_name: nullableString,
  api_mode: z.enum(['auto', 'chat', 'responses']),
  capability_overrides: z.record(z.string(), z.union([z.boolean(), z.string()])),
  extra_headers: z.nullable(z.record(z.string(), z.string())),
  input_cost_per_token: z.nullable(nonNegative),
  output_cost_per_token: z.nullable(nonNegative),
  ollama_base_url: nullableString,
  stream: z.boolean(),
  drop_params: z.boolean(),
  disable_vision: z.nullable(z.boolean()),
  disable_stop_word: z.nullable(z.boolean()),
  caching_prompt: z.boolean(),
  log_completions: z.boolean(),
  log_completions_folder: z.string(),
  custom_tokenizer: nullableString,
  native_tool_calling: z.boolean(),
  force_string_serializer: z.nullable(z.boolean()),
  inline_image_urls: z.nullable(z.boolean()),
  reasoning_effort: nullableString,
  reasoning_summary: z.nullable(z.enum(['auto', 'concise', 'detailed'])),
  enable_encrypted_reasoning: z.boolean(),
  prompt_cache_retention: nullableString,
  extended_thinking_budget: z.nullable(z.int()),
  seed: z.nullable(z.int()),
  usage_id: z.string(),
  litellm_extra_body: z.record(z.string(), z.unknown()),
  // A property written on every dump, never read from a diff.
  is_subscription: z.pipe(
    z.transform(() => false),
    z.boolean(),
  ),
});

/** `AgentContext`: skills, message suffixes, what it loads, its secrets and the current time. */
const AgentContextSettings = z.object({
  skills: z.array(z.unknown()),
  system_message_suffix: nullableString,
  user_message_suffix: nullableString,
  load_user_skills: z.boolean(),
  load_public_skills: z.boolean(),
  marketplace_path: nullableString,
  registered_marketplaces: z.array(z.unknown()),
  load_project_skills: z.boolean(),
  load_memory: z.boolean(),
  disabled_skills: z.array(z.string()),
  secrets: z.nullable(z.record(z.string(), z.unknown())),
  current_datetime: nullableString,
});

/** `LLMSummarizingCondenserSettings` (`max_size` at least 20) or `NoOpCondenserSettings` (no size of its own). */
const CondenserSettings = z.union([
  z.object({
    condenser_kind: z.literal('llm_summarizing'),
    enabled: z.boolean(),
    max_size: int(20),
    max_tokens: z.nullable(z.int().check(z.gt(0))),
    keep_first: int(0),
    minimum_progress: between(0, 1),
    hard_context_reset_max_retries: z.int().check(z.gt(0)),
    hard_context_reset_context_scaling: between(0, 1),
  }),
  z.object({ condenser_kind: z.literal('no_op'), enabled: z.boolean() }),
]);

/** `VerificationSettings`: the critic. */
const VerificationSettings = z.object({
  critic_enabled: z.boolean(),
  critic_mode: z.enum(['finish_and_message', 'all_actions']),
  enable_iterative_refinement: z.boolean(),
  critic_threshold: z.number().check(z.gte(0), z.lte(1)),
  max_refinement_iterations: int(1),
  critic_server_url: nullableString,
  critic_model_name: nullableString,
  critic_api_key: nullableString,
});

/** An MCP server: remote (`url`) or stdio (`command`), its other fields as given. */
const McpServer = z
  .looseObject({ url: z.optional(z.string()), command: z.optional(z.string()) })
  .check(z.refine((s) => typeof s.url === 'string' || typeof s.command === 'string'));
/** The MCP servers by name, or under `mcpServers` (fastmcp's `MCPConfig`, which Agent Canvas reads too). */
const McpConfig = z.union([z.looseObject({ mcpServers: z.record(z.string(), McpServer) }), z.record(z.string(), McpServer)]);

/** `OpenHandsAgentSettings`, in 1.58.2's order. */
const OpenHandsAgentSettings = z.object({
  schema_version: int(1),
  agent_kind: z.enum(['openhands', 'llm']),
  agent: z.string(),
  llm: LLMSettings,
  tools: z.nullable(z.array(z.looseObject({ name: z.string() }))),
  enable_classify_and_switch_llm_tool: z.boolean(),
  active_meta_profile: nullableString,
  meta_profile: z.nullable(z.record(z.string(), z.unknown())),
  meta_profile_llms: z.record(z.string(), z.record(z.string(), z.unknown())),
  tool_concurrency_limit: int(1),
  mcp_config: McpConfig,
  persona: z.nullable(z.string().check(z.minLength(1), z.maxLength(65536))),
  agent_context: AgentContextSettings,
  condenser: CondenserSettings,
  verification: VerificationSettings,
});

/** `ACPAgentSettings`, in 1.58.2's order (its file secrets as given). */
const AcpAgentSettings = z.object({
  schema_version: int(1),
  agent_kind: z.literal('acp'),
  acp_server: z.string(),
  acp_command: z.array(z.string()),
  acp_args: z.array(z.string()),
  acp_model: nullableString,
  acp_session_mode: nullableString,
  acp_prompt_timeout: z.number().check(z.gt(0)),
  acp_startup_timeout: z.number().check(z.gt(0)),
  mcp_config: McpConfig,
  acp_isolate_data_dir: z.boolean(),
  acp_file_secrets: z.array(z.record(z.string(), z.unknown())),
  agent_context: z.nullable(AgentContextSettings),
});

/** `ConversationSettings`, in 1.58.2's order. */
const ConversationSettings = z
  .object({
    schema_version: int(1),
    max_iterations: int(1),
    confirmation_mode: z.boolean(),
    security_analyzer: z.nullable(z.enum(['llm', 'none'])),
    default_runtime: z.enum(['local', 'worktree', 'docker']),
    worktree_base: z.enum(['default_branch', 'head', 'ref']),
    worktree_base_ref: z.nullable(z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/))),
    worktree_branch_prefix: z.string().check(z.regex(/^([A-Za-z0-9][A-Za-z0-9._/-]*)?$/)),
    container_memory: z.nullable(z.string().check(z.regex(/^\d+(\.\d+)? ?[kKmMgGtTpP]?[iI]?[bB]?$/))),
    container_cpus: z.nullable(z.number().check(z.gte(0.01))),
    container_browser: z.boolean(),
  })
  // `_ref_for_ref_base`: worktrees branched from a ref need the ref.
  .check(z.refine((s) => s.worktree_base !== 'ref' || s.worktree_base_ref !== null));

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 7386 merge patch (`_merge_patch`): nested objects merge, `null` removes a key, anything else replaces. */
export function mergePatch(base: Record<string, unknown>, diff: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(diff)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = mergePatch(out[key] as Record<string, unknown>, value);
    else out[key] = value;
  }
  return out;
}

/**
 * `value` laid over `defaults`, key by key where both are objects (a key `value` lacks takes its
 * default, so a key a patch removed reads its default again); the defaults' order first.
 */
export function withDefaults(defaults: Record<string, unknown>, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [key, given] of Object.entries(value)) {
    out[key] = isObject(given) && isObject(defaults[key]) ? withDefaults(defaults[key] as Record<string, unknown>, given) : given;
  }
  return out;
}

/** What of `value` differs from `defaults`, key by key where both are objects (what is worth storing). */
export function differences(defaults: Record<string, unknown>, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, given] of Object.entries(value)) {
    const fallback = defaults[key];
    if (isObject(given) && isObject(fallback)) {
      const inner = differences(fallback, given);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else if (!(key in defaults) || JSON.stringify(given) !== JSON.stringify(fallback)) out[key] = given;
  }
  return out;
}

/** The complete agent settings of `stored` (its variant's defaults under it), or `null` when they cannot be valid. */
export function validAgentSettings(stored: Record<string, unknown>, now: string): Record<string, unknown> | null {
  const kind = stored.agent_kind ?? 'openhands';
  const full = withDefaults(agentSettingsDefaults(kind, now), stored);
  const parsed = (kind === 'acp' ? AcpAgentSettings : OpenHandsAgentSettings).safeParse(full);
  return parsed.success ? (parsed.data as Record<string, unknown>) : null;
}

/** The complete conversation settings of `stored`, or `null` when they cannot be valid. */
export function validConversationSettings(stored: Record<string, unknown>): Record<string, unknown> | null {
  const parsed = ConversationSettings.safeParse({ ...conversationSettingsDefaults(), ...stored });
  return parsed.success ? (parsed.data as Record<string, unknown>) : null;
}
