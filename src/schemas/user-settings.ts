/**
 * The user's settings, as both generations of the app server read and write them: the legacy
 * `Settings` / `GETSettingsModel` (openhands `storage/data_models/settings.py`, `server/settings.py`,
 * Nov 2025) and the newest `GETSettingsModel` of `/api/v1/settings` (`app-server.openapi.json`),
 * over one stored record. Secrets (`llm_api_key`, `search_api_key`, `sandbox_api_key`, a profile's
 * `api_key`) are stored and never answered: the `*_set` flags say whether one is there.
 */
import { z } from 'zod';
import { ProviderType } from './common.js';
import { LaxBool, laxInt, type PydanticErrorParams } from './helpers.js';
import { ProviderTokens } from './legacy.js';
import { MCPConfig } from './mcp.js';

const nullableString = z.string().nullable();
const LaxNumber = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value), z.number());

/** One saved LLM profile: its model, base URL and key (the key is a secret). */
export const LLMProfile = z.object({
  model: z.string().nullable().default(null),
  base_url: z.string().nullable().default(null),
  api_key: z.string().nullable().default(null),
}).loose();
export type LLMProfile = z.output<typeof LLMProfile>;

/** What is stored: every field either generation has, flat (secrets included, never answered). */
export const UserSettingsRecord = z.strictObject({
  language: nullableString.default(null),
  agent: nullableString.default(null),
  max_iterations: z.int().nullable().default(null),
  security_analyzer: nullableString.default(null),
  confirmation_mode: z.boolean().nullable().default(null),
  llm_model: nullableString.default(null),
  llm_api_key: nullableString.default(null),
  llm_base_url: nullableString.default(null),
  remote_runtime_resource_factor: z.int().nullable().default(null),
  enable_default_condenser: z.boolean().default(true),
  enable_sound_notifications: z.boolean().default(false),
  enable_proactive_conversation_starters: z.boolean().default(true),
  enable_solvability_analysis: z.boolean().default(true),
  user_consents_to_analytics: z.boolean().nullable().default(null),
  sandbox_base_container_image: nullableString.default(null),
  sandbox_runtime_container_image: nullableString.default(null),
  mcp_config: MCPConfig.nullable().default(null),
  search_api_key: nullableString.default(null),
  sandbox_api_key: nullableString.default(null),
  max_budget_per_task: z.number().nullable().default(null),
  condenser_max_size: z.int().nullable().default(null),
  email: nullableString.default(null),
  email_verified: z.boolean().nullable().default(null),
  git_user_name: nullableString.default(null),
  git_user_email: nullableString.default(null),
  // The newest generation's own fields.
  user_version: z.int().nullable().default(null),
  disabled_skills: z.array(z.string()).nullable().default(null),
  title_llm_profile: nullableString.default(null),
  git_full_clone: z.boolean().default(false),
  v1_enabled: z.boolean().default(true),
  sandbox_grouping_strategy: z.enum(['NO_GROUPING', 'GROUP_BY_NEWEST', 'LEAST_RECENTLY_USED', 'FEWEST_CONVERSATIONS', 'ADD_TO_ANY']).default('NO_GROUPING'),
  default_sandbox_spec_id: nullableString.default(null),
  /** Agent settings besides the LLM's model, base URL and key (which are the flat `llm_*` fields). */
  agent_settings_extra: z.record(z.string(), z.unknown()).default({}),
  llm_profiles: z.record(z.string(), LLMProfile).default({}),
  active_llm_profile: nullableString.default(null),
});
export type UserSettingsRecord = z.output<typeof UserSettingsRecord>;

const CONDENSER_MESSAGE = 'Value error, condenser_max_size must be at least 20';
const condenserMaxSize = laxInt(z.int()).nullable().optional().superRefine((value, ctx) => {
  if (value !== null && value !== undefined && value < 20) {
    ctx.addIssue({ code: 'custom', message: CONDENSER_MESSAGE, input: value, params: { pydantic: { type: 'value_error', msg: CONDENSER_MESSAGE, ctx: { error: {} } } } satisfies PydanticErrorParams });
  }
});

