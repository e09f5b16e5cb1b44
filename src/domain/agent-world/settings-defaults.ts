/**
 * The defaults of the agent server's settings as openhands-agent-server 1.58.2 writes them:
 * `LLM()`, `OpenHandsAgentSettings()`, `ACPAgentSettings()` and `ConversationSettings()`
 * (openhands-sdk `settings/model.py`, `llm/llm.py`, `context/agent_context.py`), every field in
 * their order. Their bounds and merge are `settings-model.ts`'s.
 */

/** `AGENT_SETTINGS_SCHEMA_VERSION`. */
export const AGENT_SETTINGS_SCHEMA_VERSION = 9;
/** The model of a fresh agent server's LLM (`LLM.model`'s default). */
export const DEFAULT_LLM_MODEL = 'gpt-5.6';
/** The LLM fields that are secrets: answered `**********` when set. */
export const LLM_SECRET_FIELDS = ['api_key', 'aws_access_key_id', 'aws_secret_access_key', 'aws_session_token'] as const;

/** `LLM()`: a fresh LLM, every field as 1.58.2 writes it. */
export function defaultLlmSettings(): Record<string, unknown> {
  return {
    model: DEFAULT_LLM_MODEL,
    api_key: null,
    provider_connection_id: null,
    auth_type: 'api_key',
    subscription_vendor: null,
    base_url: null,
    api_version: null,
    aws_access_key_id: null,
    aws_secret_access_key: null,
    aws_session_token: null,
    aws_region_name: null,
    aws_profile_name: null,
    aws_role_name: null,
    aws_session_name: null,
    aws_bedrock_runtime_endpoint: null,
    openrouter_site_url: 'https://docs.all-hands.dev/',
    openrouter_app_name: 'OpenHands',
    num_retries: 5,
    retry_multiplier: 8.0,
    retry_min_wait: 8,
    retry_max_wait: 64,
    timeout: 300,
    stream_idle_timeout: 300.0,
    max_message_chars: 30000,
    temperature: null,
    top_p: null,
    top_k: null,
    max_input_tokens: null,
    max_output_tokens: null,
    model_canonical_name: null,
    api_mode: 'auto',
    capability_overrides: {},
    extra_headers: null,
    input_cost_per_token: null,
    output_cost_per_token: null,
    ollama_base_url: null,
    stream: false,
    drop_params: true,
    disable_vision: null,
    disable_stop_word: false,
    caching_prompt: true,
    log_completions: false,
    log_completions_folder: 'logs/completions',
    custom_tokenizer: null,
    native_tool_calling: true,
    force_string_serializer: null,
    inline_image_urls: null,
    reasoning_effort: 'high',
    reasoning_summary: null,
    enable_encrypted_reasoning: true,
    prompt_cache_retention: '24h',
    extended_thinking_budget: 200000,
    seed: null,
    usage_id: 'default',
    litellm_extra_body: {},
    is_subscription: false,
  };
}

/** The defaults of the condenser (`LLMSummarizingCondenserSettings()`; a no-op condenser keeps only its kind and `enabled`). */
function condenserDefaults(): Record<string, unknown> {
  return {
    condenser_kind: 'llm_summarizing',
    enabled: true,
    max_size: 240,
    max_tokens: null,
    keep_first: 2,
    minimum_progress: 0.1,
    hard_context_reset_max_retries: 5,
    hard_context_reset_context_scaling: 0.8,
  };
}

/** A file an ACP agent reads a secret from (`ACPFileSecret`). */
const fileSecret = (
  secret_name: string,
  filename: string,
  env_var: string,
  subdir: string,
  env_points_to: string,
  warn: string[] = [],
) => ({
  secret_name,
  filename,
  env_var,
  subdir,
  env_points_to,
  warn_if_unset: warn,
});

/** The defaults of each variant (`OpenHandsAgentSettings()`, `ACPAgentSettings()`); `now` is the agent context's current time. */
export function agentSettingsDefaults(kind: unknown, now: string): Record<string, unknown> {
  if (kind === 'acp') {
    return {
      schema_version: AGENT_SETTINGS_SCHEMA_VERSION,
      agent_kind: 'acp',
      acp_server: 'claude-code',
      acp_command: [],
      acp_args: [],
      acp_model: null,
      acp_session_mode: null,
      acp_prompt_timeout: 1800.0,
      acp_startup_timeout: 90.0,
      mcp_config: {},
      acp_isolate_data_dir: false,
      acp_file_secrets: [
        fileSecret('CODEX_AUTH_JSON', 'auth.json', 'CODEX_HOME', 'codex', 'dir'),
        fileSecret(
          'GOOGLE_APPLICATION_CREDENTIALS_JSON',
          'gcloud-credentials.json',
          'GOOGLE_APPLICATION_CREDENTIALS',
          'gemini-cli',
          'file',
          ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION'],
        ),
        fileSecret('KIMI_CODE_CONFIG_TOML', 'config.toml', 'KIMI_CODE_HOME', 'kimi-code', 'dir'),
        fileSecret('PI_AUTH_JSON', 'auth.json', 'PI_CODING_AGENT_DIR', 'pi', 'dir'),
      ],
      agent_context: null,
    };
  }
  return {
    schema_version: AGENT_SETTINGS_SCHEMA_VERSION,
    agent_kind: kind === 'llm' ? 'llm' : 'openhands',
    agent: 'CodeActAgent',
    llm: defaultLlmSettings(),
    tools: null,
    enable_classify_and_switch_llm_tool: false,
    active_meta_profile: null,
    meta_profile: null,
    meta_profile_llms: {},
    tool_concurrency_limit: 1,
    mcp_config: {},
    persona: null,
    agent_context: {
      skills: [],
      system_message_suffix: null,
      user_message_suffix: null,
      load_user_skills: false,
      load_public_skills: false,
      marketplace_path: 'marketplaces/default.json',
      registered_marketplaces: [],
      load_project_skills: false,
      load_memory: false,
      disabled_skills: [],
      secrets: null,
      current_datetime: now,
    },
    condenser: condenserDefaults(),
    verification: {
      critic_enabled: false,
      critic_mode: 'finish_and_message',
      enable_iterative_refinement: false,
      critic_threshold: 0.6,
      max_refinement_iterations: 3,
      critic_server_url: null,
      critic_model_name: null,
      critic_api_key: null,
    },
  };
}

/** `ConversationSettings()`. */
export function conversationSettingsDefaults(): Record<string, unknown> {
  return {
    schema_version: 1,
    max_iterations: 500,
    confirmation_mode: false,
    security_analyzer: 'llm',
    default_runtime: 'local',
    worktree_base: 'default_branch',
    worktree_base_ref: null,
    worktree_branch_prefix: 'openhands/',
    container_memory: null,
    container_cpus: null,
    container_browser: true,
  };
}
