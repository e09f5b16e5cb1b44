/**
 * The user's settings, as both generations of the app server read and write them: the legacy
 * `Settings` / `GETSettingsModel` (openhands `storage/data_models/settings.py`, `server/settings.py`,
 * Nov 2025) and the newest `GETSettingsModel` of `/api/v1/settings` (`app-server.openapi.json`),
 * over one stored record. Secrets (`llm_api_key`, `search_api_key`, `sandbox_api_key`, a profile's
 * `api_key`) are stored and never answered: the `*_set` flags say whether one is there.
 */
import * as z from 'zod/mini';
import { ProviderType } from './common.js';
import { LaxBool, laxInt, type PydanticErrorParams } from './helpers.js';
import { ProviderTokens } from './legacy.js';
import { MCPConfig } from './mcp.js';
import { StrictLLM } from './strict-llm.js';

const nullableString = z.nullable(z.string());
const LaxNumber = z.pipe(
  z.transform((value) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value)),
  z.number(),
);

/** One saved LLM profile: its model, base URL and key (the key is a secret). */
export const LLMProfile = z.looseObject({
  model: z._default(z.nullable(z.string()), null),
  base_url: z._default(z.nullable(z.string()), null),
  api_key: z._default(z.nullable(z.string()), null),
});
export type LLMProfile = z.output<typeof LLMProfile>;

/** What is stored: every field either generation has, flat (secrets included, never answered). */
export const UserSettingsRecord = z.strictObject({
  language: z._default(nullableString, null),
  agent: z._default(nullableString, null),
  max_iterations: z._default(z.nullable(z.int()), null),
  security_analyzer: z._default(nullableString, null),
  confirmation_mode: z._default(z.nullable(z.boolean()), null),
  llm_model: z._default(nullableString, null),
  llm_api_key: z._default(nullableString, null),
  llm_base_url: z._default(nullableString, null),
  remote_runtime_resource_factor: z._default(z.nullable(z.int()), null),
  enable_default_condenser: z._default(z.boolean(), true),
  enable_sound_notifications: z._default(z.boolean(), false),
  enable_proactive_conversation_starters: z._default(z.boolean(), true),
  enable_solvability_analysis: z._default(z.boolean(), true),
  user_consents_to_analytics: z._default(z.nullable(z.boolean()), null),
  sandbox_base_container_image: z._default(nullableString, null),
  sandbox_runtime_container_image: z._default(nullableString, null),
  mcp_config: z._default(z.nullable(MCPConfig), null),
  search_api_key: z._default(nullableString, null),
  sandbox_api_key: z._default(nullableString, null),
  max_budget_per_task: z._default(z.nullable(z.number()), null),
  condenser_max_size: z._default(z.nullable(z.int()), null),
  email: z._default(nullableString, null),
  email_verified: z._default(z.nullable(z.boolean()), null),
  git_user_name: z._default(nullableString, null),
  git_user_email: z._default(nullableString, null),
  // The newest generation's own fields.
  user_version: z._default(z.nullable(z.int()), null),
  disabled_skills: z._default(z.nullable(z.array(z.string())), null),
  title_llm_profile: z._default(nullableString, null),
  git_full_clone: z._default(z.boolean(), false),
  v1_enabled: z._default(z.boolean(), true),
  sandbox_grouping_strategy: z._default(
    z.enum(['NO_GROUPING', 'GROUP_BY_NEWEST', 'LEAST_RECENTLY_USED', 'FEWEST_CONVERSATIONS', 'ADD_TO_ANY']),
    'NO_GROUPING',
  ),
  default_sandbox_spec_id: z._default(nullableString, null),
  /** Agent settings besides the LLM's model, base URL and key (which are the flat `llm_*` fields). */
  agent_settings_extra: z._default(z.record(z.string(), z.unknown()), {}),
  /** Conversation settings besides the iterations, confirmation mode and analyzer (the runtime, worktree and container fields). */
  conversation_settings_extra: z._default(z.record(z.string(), z.unknown()), {}),
  llm_profiles: z._default(z.record(z.string(), LLMProfile), {}),
  active_llm_profile: z._default(nullableString, null),
});
export type UserSettingsRecord = z.output<typeof UserSettingsRecord>;

const CONDENSER_MESSAGE = 'Value error, condenser_max_size must be at least 20';
const condenserMaxSize = z.optional(z.nullable(laxInt(z.int()))).check(
  z.superRefine((value, ctx) => {
    if (value !== null && value !== undefined && value < 20) {
      ctx.addIssue({
        code: 'custom',
        message: CONDENSER_MESSAGE,
        input: value,
        params: { pydantic: { type: 'value_error', msg: CONDENSER_MESSAGE, ctx: { error: {} } } } satisfies PydanticErrorParams,
      });
    }
  }),
);

/**
 * `POST /api/settings` (`Settings`): every field optional, unknown ones ignored as pydantic does;
 * `condenser_max_size` at least 20.
 */
