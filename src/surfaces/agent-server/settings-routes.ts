/**
 * The agent server's settings, LLM profiles and agent profiles: `/api/settings` (with its schemas,
 * MCP servers and secrets), `/api/profiles`, `/api/agent-profiles`. Copies openhands-agent-server
 * `settings_router.py`, `profiles_router.py` and `agent_profiles_router.py` (each route names its
 * function). The LLM profiles are the user's (the app server's `/api/v1/settings/profiles` lists the
 * same ones).
 */
import * as z from 'zod/mini';
import {
  activateAgentProfile,
  deleteAgentProfile,
  getAgentProfile,
  listAgentProfiles,
  materializeAgentProfile,
  renameAgentProfile,
  saveAgentProfile,
} from '../../domain/agent-world/host.js';
import {
  agentSecretValue,
  agentSettings,
  seedDefaultProfile,
  createMcpServer,
  deleteAgentSecret,
  deleteMcpServer,
  listAgentSecrets,
  patchMcpServer,
  updateAgentSettings,
  upsertAgentSecret,
} from '../../domain/agent-world/settings.js';
import { AGENT_SETTINGS_SCHEMA, CONVERSATION_SETTINGS_SCHEMA } from '../../domain/agent-world/settings-schema.js';
import { providerConnectionExists } from '../../domain/agent-world/connections.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import { activateProfile, deleteProfile, getProfile, listProfiles, renameProfile, saveProfile } from '../../domain/user/settings.js';
import { ProfileName, RenameProfileRequest } from '../../schemas/user-settings.js';
import type { DomainState } from '../../domain/store/state.js';
import { defineRoute, type Route, type RouteContext } from '../../http/route.js';
import { hostWide } from './host-wide.js';

const Json = z.record(z.string(), z.unknown());
const nullableString = z.nullable(z.string());
/** `SettingsResponse`. */
const SettingsResponse = z.object({
  agent_settings: Json,
  conversation_settings: Json,
  llm_api_key_is_set: z.boolean(),
  active_profile: nullableString,
  active_agent_profile_id: nullableString,
  misc_settings: Json,
});
/** `SettingsUpdateRequest`. */
const SettingsUpdateRequest = z.object({
  agent_settings_diff: z.optional(z.nullable(Json)),
  conversation_settings_diff: z.optional(z.nullable(Json)),
  misc_settings_diff: z.optional(z.nullable(Json)),
  active_profile: z.optional(nullableString),
  active_agent_profile_id: z.optional(nullableString),
});
/** `SettingsSchema`: sections of fields a form renders. */
const SettingsSchema = z.object({
  model_name: z.string(),
  sections: z.array(z.looseObject({ key: z.string(), label: z.string(), fields: z.array(z.looseObject({ key: z.string() })) })),
});
/** An MCP server (`MCPServer`): remote (`url`) or stdio (`command`). */
const MCPServer = z
  .looseObject({ url: z.optional(z.string().check(z.minLength(1))), command: z.optional(z.string().check(z.minLength(1))) })
  .check(
    z.refine((s) => typeof s.url === 'string' || typeof s.command === 'string', {
      message: 'Value error, an MCP server needs a url or a command',
    }),
  );
const McpParam = z.object({ settings_key: z.string() });
const SecretParam = z.object({ name: z.string() });
const ProfileParam = z.object({ name: ProfileName });
/** `SaveProfileRequest`: an LLM (`LLM`), and whether its key is kept. */
const SaveProfileRequest = z.object({
  llm: z.looseObject({ model: z.string(), base_url: z.optional(nullableString), api_key: z.optional(nullableString) }),
  include_secrets: z._default(z.boolean(), true),
});
/** Most LLM profiles a user keeps (`MAX_PROFILES`). */
const MAX_PROFILES = 50;
const ProfileMutation = z.object({ name: z.string(), message: z.string() });

/**
 * Runs `body` as one operation on settings that exist: the fixture's defaults are saved, with the
 * live LLM mirrored into the `default` profile, before the first read or change.
 */
function onSettings<T>(context: RouteContext, body: (state: DomainState) => T | Promise<T>) {
  return context.runner.run(async (state) => {
    await seedDefaultProfile(state);
    return body(state);
  });
}

