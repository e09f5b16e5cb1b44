/**
 * The user's settings, one stored record read and written by both generations. Legacy: openhands
 * `server/routes/settings.py` (`load_settings`: 404 `{"error": "Settings not found"}` before the
 * first save, secrets as `*_set` flags; `store_settings` and `store_llm_settings`: a null
 * `llm_api_key`, `llm_model`, `llm_base_url` or `search_api_key` keeps the stored one;
 * `reset_settings`: 410). Newest: `/api/v1/settings` (a partial update; the LLM in
 * `agent_settings.llm`, `conversation_settings`) and its LLM profiles.
 */
import type { ProviderType } from '../../schemas/common.js';
import type { MCPConfig } from '../../schemas/mcp.js';
import { maskUrl, redactMcpConfig, redactSecrets, unmaskedMcpServer } from '../store/redact.js';
import {
  UserSettingsRecord,
  type LegacySettingsInput,
  type LegacySettingsView,
  type LLMProfile,
  type SaveProfileRequest,
  type SettingsUpdate,
  type SettingsView,
} from '../../schemas/user-settings.js';
import type { POSTProviderModel } from '../../schemas/legacy.js';
import { STRICT_LLM_DEFAULT_MODEL } from '../../schemas/strict-llm.js';
import { storeGitProviders } from './git-providers.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

export { defaultUserSettings, userSettings } from './default-settings.js';

/** An MCP configuration as answered: every secret of its servers masked by place (a secret never leaves the fake). */
const maskedMcp = (config: MCPConfig | null): MCPConfig | null => (config === null ? null : redactMcpConfig(config));

/**
 * An MCP configuration saved back from what was answered: each part still masked as answered keeps
 * the stored one of the same server (found by its URL, as given or as answered masked; by name for
 * stdio), so a GET → edit → POST round trip never stores the mask.
 */
export function unmaskedMcp(given: MCPConfig | null | undefined, stored: MCPConfig | null | undefined): MCPConfig | null | undefined {
  if (!given || !stored) return given;
  /** The first of `list` under each key (one pass: then a lookup per server sent back). */
  const index = <T>(list: T[], key: (item: T) => string) => {
    const map = new Map<string, T>();
    for (const item of list) if (!map.has(key(item))) map.set(key(item), item);
    return map;
  };
  const remote = <T extends { url: string }>(list: T[], before: T[]) => {
    const byUrl = index(before, (s) => s.url);
    const byMaskedUrl = index(before, (s) => maskUrl(s.url));
    return list.map((server) => {
      const match = byUrl.get(server.url) ?? byMaskedUrl.get(server.url);
      return match ? unmaskedMcpServer(server, match) : server;
    });
  };
  const byName = index(stored.stdio_servers, (s) => s.name);
  return {
    sse_servers: remote(given.sse_servers, stored.sse_servers),
    shttp_servers: remote(given.shttp_servers, stored.shttp_servers),
    stdio_servers: given.stdio_servers.map((server) => {
      const before = byName.get(server.name);
      return before ? unmaskedMcpServer(server, before) : server;
    }),
  };
}

/** Whether a stored secret is there (a blank one is not, as `api_key_serializer` reads it). */
const isSet = (value: string | null | undefined): boolean => typeof value === 'string' && value.trim() !== '';

/** Which providers have a token (or a user id): provider → host, as `provider_tokens_set` lists them. */
export function providerTokensSet(state: DomainState): Partial<Record<ProviderType, string | null>> {
  const set: Partial<Record<ProviderType, string | null>> = {};
  for (const [provider, token] of Object.entries(state.store.providerTokens) as [
    ProviderType,
    { token: string | null; host: string | null; user_id: string | null },
  ][]) {
    if (token.token || token.user_id) set[provider] = token.host;
  }
  return set;
}

/** The legacy 404 before the first save. */
const notFound = () => new Refusal('not_found', 'Settings not found', { body: { error: 'Settings not found' } });

