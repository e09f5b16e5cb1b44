/**
 * The agent server's settings (`/api/settings`): the user's settings read as openhands-agent-server
 * 1.58.2 answers them (`SettingsResponse`, its model in `settings-model.ts`), a partial update by
 * diffs, one MCP server at a time, and the custom secrets (names and descriptions; values only go
 * in). Copies `settings_router.py` (get_settings, update_settings, `_require_pointer_targets`,
 * `_with_profile_llm`, create/patch/delete_mcp_server, list_secrets, create_secret, delete_secret).
 * The settings are the instance's (`state.store.settings`): the agent host and the app server read
 * one user. Before the first save the host is a fresh one (no LLM key, no profile); a fixture that
 * holds the user's settings (the default one, an LLM with a key) is read as saved.
 */
import { UserSettingsRecord } from '../../schemas/user-settings.js';
import { redactMcpConfig, redactSecrets, REDACTED, unmaskedSecrets } from '../store/redact.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import {
  agentSettingsDefaults,
  conversationSettingsDefaults,
  DEFAULT_LLM_MODEL,
  defaultLlmSettings,
  differences,
  LLM_SECRET_FIELDS,
  mergePatch,
  validAgentSettings,
  validConversationSettings,
  withDefaults,
} from './settings-model.js';
import { miscSettingsTooLarge } from './misc-settings.js';
import { changeWorld, worldOf } from './world.js';

/** `SettingsResponse`. */
export interface AgentSettingsResponse {
  agent_settings: Record<string, unknown>;
  conversation_settings: Record<string, unknown>;
  llm_api_key_is_set: boolean;
  active_profile: string | null;
  active_agent_profile_id: string | null;
  active_meta_profile: string | null;
  misc_settings: Record<string, unknown>;
}

/** `SettingsUpdateRequest`, as validated. */
export interface AgentSettingsUpdate {
  agent_settings_diff?: Record<string, unknown> | null | undefined;
  conversation_settings_diff?: Record<string, unknown> | null | undefined;
  misc_settings_diff?: Record<string, unknown> | null | undefined;
  active_profile?: string | null | undefined;
  active_agent_profile_id?: string | null | undefined;
  active_meta_profile?: string | null | undefined;
}

/** A secret's name (`SECRET_NAME_PATTERN`). */
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const isSet = (value: string | null | undefined): boolean => typeof value === 'string' && value.trim() !== '';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stored settings, or a fresh agent server's (no LLM key, no profile: `PersistedSettings()`). */
export const currentSettings = (state: DomainState): UserSettingsRecord => state.store.settings ?? UserSettingsRecord.parse({});

/**
 * Deep-merges `diff` into `base`: nested objects merge, a `null` inside a nested map deletes that
 * entry, anything else replaces (`_deep_merge`).
 */
export function deepMerge(base: Record<string, unknown>, diff: Record<string, unknown>, nested = false): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(diff)) {
    if (value === null && nested) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = deepMerge(out[key] as Record<string, unknown>, value, true);
    else if (isObject(value)) out[key] = deepMerge({}, value, true);
    else out[key] = value;
  }
  return out;
}

/** The time the agent context reads as now (`AgentContext.current_datetime`'s default). */
const nowOf = (state: DomainState) => new Date(state.clock.now()).toISOString();

/**
 * The agent settings as stored, complete and with their secrets (never answered as such): the
 * flat LLM model, base URL and key, agent and condenser fields over the rest (`agent_settings_extra`).
 */