/**
 * `POST /api/settings` (`Settings`): every field optional, unknown ones ignored as pydantic does;
 * `condenser_max_size` at least 20.
 */
export const LegacySettingsInput = z.object({
  language: nullableString.optional(),
  agent: nullableString.optional(),
  max_iterations: laxInt(z.int()).nullable().optional(),
  security_analyzer: nullableString.optional(),
  confirmation_mode: LaxBool.nullable().optional(),
  llm_model: nullableString.optional(),
  llm_api_key: nullableString.optional(),
  llm_base_url: nullableString.optional(),
  remote_runtime_resource_factor: laxInt(z.int()).nullable().optional(),
  /** The legacy place of provider tokens: the real server moves them to the secrets store (`invalidate_legacy_secrets_store`). */
  secrets_store: z.looseObject({ provider_tokens: ProviderTokens.optional() }).nullable().optional(),
  enable_default_condenser: LaxBool.optional(),
  enable_sound_notifications: LaxBool.optional(),
  enable_proactive_conversation_starters: LaxBool.optional(),
  enable_solvability_analysis: LaxBool.optional(),
  user_consents_to_analytics: LaxBool.nullable().optional(),
  sandbox_base_container_image: nullableString.optional(),
  sandbox_runtime_container_image: nullableString.optional(),
  mcp_config: MCPConfig.nullable().optional(),
  search_api_key: nullableString.optional(),
  sandbox_api_key: nullableString.optional(),
  max_budget_per_task: LaxNumber.nullable().optional(),
  condenser_max_size: condenserMaxSize,
  email: nullableString.optional(),
  email_verified: LaxBool.nullable().optional(),
  git_user_name: nullableString.optional(),
  git_user_email: nullableString.optional(),
});
export type LegacySettingsInput = z.output<typeof LegacySettingsInput>;