/** `GET /api/settings`: the settings without secrets, or 404 before the first save. */
export function legacySettings(state: DomainState): LegacySettingsView | Refusal {
  const s = state.store.settings;
  if (!s) return notFound();
  return {
    language: s.language,
    agent: s.agent,
    max_iterations: s.max_iterations,
    security_analyzer: s.security_analyzer,
    confirmation_mode: s.confirmation_mode,
    llm_model: s.llm_model,
    llm_api_key: null,
    llm_base_url: s.llm_base_url,
    remote_runtime_resource_factor: s.remote_runtime_resource_factor,
    secrets_store: { provider_tokens: {} },
    enable_default_condenser: s.enable_default_condenser,
    enable_sound_notifications: s.enable_sound_notifications,
    enable_proactive_conversation_starters: s.enable_proactive_conversation_starters,
    enable_solvability_analysis: s.enable_solvability_analysis,
    user_consents_to_analytics: s.user_consents_to_analytics,
    sandbox_base_container_image: s.sandbox_base_container_image,
    sandbox_runtime_container_image: s.sandbox_runtime_container_image,
    mcp_config: maskedMcp(s.mcp_config),
    search_api_key: null,
    sandbox_api_key: null,
    max_budget_per_task: s.max_budget_per_task,
    condenser_max_size: s.condenser_max_size,
    email: s.email,
    email_verified: s.email_verified,
    git_user_name: s.git_user_name,
    git_user_email: s.git_user_email,
    provider_tokens_set: providerTokensSet(state),
    llm_api_key_set: isSet(s.llm_api_key),
    search_api_key_set: isSet(s.search_api_key),
  };
}

/**
 * `POST /api/settings`: the given settings replace the stored ones (`convert_to_settings`), except
 * that a null LLM key, model, base URL or search key, or analytics consent, keeps the stored one.
 */
export async function storeLegacySettings(state: DomainState, input: LegacySettingsInput): Promise<{ message: string }> {
  const existing = state.store.settings;
  const { secrets_store: legacyStore, ...rest } = input;
  const given = { ...rest, mcp_config: unmaskedMcp(rest.mcp_config, existing?.mcp_config) };
  // Tokens in the legacy secrets_store become provider tokens, as `invalidate_legacy_secrets_store` moves them.
  const tokens = legacyStore?.provider_tokens;
  if (tokens && Object.keys(tokens).length > 0)
    await storeGitProviders(state, { provider_tokens: tokens as POSTProviderModel['provider_tokens'], mcp_config: null });
  const next = UserSettingsRecord.parse({
    // Fields of the newest generation only are kept: a legacy save does not know them.
    ...(existing
      ? {
          user_version: existing.user_version,
          disabled_skills: existing.disabled_skills,
          title_llm_profile: existing.title_llm_profile,
          git_full_clone: existing.git_full_clone,
          v1_enabled: existing.v1_enabled,
          sandbox_grouping_strategy: existing.sandbox_grouping_strategy,
          default_sandbox_spec_id: existing.default_sandbox_spec_id,
          agent_settings_extra: existing.agent_settings_extra,
          llm_profiles: existing.llm_profiles,
          active_llm_profile: existing.active_llm_profile,
        }
      : {}),
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
  });
  if (existing) {
    next.llm_api_key = given.llm_api_key ?? existing.llm_api_key;
    next.llm_model = given.llm_model ?? existing.llm_model;
    next.llm_base_url = given.llm_base_url ?? existing.llm_base_url;
    next.search_api_key = given.search_api_key ?? existing.search_api_key;
    if (given.user_consents_to_analytics === undefined || given.user_consents_to_analytics === null)
      next.user_consents_to_analytics = existing.user_consents_to_analytics;
  }
  await state.store.setSettings(next);
  return { message: 'Settings stored' };
}

/** `POST /api/reset-settings`: removed in the real server (410). */
export const resetSettingsGone = (): Refusal =>
  new Refusal('gone', 'Reset settings functionality has been removed.', {
    body: { error: 'Reset settings functionality has been removed.' },
  });

/** `GET /api/v1/settings`: the newest view; 404 before the first save, as the legacy route. */
export function storedSettingsView(state: DomainState): SettingsView | Refusal {
  return state.store.settings ? settingsView(state) : notFound();
}