function agentSettingsOf(s: UserSettingsRecord, now: string): Record<string, unknown> {
  const { llm, condenser, ...extra } = s.agent_settings_extra;
  if (extra.agent_kind === 'acp') return validAgentSettings(extra, now) ?? agentSettingsDefaults('acp', now);
  const stored = {
    ...extra,
    agent: s.agent ?? 'CodeActAgent',
    llm: { ...(isObject(llm) ? llm : {}), model: s.llm_model ?? DEFAULT_LLM_MODEL, base_url: s.llm_base_url, api_key: s.llm_api_key },
    condenser: {
      ...(isObject(condenser) ? condenser : {}),
      enabled: s.enable_default_condenser,
      ...(s.condenser_max_size === null ? {} : { max_size: s.condenser_max_size }),
    },
  };
  return validAgentSettings(stored, now) ?? withDefaults(agentSettingsDefaults(extra.agent_kind, now), stored);
}

/** The conversation settings as stored, complete. */
function conversationSettingsOf(s: UserSettingsRecord): Record<string, unknown> {
  const stored = {
    ...s.conversation_settings_extra,
    max_iterations: s.max_iterations ?? 500,
    confirmation_mode: s.confirmation_mode ?? false,
    security_analyzer: s.security_analyzer === 'none' ? 'none' : 'llm',
  };
  return validConversationSettings(stored) ?? { ...conversationSettingsDefaults(), ...stored };
}

/** A secret as answered: `**********` when set. */
const masked = (value: unknown) => (typeof value === 'string' && value !== '' ? REDACTED : value);

/** Agent settings as answered: the LLM's credentials and the critic's key masked, and any secret in MCP servers, headers and the agent context. */
function maskedAgentSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...settings };
  if (isObject(settings.llm)) {
    const llm: Record<string, unknown> = { ...settings.llm };
    for (const key of LLM_SECRET_FIELDS) llm[key] = masked(llm[key]);
    llm.extra_headers = redactSecrets(llm.extra_headers);
    llm.litellm_extra_body = redactSecrets(llm.litellm_extra_body);
    out.llm = llm;
  }
  if (isObject(settings.verification))
    out.verification = { ...settings.verification, critic_api_key: masked(settings.verification.critic_api_key) };
  // The MCP servers masked by place (every header, env and auth value, a URL's userinfo, query and fragment, flags' values).
  if ('mcp_config' in settings) out.mcp_config = redactMcpConfig(settings.mcp_config);
  for (const key of ['agent_context', 'meta_profile_llms'] as const) if (key in settings) out[key] = redactSecrets(settings[key]);
  return out;
}

/** `GET /api/settings`: every secret masked (`**********`), whatever `X-Expose-Secrets` asks. */
export function agentSettings(state: DomainState): AgentSettingsResponse {
  const s = currentSettings(state);
  const world = worldOf(state);
  const agent = agentSettingsOf(s, nowOf(state));
  const openhands = agent.agent_kind !== 'acp';
  return {
    agent_settings: maskedAgentSettings(agent),
    conversation_settings: conversationSettingsOf(s),
    llm_api_key_is_set: openhands && isSet(s.llm_api_key),
    active_profile: s.active_llm_profile,
    active_agent_profile_id: world.active_agent_profile_id,
    active_meta_profile: openhands ? ((agent.active_meta_profile as string | null) ?? null) : null,
    misc_settings: structuredClone(world.misc_settings),
  };
}

/** A 422 whose `detail` is a sentence (an `HTTPException`), not a list of problems. */
export const unprocessable = (detail: string) => new Refusal('invalid', detail, { body: { detail } });
const invalid = () => unprocessable('Settings validation failed');

/** The LLM a profile loads into the settings (`_with_profile_llm`: the profile's whole LLM, a key it lacks cleared). */
const profileLlm = (profile: Record<string, unknown>) => ({ ...defaultLlmSettings(), ...profile, api_key: profile.api_key ?? null });

/** Whether the agent context's current time was set by a client (then it is kept; otherwise it reads now). */
const pinnedTime = (value: unknown) => isObject(value) && isObject(value.agent_context) && 'current_datetime' in value.agent_context;

/**
 * Writes complete agent settings into `next`: the flat LLM, agent and condenser fields, and what
 * else differs from the defaults as `agent_settings_extra` (the MCP servers always; the agent
 * context's time only when a client set it).
 */