/** The settings and profile routes of the agent server. */
export const settingsRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'GET',
    path: '/api/settings/agent-schema',
    summary: 'The form schema of the agent settings (settings_router.py, get_agent_settings_schema)',
    response: SettingsSchema,
    handle: async () => AGENT_SETTINGS_SCHEMA,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/settings/conversation-schema',
    summary: 'The form schema of the conversation settings (settings_router.py, get_conversation_settings_schema)',
    response: SettingsSchema,
    handle: async () => CONVERSATION_SETTINGS_SCHEMA,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/settings',
    summary: 'The settings, every secret masked (settings_router.py, get_settings)',
    response: SettingsResponse,
    handle: (_input, context) => onSettings(context, (state) => agentSettings(state)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/settings',
    summary: 'Deep-merge setting diffs; active_profile applies a profile (settings_router.py, update_settings)',
    body: SettingsUpdateRequest,
    response: SettingsResponse,
    errors: [400, 404],
    handle: ({ body }, context) => onSettings(context, (state) => updateAgentSettings(state, body, Object.keys(body))),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/settings/mcp/:settings_key',
    summary: 'Add one MCP server; 409 when it exists (settings_router.py, create_mcp_server)',
    params: McpParam,
    body: MCPServer,
    response: SettingsResponse,
    successStatus: 201,
    errors: [409],
    handle: ({ params, body }, context) => onSettings(context, (state) => createMcpServer(state, params.settings_key, body)),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/settings/mcp/:settings_key',
    summary: 'Change one MCP server (settings_router.py, patch_mcp_server)',
    params: McpParam,
    body: Json,
    response: SettingsResponse,
    errors: [404],
    handle: ({ params, body }, context) => onSettings(context, (state) => patchMcpServer(state, params.settings_key, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/settings/mcp/:settings_key',
    summary: 'Remove one MCP server (settings_router.py, delete_mcp_server)',
    params: McpParam,
    response: SettingsResponse,
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => deleteMcpServer(state, params.settings_key)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/settings/secrets',
    summary: 'Secret names and descriptions (settings_router.py, list_secrets)',
    response: z.object({ secrets: z.array(z.object({ name: z.string(), description: nullableString })) }),
    handle: (_input, context) => onSettings(context, (state) => listAgentSecrets(state)),
  }),
  defineRoute({
    method: 'PUT',
    path: '/api/settings/secrets',
    summary: 'Create or replace a secret; its value never comes back (settings_router.py, create_secret)',
    body: z.object({ name: z.string(), value: z.string(), description: z.optional(nullableString) }),
    response: z.object({ name: z.string(), description: nullableString }),
    errors: [],
    handle: ({ body }, context) => onSettings(context, (state) => upsertAgentSecret(state, body)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/settings/secrets/:name',
    summary: "A secret's value: never answered by the fake, 404 (settings_router.py, get_secret_value)",
    params: SecretParam,
    response: z.string(),
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => agentSecretValue(state, params.name)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/settings/secrets/:name',
    summary: 'Delete a secret (settings_router.py, delete_secret)',
    params: SecretParam,
    response: z.object({ deleted: z.literal(true) }),
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => deleteAgentSecret(state, params.name)),
  }),
  // ── LLM profiles ──
  defineRoute({
    method: 'GET',
    path: '/api/profiles',
    summary: 'The LLM profiles and the active one (profiles_router.py, list_profiles)',
    response: z.object({
      profiles: z.array(z.looseObject({ name: z.string(), api_key_set: z.boolean() })),
      active_profile: nullableString,
    }),
    handle: (_input, context) =>
      onSettings(context, (state) => {
        const list = listProfiles(state);
        const stored = state.store.settings?.llm_profiles ?? {};
        // A profile may name a provider connection (its `llm.provider_connection_id`); one that is gone is "broken".
        return {
          ...list,
          profiles: list.profiles.map((p) => {
            const id = (stored[p.name] as Record<string, unknown> | undefined)?.provider_connection_id;
            const connection = typeof id === 'string' ? id : null;
            return {
              ...p,
              provider_connection_id: connection,
              provider_connection_broken: connection !== null && !providerConnectionExists(state, connection),
            };
          }),
        };
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/profiles/:name',
    summary: 'One LLM profile, its key null (profiles_router.py, get_profile)',
    params: ProfileParam,
    response: z.object({ name: z.string(), config: Json, api_key_set: z.boolean() }),
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => getProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/profiles/:name',
    summary: 'Save an LLM profile (profiles_router.py, save_profile)',
    params: ProfileParam,
    body: SaveProfileRequest,
    response: ProfileMutation,
    successStatus: 201,
    errors: [409],
    handle: ({ params, body }, context) =>
      onSettings(context, (state) => {
        if (
          !state.store.settings?.llm_profiles[params.name] &&
          Object.keys(state.store.settings?.llm_profiles ?? {}).length >= MAX_PROFILES
        ) {
          return refuse('conflict', `Profile limit reached (${MAX_PROFILES}). Delete a profile before saving a new one.`);
        }
        return saveProfile(state, params.name, {
          include_secrets: body.include_secrets,
          preserve_existing_api_key: false,
          llm: {
            model: body.llm.model,
            base_url: body.llm.base_url ?? null,
            api_key: body.llm.api_key ?? null,
            ...(typeof body.llm.provider_connection_id === 'string' ? { provider_connection_id: body.llm.provider_connection_id } : {}),
          },
        });
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/profiles/:name/validate',
    summary: 'Check an LLM configuration: valid when it names a provider and a model (profiles_router.py, validate_profile)',
    params: ProfileParam,
    body: z.object({ llm: SaveProfileRequest.shape.llm }),
    response: z.object({ valid: z.boolean(), error: z.nullable(z.object({ type: z.string(), message: z.string() })) }),
    handle: async ({ body }) =>
      /^[^/\s]+\/\S+$/.test(body.llm.model)
        ? { valid: true, error: null }
        : {
            valid: false,
            error: {
              type: 'BadRequestError',
              message: `LLM Provider NOT provided. Pass in the LLM provider you are trying to call. You passed model=${body.llm.model}`,
            },
          },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/profiles/:name',
    summary: 'Delete an LLM profile (profiles_router.py, delete_profile)',
    params: ProfileParam,
    response: ProfileMutation,
    errors: [404, 409],
    handle: ({ params }, context) => onSettings(context, (state) => deleteProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/profiles/:name/rename',
    summary: 'Rename an LLM profile; 409 when the name is taken (profiles_router.py, rename_profile)',
    params: ProfileParam,
    body: RenameProfileRequest,
    response: ProfileMutation,
    errors: [404, 409],
    handle: ({ params, body }, context) =>
      onSettings(context, (state) => {
        if (params.name === body.new_name && state.store.settings?.llm_profiles[params.name])
          return { name: params.name, message: `Profile '${params.name}' unchanged (same name)` };
        return renameProfile(state, params.name, body.new_name);
      }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/profiles/:name/activate',
    summary: "The profile's LLM becomes the settings' LLM (profiles_router.py, activate_profile)",
    params: ProfileParam,
    response: z.object({ name: z.string(), message: z.string(), model: nullableString }),
    errors: [404],
    bodyOptional: true,
    body: z.optional(Json),
    handle: ({ params }, context) =>
      onSettings(context, async (state) => {
        const answer = await activateProfile(state, params.name);
        return isRefusal(answer) ? answer : { ...answer, message: `Profile '${params.name}' activated and applied to current settings` };
      }),
  }),
  // ── Agent profiles ──
  defineRoute({
    method: 'GET',
    path: '/api/agent-profiles',
    summary: 'The agent profiles and the active one (agent_profiles_router.py, list_agent_profiles)',
    response: z.object({ profiles: z.array(z.looseObject({ name: z.string() })), active_agent_profile_id: nullableString }),
    handle: (_input, context) => onSettings(context, (state) => listAgentProfiles(state)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/agent-profiles/:name',
    summary: 'One agent profile (agent_profiles_router.py, get_agent_profile)',
    params: ProfileParam,
    response: z.object({ name: z.string(), profile: Json }),
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => getAgentProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/agent-profiles/:name',
    summary: 'Save an agent profile (agent_profiles_router.py, save_agent_profile)',
    params: ProfileParam,
    body: Json,
    response: ProfileMutation,
    successStatus: 201,
    errors: [409],
    handle: ({ params, body }, context) => onSettings(context, (state) => saveAgentProfile(state, params.name, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/agent-profiles/:name',
    summary: 'Delete an agent profile (agent_profiles_router.py, delete_agent_profile)',
    params: ProfileParam,
    response: ProfileMutation,
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => deleteAgentProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/agent-profiles/:name/rename',
    summary: 'Rename an agent profile (agent_profiles_router.py, rename_agent_profile)',
    params: ProfileParam,
    body: RenameProfileRequest,
    response: ProfileMutation,
    errors: [404, 409],
    handle: ({ params, body }, context) => onSettings(context, (state) => renameAgentProfile(state, params.name, body.new_name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/agent-profiles/:profile_id/activate',
    summary: 'Make an agent profile the active one (agent_profiles_router.py, activate_agent_profile)',
    params: z.object({ profile_id: z.string() }),
    response: z.object({ id: z.string(), message: z.string(), agent_settings_applied: z.boolean() }),
    errors: [404],
    bodyOptional: true,
    body: z.optional(Json),
    handle: ({ params }, context) => onSettings(context, (state) => activateAgentProfile(state, params.profile_id)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/agent-profiles/:name/materialize',
    summary: "A dry run of the profile's references (agent_profiles_router.py, materialize_agent_profile)",
    params: ProfileParam,
    response: z.looseObject({ agent_kind: z.string(), valid: z.boolean(), errors: z.array(z.string()) }),
    errors: [404],
    bodyOptional: true,
    body: z.optional(Json),
    handle: ({ params }, context) => onSettings(context, (state) => materializeAgentProfile(state, params.name)),
  }),
]);