/** The newest view of the settings (the defaults before a save). */
export function settingsView(state: DomainState): SettingsView {
  const s = state.store.settings ?? UserSettingsRecord.parse({});
  const profiles = Object.fromEntries(Object.entries(s.llm_profiles).map(([name, profile]) => [name, { ...profile, api_key: null }]));
  return {
    language: s.language,
    user_version: s.user_version,
    remote_runtime_resource_factor: s.remote_runtime_resource_factor,
    secrets_store: { provider_tokens: {} },
    enable_sound_notifications: s.enable_sound_notifications,
    enable_proactive_conversation_starters: s.enable_proactive_conversation_starters,
    user_consents_to_analytics: s.user_consents_to_analytics,
    sandbox_base_container_image: s.sandbox_base_container_image,
    sandbox_runtime_container_image: s.sandbox_runtime_container_image,
    disabled_skills: s.disabled_skills,
    search_api_key: null,
    sandbox_api_key: null,
    max_budget_per_task: s.max_budget_per_task,
    email: s.email,
    email_verified: s.email_verified,
    git_user_name: s.git_user_name,
    git_user_email: s.git_user_email,
    title_llm_profile: s.title_llm_profile,
    git_full_clone: s.git_full_clone,
    v1_enabled: s.v1_enabled,
    agent_settings: {
      ...(redactSecrets(s.agent_settings_extra) as Record<string, unknown>),
      agent: s.agent ?? 'CodeActAgent',
      llm: { model: s.llm_model, base_url: s.llm_base_url, api_key: null },
      condenser: {
        ...(redactSecrets(s.agent_settings_extra.condenser ?? {}) as Record<string, unknown>),
        enabled: s.enable_default_condenser,
        max_size: s.condenser_max_size ?? 120,
      },
      mcp_config: maskedMcp(s.mcp_config) ?? { sse_servers: [], stdio_servers: [], shttp_servers: [] },
    },
    conversation_settings: {
      schema_version: 1,
      max_iterations: s.max_iterations ?? 500,
      confirmation_mode: s.confirmation_mode ?? false,
      security_analyzer: s.security_analyzer === 'none' ? 'none' : s.security_analyzer === null ? 'llm' : 'llm',
    },
    sandbox_grouping_strategy: s.sandbox_grouping_strategy,
    default_sandbox_spec_id: s.default_sandbox_spec_id,
    llm_profiles: { profiles, active: s.active_llm_profile },
    active_agent_profile_id: null,
    active_agent_profile_revision: null,
    registered_marketplaces: [],
    inherited_marketplaces: [],
    provider_tokens_set: providerTokensSet(state),
    llm_api_key_set: isSet(s.llm_api_key),
    search_api_key_set: isSet(s.search_api_key),
  };
}

/** The flat keys of `POST /api/v1/settings` (the diffs and the older nested keys are read before: settings-diffs.ts). */
export type FlatSettingsUpdate = Omit<
  SettingsUpdate,
  'agent_settings_diff' | 'conversation_settings_diff' | 'agent_settings' | 'conversation_settings'
>;

/**
 * `POST /api/v1/settings`, its flat keys (Settings.update, store_settings): the fields given change,
 * the others stay; a null analytics consent or skill list keeps the stored one, an empty search or
 * sandbox key clears it.
 */
export async function updateSettings(state: DomainState, update: FlatSettingsUpdate): Promise<{ message: string }> {
  const current = state.store.settings ?? UserSettingsRecord.parse({});
  const next: UserSettingsRecord = { ...current, ...Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined)) };
  if (update.search_api_key === '') next.search_api_key = null;
  if (update.sandbox_api_key === '') next.sandbox_api_key = null;
  if (next.user_consents_to_analytics === null) next.user_consents_to_analytics = current.user_consents_to_analytics;
  if (next.disabled_skills === null) next.disabled_skills = current.disabled_skills;
  await state.store.setSettings(UserSettingsRecord.parse(next));
  return { message: 'Settings stored' };
}

const profileGone = (name: string) => new Refusal('not_found', `Profile '${name}' not found`);

/** `GET /api/v1/settings/profiles`. */
export function listProfiles(state: DomainState) {
  const s = state.store.settings ?? UserSettingsRecord.parse({});
  return {
    profiles: Object.entries(s.llm_profiles)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, p]) => ({ name, model: p.model, base_url: p.base_url, api_key_set: isSet(p.api_key) })),
    active_profile: s.active_llm_profile,
  };
}

