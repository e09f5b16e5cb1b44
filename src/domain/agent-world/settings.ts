/**
 * The agent server's settings (`/api/settings`): the user's settings read as the newest agent
 * server answers them (`SettingsResponse`), a partial update by deep-merged diffs, one MCP server at
 * a time, and the custom secrets (names and descriptions; values only go in). Copies
 * openhands-agent-server `settings_router.py` (get_settings, update_settings,
 * `_resolve_active_profile_llm`, create/patch/delete_mcp_server, list_secrets, create_secret,
 * delete_secret). The settings are the instance's (`state.store.settings`): the agent host and the
 * app server read one user. Before the first save the fake's agent server reads the fixture's
 * defaults, an LLM with a key: the scripted agent needs none, and Agent Canvas counts the LLM as
 * configured (a deliberate difference: the real one starts without a key).
 */
import { UserSettingsRecord } from '../../schemas/user-settings.js';
import { redactSecrets, REDACTED, unmaskedSecrets } from '../store/redact.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { defaultUserSettings } from '../user/settings.js';
import { miscSettingsTooLarge } from './misc-settings.js';
import { changeWorld, worldOf } from './world.js';

/** `SettingsResponse`. */
export interface AgentSettingsResponse {
  agent_settings: Record<string, unknown>;
  conversation_settings: Record<string, unknown>;
  llm_api_key_is_set: boolean;
  active_profile: string | null;
  active_agent_profile_id: string | null;
  misc_settings: Record<string, unknown>;
}

/** `SettingsUpdateRequest`, as validated. */
export interface AgentSettingsUpdate {
  agent_settings_diff?: Record<string, unknown> | null | undefined;
  conversation_settings_diff?: Record<string, unknown> | null | undefined;
  misc_settings_diff?: Record<string, unknown> | null | undefined;
  active_profile?: string | null | undefined;
  active_agent_profile_id?: string | null | undefined;
}

/** The version of the agent settings' schema the fake answers. */
const AGENT_SETTINGS_SCHEMA_VERSION = 1;
/** A secret's name (`SECRET_NAME_PATTERN`). */
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const isSet = (value: string | null | undefined): boolean => typeof value === 'string' && value.trim() !== '';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The stored settings, or the defaults a fresh fake's agent server has. */
export const currentSettings = (state: DomainState): UserSettingsRecord => state.store.settings ?? defaultUserSettings();

/**
 * Deep-merges `diff` into `base`: nested objects merge, a `null` inside a nested map deletes that
 * entry, anything else replaces (`PersistedSettings.update`).
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

/** The agent settings as stored, the key included (never answered as such). */
function agentSettingsOf(s: UserSettingsRecord): Record<string, unknown> {
  const { mcp_config: mcp, condenser, ...extra } = s.agent_settings_extra as { mcp_config?: unknown; condenser?: unknown };
  return {
    schema_version: AGENT_SETTINGS_SCHEMA_VERSION,
    agent_kind: 'openhands',
    agent: s.agent ?? 'CodeActAgent',
    ...extra,
    llm: { model: s.llm_model, base_url: s.llm_base_url, api_key: s.llm_api_key },
    condenser: { ...(isObject(condenser) ? condenser : {}), enabled: s.enable_default_condenser, max_size: s.condenser_max_size ?? 120 },
    mcp_config: isObject(mcp) ? mcp : {},
  };
}

function conversationSettingsOf(s: UserSettingsRecord): Record<string, unknown> {
  return {
    schema_version: 1,
    max_iterations: s.max_iterations ?? 500,
    confirmation_mode: s.confirmation_mode ?? false,
    security_analyzer: s.security_analyzer === 'none' ? 'none' : 'llm',
  };
}

/** `GET /api/settings`: every secret masked (`**********`), whatever `X-Expose-Secrets` asks. */
export function agentSettings(state: DomainState): AgentSettingsResponse {
  const s = currentSettings(state);
  const world = worldOf(state);
  const agent = agentSettingsOf(s);
  const llm = agent.llm as Record<string, unknown>;
  return {
    agent_settings: {
      ...(redactSecrets(agent) as Record<string, unknown>),
      llm: { ...llm, api_key: isSet(s.llm_api_key) ? REDACTED : null },
    },
    conversation_settings: conversationSettingsOf(s),
    llm_api_key_is_set: isSet(s.llm_api_key),
    active_profile: s.active_llm_profile,
    active_agent_profile_id: world.active_agent_profile_id,
    misc_settings: structuredClone(world.misc_settings),
  };
}

/** A 422 whose `detail` is a sentence (an `HTTPException`), not a list of problems. */
export const unprocessable = (detail: string) => new Refusal('invalid', detail, { body: { detail } });
const invalid = () => unprocessable('Settings validation failed');
const CONVERSATION_KEYS: Record<string, (value: unknown) => boolean> = {
  schema_version: (v) => Number.isInteger(v) && (v as number) >= 1,
  max_iterations: (v) => Number.isInteger(v) && (v as number) >= 1,
  confirmation_mode: (v) => typeof v === 'boolean',
  security_analyzer: (v) => v === null || v === 'llm' || v === 'none',
};