export const LegacySettingsInput = z.object({
  language: z.optional(nullableString),
  agent: z.optional(nullableString),
  max_iterations: z.optional(z.nullable(laxInt(z.int()))),
  security_analyzer: z.optional(nullableString),
  confirmation_mode: z.optional(z.nullable(LaxBool)),
  llm_model: z.optional(nullableString),
  llm_api_key: z.optional(nullableString),
  llm_base_url: z.optional(nullableString),
  remote_runtime_resource_factor: z.optional(z.nullable(laxInt(z.int()))),
  /** The legacy place of provider tokens: the real server moves them to the secrets store (`invalidate_legacy_secrets_store`). */
  secrets_store: z.optional(z.nullable(z.looseObject({ provider_tokens: z.optional(ProviderTokens) }))),
  enable_default_condenser: z.optional(LaxBool),
  enable_sound_notifications: z.optional(LaxBool),
  enable_proactive_conversation_starters: z.optional(LaxBool),
  enable_solvability_analysis: z.optional(LaxBool),
  user_consents_to_analytics: z.optional(z.nullable(LaxBool)),
  sandbox_base_container_image: z.optional(nullableString),
  sandbox_runtime_container_image: z.optional(nullableString),
  mcp_config: z.optional(z.nullable(MCPConfig)),
  search_api_key: z.optional(nullableString),
  sandbox_api_key: z.optional(nullableString),
  max_budget_per_task: z.optional(z.nullable(LaxNumber)),
  condenser_max_size: condenserMaxSize,
  email: z.optional(nullableString),
  email_verified: z.optional(z.nullable(LaxBool)),
  git_user_name: z.optional(nullableString),
  git_user_email: z.optional(nullableString),
});
export type LegacySettingsInput = z.output<typeof LegacySettingsInput>;

