/**
 * The agent server's settings, LLM profiles and agent profiles: `/api/settings` (with its schemas,
 * MCP servers and secrets), `/api/profiles`, `/api/agent-profiles`. Copies openhands-agent-server
 * `settings_router.py`, `profiles_router.py` and `agent_profiles_router.py` (each route names its
 * function). The LLM profiles are the user's (the app server's `/api/v1/settings/profiles` lists the
 * same ones).
 */
import * as z from 'zod/mini';
import {
  agentSecretValue,
  agentSettings,
  createMcpServer,
  deleteAgentSecret,
  deleteMcpServer,
  listAgentSecrets,
  patchMcpServer,
  updateAgentSettings,
  upsertAgentSecret,
} from '../../domain/agent-world/settings.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';
import { onSettings } from './on-settings.js';
import { profileRoutes } from './profile-routes.js';
import { metaProfileRoutes } from './meta-profile-routes.js';
import { AGENT_SETTINGS_SCHEMA, CONVERSATION_SETTINGS_SCHEMA } from '../../domain/agent-world/settings-schema.js';

const Json = z.record(z.string(), z.unknown());
const nullableString = z.nullable(z.string());
/** `SettingsResponse`. */
const SettingsResponse = z.object({
  agent_settings: Json,
  conversation_settings: Json,
  llm_api_key_is_set: z.boolean(),
  active_profile: nullableString,
  active_agent_profile_id: nullableString,
  active_meta_profile: nullableString,
  misc_settings: Json,
});
/** `SettingsUpdateRequest`. */
const SettingsUpdateRequest = z.object({
  agent_settings_diff: z.optional(z.nullable(Json)),
  conversation_settings_diff: z.optional(z.nullable(Json)),
  misc_settings_diff: z.optional(z.nullable(Json)),
  active_profile: z.optional(nullableString),
  active_agent_profile_id: z.optional(nullableString),
  active_meta_profile: z.optional(nullableString),
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
  ...profileRoutes,
  ...metaProfileRoutes,
]);