/** `GET /api/v1/settings/profiles/{name}`: its config, the key null and the other credentials masked (`get_profile`). */
export function getProfile(state: DomainState, name: string) {
  const profile = state.store.settings?.llm_profiles[name];
  if (!profile) return profileGone(name);
  return { name, config: redactSecrets({ ...profile, api_key: null }) as Record<string, unknown>, api_key_set: isSet(profile.api_key) };
}

/**
 * `POST /api/v1/settings/profiles/{name}` (settings_router.py, save_profile): saves the given LLM
 * with every option it holds (a `StrictLLM`; without a model, StrictLLM's default), or the current
 * one (201). With `keepStoredKey` (the app server's rule), a given LLM without a key keeps the
 * profile's stored key; the agent server's `profiles_router.py` has no such rule.
 */
export async function saveProfile(
  state: DomainState,
  name: string,
  request: Omit<SaveProfileRequest, 'llm'> & {
    llm:
      | (SaveProfileRequest['llm'] & {
          /** The agent server's provider connection the profile's key comes from. */
          provider_connection_id?: string | undefined;
        })
      | null;
  },
  { keepStoredKey = false }: { keepStoredKey?: boolean } = {},
) {
  const current = state.store.settings ?? UserSettingsRecord.parse({});
  const existing = current.llm_profiles[name];
  const given = request.llm;
  const source: LLMProfile = given
    ? {
        ...given,
        model: given.model ?? STRICT_LLM_DEFAULT_MODEL,
        base_url: given.base_url ?? null,
        api_key: given.api_key ?? (keepStoredKey && existing?.api_key != null ? existing.api_key : null),
      }
    : { model: current.llm_model, base_url: current.llm_base_url, api_key: current.llm_api_key };
  if (!request.include_secrets) source.api_key = null;
  if (request.preserve_existing_api_key && !isSet(source.api_key) && existing) source.api_key = existing.api_key;
  await state.store.setSettings({ ...current, llm_profiles: { ...current.llm_profiles, [name]: source } });
  return { name, message: `Profile '${name}' saved` };
}

/** `DELETE /api/v1/settings/profiles/{name}`. */
export async function deleteProfile(state: DomainState, name: string) {
  const current = state.store.settings;
  if (!current?.llm_profiles[name]) return profileGone(name);
  const { [name]: _gone, ...rest } = current.llm_profiles;
  await state.store.setSettings({
    ...current,
    llm_profiles: rest,
    active_llm_profile: current.active_llm_profile === name ? null : current.active_llm_profile,
  });
  return { name, message: `Profile '${name}' deleted` };
}

/** `POST /api/v1/settings/profiles/{name}/activate`: the profile's LLM becomes the settings' LLM. */
export async function activateProfile(state: DomainState, name: string) {
  const current = state.store.settings;
  const profile = current?.llm_profiles[name];
  if (!current || !profile) return profileGone(name);
  await state.store.setSettings({
    ...current,
    llm_model: profile.model,
    llm_base_url: profile.base_url,
    llm_api_key: profile.api_key ?? current.llm_api_key,
    active_llm_profile: name,
  });
  return { name, message: `Profile '${name}' activated`, model: profile.model };
}

/** `POST /api/v1/settings/profiles/{name}/rename`: 409 when the new name is taken. */
export async function renameProfile(state: DomainState, name: string, newName: string) {
  const current = state.store.settings;
  const profile = current?.llm_profiles[name];
  if (!current || !profile) return profileGone(name);
  if (newName !== name && current.llm_profiles[newName]) return refuse('conflict', `Profile '${newName}' already exists`);
  const profiles = Object.fromEntries(Object.entries(current.llm_profiles).map(([key, value]) => [key === name ? newName : key, value]));
  await state.store.setSettings({
    ...current,
    llm_profiles: profiles,
    active_llm_profile: current.active_llm_profile === name ? newName : current.active_llm_profile,
  });
  return { name: newName, message: `Profile '${name}' renamed to '${newName}'` };
}