/**
 * `PATCH /api/settings`: the diffs deep-merged; `active_profile` loads that profile's LLM unless the
 * diff names one (404 for an unknown profile); 400 with nothing to change; 422 "Settings validation
 * failed" for a value the settings cannot take (nothing changes). With `replaceMcpConfig` (the app
 * server's `POST /api/v1/settings`), an `mcp_config` in the agent diff replaces the stored one whole.
 */
export async function updateAgentSettings(
  state: DomainState,
  update: AgentSettingsUpdate,
  presentKeys: readonly string[],
  { replaceMcpConfig = false }: { replaceMcpConfig?: boolean } = {},
): Promise<AgentSettingsResponse | Refusal> {
  const given = (key: keyof AgentSettingsUpdate) =>
    key === 'active_profile' || key === 'active_agent_profile_id'
      ? presentKeys.includes(key)
      : update[key] !== undefined && update[key] !== null;
  if (
    !(
      ['agent_settings_diff', 'conversation_settings_diff', 'misc_settings_diff', 'active_profile', 'active_agent_profile_id'] as const
    ).some(given)
  ) {
    return refuse(
      'bad_request',
      'At least one of agent_settings_diff, conversation_settings_diff, misc_settings_diff, active_profile, or active_agent_profile_id must be provided',
    );
  }
  const current = currentSettings(state);
  const world = worldOf(state);
  let agentDiff = update.agent_settings_diff ?? undefined;
  if (update.active_profile && !(agentDiff && 'llm' in agentDiff)) {
    const profile = current.llm_profiles[update.active_profile];
    if (!profile) return refuse('not_found', `Profile '${update.active_profile}' not found`);
    agentDiff = {
      ...agentDiff,
      llm: { model: profile.model, base_url: profile.base_url, ...(isSet(profile.api_key) ? { api_key: profile.api_key } : {}) },
    };
  }
  const next: UserSettingsRecord = { ...current };
  if (agentDiff) {
    const stored = agentSettingsOf(current);
    // A masked secret sent back as it was answered keeps the stored one.
    const merged = unmaskedSecrets(deepMerge(stored, agentDiff), stored) as Record<string, unknown>;
    // The app server's Settings.update replaces the MCP configuration whole (a masked secret sent back keeps the stored one).
    if (replaceMcpConfig && 'mcp_config' in agentDiff) merged.mcp_config = unmaskedSecrets(agentDiff.mcp_config ?? {}, stored.mcp_config);
    const { llm, agent, condenser, mcp_config: mcp, schema_version: _v, agent_kind: kind, ...extra } = merged;
    if (
      !isObject(llm) ||
      (llm.model !== null && typeof llm.model !== 'string') ||
      (llm.base_url !== null && llm.base_url !== undefined && typeof llm.base_url !== 'string')
    )
      return invalid();
    if (llm.api_key !== null && llm.api_key !== undefined && typeof llm.api_key !== 'string') return invalid();
    if (kind !== 'openhands' && kind !== 'acp') return invalid();
    if (typeof agent !== 'string' || !isObject(mcp) || !isObject(condenser)) return invalid();
    // The servers by name, or under `mcpServers` (fastmcp's MCPConfig, as Agent Canvas reads both).
    const servers = isObject(mcp.mcpServers) && !('url' in mcp.mcpServers) && !('command' in mcp.mcpServers) ? mcp.mcpServers : mcp;
    if (
      !Object.values(servers).every((server) => isObject(server) && (typeof server.url === 'string' || typeof server.command === 'string'))
    )
      return invalid();
    next.llm_model = (llm.model as string | null) ?? null;
    next.llm_base_url = (llm.base_url as string | null | undefined) ?? null;
    // The masked key a client read back keeps the stored one.
    if (llm.api_key !== REDACTED) next.llm_api_key = (llm.api_key as string | null | undefined) ?? null;
    next.agent = agent;
    const { enabled, max_size: maxSize, ...condenserRest } = condenser;
    if (typeof enabled === 'boolean') next.enable_default_condenser = enabled;
    if (Number.isInteger(maxSize)) next.condenser_max_size = maxSize as number;
    next.agent_settings_extra = {
      ...extra,
      ...(kind === 'acp' ? { agent_kind: kind } : {}),
      ...(Object.keys(condenserRest).length > 0 ? { condenser: condenserRest } : {}),
      mcp_config: mcp,
    };
  }
  if (update.conversation_settings_diff) {
    const merged = deepMerge(conversationSettingsOf(current), update.conversation_settings_diff);
    for (const [key, value] of Object.entries(merged)) if (!CONVERSATION_KEYS[key]?.(value)) return invalid();
    next.max_iterations = merged.max_iterations as number;
    next.confirmation_mode = merged.confirmation_mode as boolean;
    next.security_analyzer = (merged.security_analyzer as string | null) ?? 'llm';
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
  agentSettingsOf(currentSettings(state)).mcp_config as Record<string, unknown>;

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