function storeAgentSettings(next: UserSettingsRecord, settings: Record<string, unknown>, keepTime: boolean, now: string): void {
  const { schema_version: _v, llm, agent, condenser, mcp_config: mcp, ...rest } = settings;
  const kept = differences(agentSettingsDefaults(rest.agent_kind, now), rest);
  if (isObject(kept.agent_context) && !keepTime) {
    const { current_datetime: _now, ...context } = kept.agent_context;
    if (Object.keys(context).length > 0) kept.agent_context = context;
    else delete kept.agent_context;
  }
  if (rest.agent_kind === 'acp') {
    // The ACP variant has no LLM of its own: the live one is gone, as a kind switch starts afresh.
    next.llm_model = null;
    next.llm_base_url = null;
    next.llm_api_key = null;
    next.agent_settings_extra = { agent_kind: 'acp', ...kept, mcp_config: mcp };
    return;
  }
  const { model, base_url: baseUrl, api_key: key, ...llmRest } = llm as Record<string, unknown>;
  const { enabled, max_size: maxSize, ...condenserRest } = condenser as Record<string, unknown>;
  next.llm_model = model as string;
  next.llm_base_url = baseUrl as string | null;
  next.llm_api_key = key as string | null;
  next.agent = agent as string;
  next.enable_default_condenser = enabled as boolean;
  if (typeof maxSize === 'number') next.condenser_max_size = maxSize;
  const llmKept = differences(defaultLlmSettings(), llmRest);
  const condenserKept = differences(agentSettingsDefaults('openhands', now).condenser as Record<string, unknown>, condenserRest);
  next.agent_settings_extra = {
    ...kept,
    ...(Object.keys(llmKept).length > 0 ? { llm: llmKept } : {}),
    ...(Object.keys(condenserKept).length > 0 ? { condenser: condenserKept } : {}),
    mcp_config: mcp,
  };
}

/**
 * `PATCH /api/settings`: the agent diff merge-patched (a new `agent_kind` starts from its variant's
 * defaults), the conversation and misc diffs deep-merged; `active_profile` loads that profile's LLM
 * unless the diff names one (404 for an unknown profile); a non-null `active_agent_profile_id` or
 * `active_meta_profile` must name a stored one (404); 400 with nothing to change; 422 "Settings
 * validation failed" for a value the settings cannot take (nothing changes). With
 * `replaceMcpConfig` (the app server's `POST /api/v1/settings`), an `mcp_config` in the agent diff
 * replaces the stored one whole.
 */