/** `GET /api/settings` (`GETSettingsModel`, Nov 2025): the settings without their secrets, with `*_set` flags. */
export const LegacySettingsView = z.object({
  language: nullableString,
  agent: nullableString,
  max_iterations: z.int().nullable(),
  security_analyzer: nullableString,
  confirmation_mode: z.boolean().nullable(),
  llm_model: nullableString,
  llm_api_key: z.string().nullable(),
  llm_base_url: nullableString,
  remote_runtime_resource_factor: z.int().nullable(),
  secrets_store: z.object({ provider_tokens: z.object({}) }),
  enable_default_condenser: z.boolean(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  enable_solvability_analysis: z.boolean(),
  user_consents_to_analytics: z.boolean().nullable(),
  sandbox_base_container_image: nullableString,
  sandbox_runtime_container_image: nullableString,
  mcp_config: MCPConfig.nullable(),
  search_api_key: z.string().nullable(),
  sandbox_api_key: z.string().nullable(),
  max_budget_per_task: z.number().nullable(),
  condenser_max_size: z.int().nullable(),
  email: nullableString,
  email_verified: z.boolean().nullable(),
  git_user_name: nullableString,
  git_user_email: nullableString,
  provider_tokens_set: z.partialRecord(ProviderType, z.string().nullable()).nullable(),
  llm_api_key_set: z.boolean(),
  search_api_key_set: z.boolean(),
});
export type LegacySettingsView = z.output<typeof LegacySettingsView>;

/** `ConversationSettings` of the newest generation. */
export const ConversationSettings = z.object({
  schema_version: z.int().min(1).default(1),
  max_iterations: z.int().min(1).default(500),
  confirmation_mode: z.boolean().default(false),
  security_analyzer: z.enum(['llm', 'none']).nullable().default('llm'),
});

/** A plugin marketplace the user registered or inherited (`MarketplaceRegistration`). */
export const MarketplaceRegistration = z.object({
  name: z.string(), source: z.string(), ref: z.string().nullable(), repo_path: z.string().nullable(), auto_load: z.boolean(), scope: z.enum(['instance', 'org', 'personal']).nullable(),
});

/** `GET /api/v1/settings` (the newest `GETSettingsModel`): secrets never answered, `*_set` flags instead. */
export const SettingsView = z.object({
  language: nullableString,
  user_version: z.int().nullable(),
  remote_runtime_resource_factor: z.int().nullable(),
  secrets_store: z.unknown(),
  enable_sound_notifications: z.boolean(),
  enable_proactive_conversation_starters: z.boolean(),
  user_consents_to_analytics: z.boolean().nullable(),
  sandbox_base_container_image: nullableString,
  sandbox_runtime_container_image: nullableString,
  disabled_skills: z.array(z.string()).nullable(),
  search_api_key: z.string().nullable(),
  sandbox_api_key: z.string().nullable(),
  max_budget_per_task: z.number().nullable(),
  email: nullableString,
  email_verified: z.boolean().nullable(),
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
  active_agent_profile_revision: z.int().nullable(),
  registered_marketplaces: z.array(MarketplaceRegistration),
  inherited_marketplaces: z.array(MarketplaceRegistration),
  provider_tokens_set: z.partialRecord(ProviderType, z.string().nullable()).nullable(),
  llm_api_key_set: z.boolean(),
  search_api_key_set: z.boolean(),
});
export type SettingsView = z.output<typeof SettingsView>;

/** `POST /api/v1/settings`: a partial update of the newest fields; `agent_settings.llm` and `conversation_settings` nest as the view does; unknown keys are refused. */
export const SettingsUpdate = z.strictObject({
  language: nullableString.optional(),
  user_version: z.int().nullable().optional(),
  remote_runtime_resource_factor: z.int().nullable().optional(),
  enable_sound_notifications: z.boolean().optional(),
  enable_proactive_conversation_starters: z.boolean().optional(),
  user_consents_to_analytics: z.boolean().nullable().optional(),
  sandbox_base_container_image: nullableString.optional(),
  sandbox_runtime_container_image: nullableString.optional(),
  disabled_skills: z.array(z.string()).nullable().optional(),
  search_api_key: nullableString.optional(),
  sandbox_api_key: nullableString.optional(),
  max_budget_per_task: z.number().nullable().optional(),
  email: nullableString.optional(),
  git_user_name: nullableString.optional(),
  git_user_email: nullableString.optional(),
  title_llm_profile: nullableString.optional(),
  git_full_clone: z.boolean().optional(),
  v1_enabled: z.boolean().optional(),
  agent_settings: z.looseObject({
    agent: z.string().optional(),
    llm: z.looseObject({ model: nullableString.optional(), base_url: nullableString.optional(), api_key: nullableString.optional() }).optional(),
  }).optional(),
  conversation_settings: z.strictObject({
    max_iterations: z.int().min(1).optional(),
    confirmation_mode: z.boolean().optional(),
    security_analyzer: z.enum(['llm', 'none']).nullable().optional(),
  }).optional(),
  sandbox_grouping_strategy: UserSettingsRecord.shape.sandbox_grouping_strategy.optional(),
  default_sandbox_spec_id: nullableString.optional(),
});
export type SettingsUpdate = z.output<typeof SettingsUpdate>;

/** A profile name, as the path and `new_name` take it. */
export const ProfileName = z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]{1,64}$/);

/** `POST /api/v1/settings/profiles/{name}` (`SaveProfileRequest`): the given LLM, or the current one. */
export const SaveProfileRequest = z.object({
  include_secrets: z.boolean().default(true),
  llm: z.strictObject({ model: z.string(), base_url: nullableString.optional(), api_key: nullableString.optional() }).nullable().default(null),
  preserve_existing_api_key: z.boolean().default(false),
});

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
