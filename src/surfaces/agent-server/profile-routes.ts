/**
 * The agent server's LLM profiles and agent profiles: list, read, save, validate, delete, rename,
 * activate (and an agent profile materialized). Host-wide routes (`host-wide.ts`), part of
 * `settings-routes.ts`'s table, in its order.
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
import { providerConnectionExists } from '../../domain/agent-world/connections.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import { activateProfile, deleteProfile, getProfile, listProfiles, renameProfile, saveProfile } from '../../domain/user/settings.js';
import { ProfileName, RenameProfileRequest } from '../../schemas/user-settings.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';
import { onSettings } from './on-settings.js';
import { wholeLlm } from '../../domain/agent/agent-server.js';

const Json = z.record(z.string(), z.unknown());
const nullableString = z.nullable(z.string());
const ProfileParam = z.object({ name: ProfileName });
/** `SaveProfileRequest`: an LLM (`LLM`), and whether its key is kept. */
const SaveProfileRequest = z.object({
  llm: z.looseObject({ model: z.string(), base_url: z.optional(nullableString), api_key: z.optional(nullableString) }),
  include_secrets: z._default(z.boolean(), true),
});
/** Most LLM profiles a user keeps (`MAX_PROFILES`). */
const MAX_PROFILES = 50;
const ProfileMutation = z.object({ name: z.string(), message: z.string() });

/** The LLM and agent profile routes (spread into `settingsRoutes`, `settings-routes.ts`). */
export const profileRoutes: readonly Route[] = hostWide([
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
    // The whole LLM, as `LLMProfileStore` loads it (its key null: `profiles_router.py`, get_profile).
    handle: ({ params }, context) =>
      onSettings(context, (state) => {
        const found = getProfile(state, params.name);
        return isRefusal(found) ? found : { ...found, config: wholeLlm(found.config) };
      }),
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
    summary: 'Delete an LLM profile, one not saved too (profiles_router.py, delete_profile: idempotent)',
    params: ProfileParam,
    response: ProfileMutation,
    errors: [409],
    handle: ({ params }, context) =>
      onSettings(context, (state) =>
        state.store.settings?.llm_profiles[params.name]
          ? deleteProfile(state, params.name)
          : { name: params.name, message: `Profile '${params.name}' deleted` },
      ),
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
    response: z.object({ name: z.string(), message: z.string(), llm_applied: z.boolean() }),
    errors: [404],
    bodyOptional: true,
    body: z.optional(Json),
    // `ActivateProfileResponse`: whether the LLM was applied to the settings (the fake's settings are an OpenHands agent's: always).
    handle: ({ params }, context) =>
      onSettings(context, async (state) => {
        const answer = await activateProfile(state, params.name);
        if (isRefusal(answer)) return answer;
        return { name: answer.name, message: `Profile '${params.name}' activated and applied to current settings`, llm_applied: true };
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