export async function updateAgentSettings(
  state: DomainState,
  update: AgentSettingsUpdate,
  presentKeys: readonly string[],
  { replaceMcpConfig = false }: { replaceMcpConfig?: boolean } = {},
): Promise<AgentSettingsResponse | Refusal> {
  const pointers = ['active_profile', 'active_agent_profile_id', 'active_meta_profile'] as const;
  const given = (key: keyof AgentSettingsUpdate) =>
    (pointers as readonly string[]).includes(key) ? presentKeys.includes(key) : update[key] !== undefined && update[key] !== null;
  if (!(['agent_settings_diff', 'conversation_settings_diff', 'misc_settings_diff', ...pointers] as const).some(given)) {
    return refuse(
      'bad_request',
      'At least one of agent_settings_diff, conversation_settings_diff, misc_settings_diff, active_profile, active_agent_profile_id, or active_meta_profile must be provided',
    );
  }
  const world = worldOf(state);
  const profileId = update.active_agent_profile_id;
  if (typeof profileId === 'string' && ![...world.agentProfiles.values()].some((p) => p.id === profileId))
    return refuse('not_found', `Agent profile with id '${profileId}' not found`);
  // The fake keeps no meta-profiles (`/api/meta-profiles`): every name is unknown.
  if (typeof update.active_meta_profile === 'string') return refuse('not_found', `Meta-profile '${update.active_meta_profile}' not found`);
  const current = currentSettings(state);
  const now = nowOf(state);
  let agentDiff = update.agent_settings_diff ?? undefined;
  if (update.active_profile && !(agentDiff && 'llm' in agentDiff)) {
    const profile = current.llm_profiles[update.active_profile];
    if (!profile) return refuse('not_found', `Profile '${update.active_profile}' not found`);
    if ((agentDiff?.agent_kind ?? current.agent_settings_extra.agent_kind) !== 'acp')
      agentDiff = { ...agentDiff, llm: profileLlm(profile) };
  }
  const next: UserSettingsRecord = { ...current };
  if (agentDiff) {
    const stored = agentSettingsOf(current, now);
    const kind = agentDiff.agent_kind;
    const base = typeof kind === 'string' && kind !== stored.agent_kind ? { agent_kind: kind } : stored;
    // A masked secret sent back as it was answered keeps the stored one.
    const merged = unmaskedSecrets(mergePatch(base, agentDiff), stored) as Record<string, unknown>;
    // The app server's Settings.update replaces the MCP configuration whole (a masked secret sent back keeps the stored one).
    if (replaceMcpConfig && 'mcp_config' in agentDiff) merged.mcp_config = unmaskedSecrets(agentDiff.mcp_config ?? {}, stored.mcp_config);
    const settings = validAgentSettings(merged, now);
    if (!settings) return invalid();
    storeAgentSettings(next, settings, pinnedTime(agentDiff) || pinnedTime(current.agent_settings_extra), now);
  }
  if (update.conversation_settings_diff) {
    const settings = validConversationSettings(deepMerge(conversationSettingsOf(current), update.conversation_settings_diff));
    if (!settings) return invalid();
    const {
      schema_version: _v,
      max_iterations: iterations,
      confirmation_mode: confirmation,
      security_analyzer: analyzer,
      ...rest
    } = settings;
    next.max_iterations = iterations as number;
    next.confirmation_mode = confirmation as boolean;
    next.security_analyzer = (analyzer as string | null) ?? 'llm';
    next.conversation_settings_extra = differences(conversationSettingsDefaults(), rest);
  }
  if (presentKeys.includes('active_profile')) next.active_llm_profile = update.active_profile ?? null;
  const parsed = UserSettingsRecord.safeParse(next);
  if (!parsed.success) return invalid();
  if (update.misc_settings_diff) {
    const misc = deepMerge(world.misc_settings, update.misc_settings_diff);
    const refused = miscSettingsTooLarge(misc);
    if (refused) return refused;
    changeWorld(state, { misc_settings: misc });
  }
  if (presentKeys.includes('active_agent_profile_id'))
    changeWorld(state, { active_agent_profile_id: update.active_agent_profile_id ?? null });
  await state.store.setSettings(parsed.data);
  return agentSettings(state);
}

const mcpOf = (state: DomainState): Record<string, unknown> =>
  agentSettingsOf(currentSettings(state), nowOf(state)).mcp_config as Record<string, unknown>;

/** `POST /api/settings/mcp/{key}` (201): 409 when the server exists. */
export async function createMcpServer(state: DomainState, key: string, server: Record<string, unknown>) {
  if (Object.hasOwn(mcpOf(state), key)) return refuse('conflict', `MCP server '${key}' already exists`);
  return updateAgentSettings(state, { agent_settings_diff: { mcp_config: { [key]: server } } }, []);
}

/** `PATCH /api/settings/mcp/{key}`: a sparse update; 404 when the server is not there. */
export async function patchMcpServer(state: DomainState, key: string, patch: Record<string, unknown>) {
  if (!Object.hasOwn(mcpOf(state), key)) return refuse('not_found', `MCP server '${key}' was not found`);
  return updateAgentSettings(state, { agent_settings_diff: { mcp_config: { [key]: patch } } }, []);
}