/** `GET /api/settings` (`GETSettingsModel`, Nov 2025): the settings without their secrets, with `*_set` flags. */
export const LegacySettingsView = z.object({
  language: nullableString,
  agent: nullableString,
  max_iterations: z.nullable(z.int()),
  security_analyzer: nullableString,
  confirmation_mode: z.nullable(z.boolean()),
  llm_model: nullableString,
  llm_api_key: z.nullable(z.string()),
  llm_base_url: nullableString,
  remote_runtime_resource_factor: z.nullable(z.int()),
  secrets_store: z.object({ provider_tokens: z.object({}) }),
  enable_default_condenser: z.boolean(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  enable_solvability_analysis: z.boolean(),
  user_consents_to_analytics: z.nullable(z.boolean()),
  sandbox_base_container_image: nullableString,
  sandbox_runtime_container_image: nullableString,
  mcp_config: z.nullable(MCPConfig),
  search_api_key: z.nullable(z.string()),
  sandbox_api_key: z.nullable(z.string()),
  max_budget_per_task: z.nullable(z.number()),
  condenser_max_size: z.nullable(z.int()),
  email: nullableString,
  email_verified: z.nullable(z.boolean()),
  git_user_name: nullableString,
  git_user_email: nullableString,
  provider_tokens_set: z.nullable(z.partialRecord(ProviderType, z.nullable(z.string()))),
  llm_api_key_set: z.boolean(),
  search_api_key_set: z.boolean(),
});
export type LegacySettingsView = z.output<typeof LegacySettingsView>;

/** `ConversationSettings` of the newest generation. */
export const ConversationSettings = z.object({
  schema_version: z._default(z.int().check(z.gte(1)), 1),
  max_iterations: z._default(z.int().check(z.gte(1)), 500),
  confirmation_mode: z._default(z.boolean(), false),
  security_analyzer: z._default(z.nullable(z.enum(['llm', 'none'])), 'llm'),
});

/** A plugin marketplace the user registered or inherited (`MarketplaceRegistration`). */
export const MarketplaceRegistration = z.object({
  name: z.string(),
  source: z.string(),
  ref: z.nullable(z.string()),
  repo_path: z.nullable(z.string()),
  auto_load: z.boolean(),
  scope: z.nullable(z.enum(['instance', 'org', 'personal'])),
});

/** `GET /api/v1/settings` (the newest `GETSettingsModel`): secrets never answered, `*_set` flags instead. */
export const SettingsView = z.object({
  language: nullableString,
  user_version: z.nullable(z.int()),
  remote_runtime_resource_factor: z.nullable(z.int()),
  secrets_store: z.unknown(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  user_consents_to_analytics: z.nullable(z.boolean()),
  sandbox_base_container_image: nullableString,
  sandbox_runtime_container_image: nullableString,
  disabled_skills: z.nullable(z.array(z.string())),
  search_api_key: z.nullable(z.string()),
  sandbox_api_key: z.nullable(z.string()),
  max_budget_per_task: z.nullable(z.number()),
  email: nullableString,
  email_verified: z.nullable(z.boolean()),
  git_user_name: nullableString,
  git_user_email: nullableString,
  title_llm_profile: nullableString,
  git_full_clone: z.boolean(),
  v1_enabled: z.boolean(),
  agent_settings: z.record(z.string(), z.unknown()),
  conversation_settings: ConversationSettings,
  sandbox_grouping_strategy: UserSettingsRecord.shape.sandbox_grouping_strategy,
  default_sandbox_spec_id: nullableString,
  llm_profiles: z.object({ profiles: z.record(z.string(), z.unknown()), active: nullableString }),
  active_agent_profile_id: nullableString,
  active_agent_profile_revision: z.nullable(z.int()),
  registered_marketplaces: z.array(MarketplaceRegistration),
  inherited_marketplaces: z.array(MarketplaceRegistration),
  provider_tokens_set: z.nullable(z.partialRecord(ProviderType, z.nullable(z.string()))),
  llm_api_key_set: z.boolean(),
  search_api_key_set: z.boolean(),
});
export type SettingsView = z.output<typeof SettingsView>;

/**
 * `POST /api/v1/settings` (settings_router.py, store_settings; settings_models.py, Settings.update):
 * a partial update. The real route reads a free-form object: the `*_diff` objects are deep-merged,
 * a key naming a settings field sets it, any other key is ignored (dropped here). The fake checks the
 * type of each field it reads (a 422 in FastAPI's format; the real one stores what it is given).
 * `agent_settings` and `conversation_settings` are read only to be refused (`LEGACY_NESTED_KEYS`).
 */
export const SettingsUpdate = z.object({
  language: z.optional(nullableString),
  user_version: z.optional(z.nullable(z.int())),
  remote_runtime_resource_factor: z.optional(z.nullable(z.int())),
  enable_sound_notifications: z.optional(z.boolean()),
  enable_proactive_conversation_starters: z.optional(z.boolean()),
  user_consents_to_analytics: z.optional(z.nullable(z.boolean())),
  sandbox_base_container_image: z.optional(nullableString),
  sandbox_runtime_container_image: z.optional(nullableString),
  disabled_skills: z.optional(z.nullable(z.array(z.string()))),
  search_api_key: z.optional(nullableString),
  sandbox_api_key: z.optional(nullableString),
  max_budget_per_task: z.optional(z.nullable(z.number())),
  email: z.optional(nullableString),
  email_verified: z.optional(z.nullable(z.boolean())),
  git_user_name: z.optional(nullableString),
  git_user_email: z.optional(nullableString),
  title_llm_profile: z.optional(nullableString),
  git_full_clone: z.optional(z.boolean()),
  v1_enabled: z.optional(z.boolean()),
  sandbox_grouping_strategy: z.optional(UserSettingsRecord.shape.sandbox_grouping_strategy),
  default_sandbox_spec_id: z.optional(nullableString),
  /** Deep-merged into the agent settings; an `mcp_config` in it replaces the stored one whole. What Agent Canvas sends. */
  agent_settings_diff: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  /** Deep-merged into the conversation settings. */
  conversation_settings_diff: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  /** The older nested shape, refused with a 422 `{error, keys}` whatever it holds. */
  agent_settings: z.optional(z.unknown()),
  /** The older nested shape, refused with a 422 `{error, keys}` whatever it holds. */
  conversation_settings: z.optional(z.unknown()),
});
/** The keys of the older nested shape `POST /api/v1/settings` refuses. */
export const LEGACY_NESTED_KEYS = ['agent_settings', 'conversation_settings'] as const;
export type SettingsUpdate = z.output<typeof SettingsUpdate>;

/** A profile name, as the path and `new_name` take it. */
export const ProfileName = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9._-]{1,64}$/));

/** `POST /api/v1/settings/profiles/{name}` (`SaveProfileRequest`): the given LLM (a `StrictLLM`), or the current one. */
export const SaveProfileRequest = z.object({
  include_secrets: z._default(z.boolean(), true),
  llm: z._default(z.nullable(StrictLLM), null),
  preserve_existing_api_key: z._default(z.boolean(), false),
});
export type SaveProfileRequest = z.output<typeof SaveProfileRequest>;

/** `POST .../rename` (`RenameProfileRequest`). */
export const RenameProfileRequest = z.object({ new_name: ProfileName });

/** A profile in the list (`ProfileInfo`). */
export const ProfileInfo = z.object({ name: z.string(), model: nullableString, base_url: nullableString, api_key_set: z.boolean() });
/** `GET /api/v1/settings/profiles` (`ProfileListResponse`). */
export const ProfileListResponse = z.object({ profiles: z.array(ProfileInfo), active_profile: nullableString });
/** `GET /api/v1/settings/profiles/{name}` (`ProfileDetailResponse`): `config.api_key` always null. */
export const ProfileDetailResponse = z.object({ name: z.string(), config: z.record(z.string(), z.unknown()), api_key_set: z.boolean() });
/** Save, delete and rename answers (`ProfileMutationResponse`). */
export const ProfileMutationResponse = z.object({ name: z.string(), message: z.string() });
/** `POST .../activate` (`ActivateProfileResponse`). */
export const ActivateProfileResponse = z.object({ name: z.string(), message: z.string(), model: nullableString });
