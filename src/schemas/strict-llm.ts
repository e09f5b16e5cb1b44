/**
 * `StrictLLM`: the LLM a saved profile holds, as the newest app server reads it (openhands
 * `app_server/settings/llm_profiles.py`, the SDK's `LLM` with unknown keys forbidden; its fields and
 * bounds as `app-server.openapi.json`, Aug 2026, declares them). Every field is optional: a profile
 * stores what it is given, and the fake's scripted agent reads only the model, base URL and key.
 * `api_key` and the AWS credentials are secrets: stored, never answered.
 */
import * as z from 'zod/mini';

const nullableString = z.nullable(z.string());
const atLeast = (min: number) => z.int().check(z.gte(min));
const nonNegative = z.number().check(z.gte(0));

/** `FallbackStrategy`: the profiles an LLM falls back to. */
export const FallbackStrategy = z.strictObject({
  fallback_llms: z.array(z.string()),
  profile_store_dir: z.optional(nullableString),
});

/** `StrictLLM`: every LLM option the SDK has, unknown keys refused (`extra_forbidden`). */
export const StrictLLM = z.strictObject({
  model: z.optional(z.string()),
  api_key: z.optional(nullableString),
  auth_type: z.optional(z.enum(['api_key', 'subscription'])),
  subscription_vendor: z.optional(z.nullable(z.literal('openai'))),
  base_url: z.optional(nullableString),
  api_version: z.optional(nullableString),
  aws_access_key_id: z.optional(nullableString),
  aws_secret_access_key: z.optional(nullableString),
  aws_session_token: z.optional(nullableString),
  aws_region_name: z.optional(nullableString),
  aws_profile_name: z.optional(nullableString),
  aws_role_name: z.optional(nullableString),
  aws_session_name: z.optional(nullableString),
  aws_bedrock_runtime_endpoint: z.optional(nullableString),
  openrouter_site_url: z.optional(z.string()),
  openrouter_app_name: z.optional(z.string()),
  num_retries: z.optional(atLeast(0)),
  retry_multiplier: z.optional(nonNegative),
  retry_min_wait: z.optional(atLeast(0)),
  retry_max_wait: z.optional(atLeast(0)),
  timeout: z.optional(z.nullable(atLeast(0))),
  max_message_chars: z.optional(atLeast(1)),
  temperature: z.optional(z.nullable(nonNegative)),
  top_p: z.optional(z.nullable(z.number().check(z.gte(0), z.lte(1)))),
  top_k: z.optional(z.nullable(nonNegative)),
  max_input_tokens: z.optional(z.nullable(atLeast(1))),
  max_output_tokens: z.optional(z.nullable(atLeast(1))),
  model_canonical_name: z.optional(nullableString),
  api_mode: z.optional(z.enum(['auto', 'chat', 'responses'])),
  capability_overrides: z.optional(z.record(z.string(), z.union([z.boolean(), z.string()]))),
  extra_headers: z.optional(z.nullable(z.record(z.string(), z.string()))),
  input_cost_per_token: z.optional(z.nullable(nonNegative)),
  output_cost_per_token: z.optional(z.nullable(nonNegative)),
  ollama_base_url: z.optional(nullableString),
  stream: z.optional(z.boolean()),
  drop_params: z.optional(z.boolean()),
  modify_params: z.optional(z.boolean()),
  disable_vision: z.optional(z.nullable(z.boolean())),
  disable_stop_word: z.optional(z.nullable(z.boolean())),
  caching_prompt: z.optional(z.boolean()),
  log_completions: z.optional(z.boolean()),
  log_completions_folder: z.optional(z.string()),
  custom_tokenizer: z.optional(nullableString),
  native_tool_calling: z.optional(z.boolean()),
  force_string_serializer: z.optional(z.nullable(z.boolean())),
  inline_image_urls: z.optional(z.nullable(z.boolean())),
  reasoning_effort: z.optional(z.nullable(z.enum(['low', 'medium', 'high', 'xhigh', 'none']))),
  reasoning_summary: z.optional(z.nullable(z.enum(['auto', 'concise', 'detailed']))),
  enable_encrypted_reasoning: z.optional(z.boolean()),
  prompt_cache_retention: z.optional(nullableString),
  extended_thinking_budget: z.optional(z.nullable(z.int())),
  seed: z.optional(z.nullable(z.int())),
  usage_id: z.optional(z.string()),
  litellm_extra_body: z.optional(z.record(z.string(), z.unknown())),
  fallback_strategy: z.optional(z.nullable(FallbackStrategy)),
});
export type StrictLLM = z.output<typeof StrictLLM>;

/** The model a profile saved without one gets (`StrictLLM.model`'s default). */
export const STRICT_LLM_DEFAULT_MODEL = 'gpt-5.5';