/** `DELETE /api/settings/mcp/{key}`: its siblings stay; 404 when it is not there. */
export async function deleteMcpServer(state: DomainState, key: string) {
  if (!Object.hasOwn(mcpOf(state), key)) return refuse('not_found', `MCP server '${key}' was not found`);
  return updateAgentSettings(state, { agent_settings_diff: { mcp_config: { [key]: null } } }, []);
}

const badSecretName = () =>
  unprocessable(
    'Invalid secret name format. Must start with a letter, contain only letters, numbers, and underscores, and be 1-64 characters long.',
  );

/** `GET /api/settings/secrets`: names and descriptions. */
export function listAgentSecrets(state: DomainState) {
  return { secrets: state.store.customSecrets.map((s) => ({ name: s.name, description: s.description })) };
}

/** `PUT /api/settings/secrets`: creates or replaces a secret (its value is never answered). */
export async function upsertAgentSecret(
  state: DomainState,
  secret: { name: string; value: string; description?: string | null | undefined },
) {
  if (!SECRET_NAME.test(secret.name)) return badSecretName();
  const description = secret.description ?? null;
  const others = state.store.customSecrets.filter((s) => s.name !== secret.name);
  const at = state.store.customSecrets.findIndex((s) => s.name === secret.name);
  const record = { name: secret.name, description, value: secret.value };
  await state.store.setCustomSecrets(at < 0 ? [...others, record] : state.store.customSecrets.map((s, i) => (i === at ? record : s)));
  return { name: secret.name, description };
}

/**
 * `GET /api/settings/secrets/{name}`: the real server answers the value in clear text (for
 * `LookupSecret`); a secret never leaves the fake, so it answers 404 "Secret not found" for every
 * name (declared in `KNOWN_AGENT_DIFFERENCES`), 422 for a bad name.
 */
export function agentSecretValue(_state: DomainState, name: string) {
  if (!SECRET_NAME.test(name)) return badSecretName();
  return refuse('not_found', 'Secret not found');
}

/** `DELETE /api/settings/secrets/{name}`: `{"deleted": true}`; 404 "Secret not found". */
export async function deleteAgentSecret(state: DomainState, name: string) {
  if (!SECRET_NAME.test(name)) return badSecretName();
  if (!state.store.customSecrets.some((s) => s.name === name)) return refuse('not_found', 'Secret not found');
  await state.store.setCustomSecrets(state.store.customSecrets.filter((s) => s.name !== name));
  return { deleted: true as const };
}

/** The LLM profile the agent server seeds from the live LLM (`SEED_PROFILE_NAME`). */
export const SEED_PROFILE_NAME = 'default';

/**
 * Mirrors the live LLM into a `default` LLM profile when it has a real configuration (a key or a
 * base URL) and no profile has that name, and makes it the active one when none is
 * (`agent_profiles_router.py`, `_seed_default_llm_profile` and `_llm_has_real_config`). Agent
 * Canvas's local backend counts the LLM as configured only through the active profile's key.
 */
export async function seedDefaultProfile(state: DomainState): Promise<void> {
  const stored = state.store.settings;
  const current = currentSettings(state);
  const real = (isSet(current.llm_api_key) || isSet(current.llm_base_url)) && current.llm_model !== null;
  // Only a first use, or settings without any profile nor an active one, are seeded (a deleted `default` among others stays deleted).
  const seed = real && (stored === null || (Object.keys(current.llm_profiles).length === 0 && current.active_llm_profile === null));
  if (!seed) {
    if (stored === null) await state.store.setSettings(current);
    return;
  }
  await state.store.setSettings({
    ...current,
    llm_profiles: {
      ...current.llm_profiles,
      [SEED_PROFILE_NAME]: current.llm_profiles[SEED_PROFILE_NAME] ?? {
        model: current.llm_model,
        base_url: current.llm_base_url,
        api_key: current.llm_api_key,
      },
    },
    active_llm_profile: current.active_llm_profile ?? SEED_PROFILE_NAME,
  });
}
