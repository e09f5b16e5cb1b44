/**
 * The user's settings on the app server: legacy `/api/settings` and `/api/reset-settings`
 * (openhands `server/routes/settings.py`: load_settings, store_settings, reset_settings) and the
 * newest `/api/v1/settings` with its schemas and LLM profiles.
 */
import * as z from 'zod/mini';
import {
  activateProfile,
  deleteProfile,
  getProfile,
  legacySettings,
  listProfiles,
  renameProfile,
  resetSettingsGone,
  saveProfile,
  storedSettingsView,
  storeLegacySettings,
} from '../../../domain/user/settings.js';
import { storeSettings } from '../../../domain/user/settings-diffs.js';
import { AGENT_SETTINGS_SCHEMA, CONVERSATION_SETTINGS_SCHEMA } from '../../../domain/agent-world/settings-schema.js';
import {
  ActivateProfileResponse,
  LegacySettingsInput,
  LegacySettingsView,
  ProfileDetailResponse,
  ProfileListResponse,
  ProfileMutationResponse,
  ProfileName,
  RenameProfileRequest,
  SaveProfileRequest,
  SettingsUpdate,
  SettingsView,
} from '../../../schemas/user-settings.js';
import { EditResponse } from '../../../schemas/user-secrets.js';
import { defineRoute, type Route } from '../../../http/route.js';

const ProfileParam = z.object({ name: ProfileName });

/** The settings routes. */
export const settingsRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/settings',
    summary: "The user's settings without secrets (404 before the first save)",
    response: LegacySettingsView,
    errors: [404],
    handle: (_input, context) => context.runner.run(legacySettings),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/settings',
    summary: "Store the user's settings (a null LLM key, model, base URL or search key keeps the stored one)",
    body: LegacySettingsInput,
    response: z.record(z.string(), z.unknown()),
    handle: ({ body }, context) => context.runner.run(storeLegacySettings, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/reset-settings',
    summary: 'Removed in the real server: 410',
    response: EditResponse,
    untypedInDocument: true,
    errors: [410],
    handle: async () => resetSettingsGone(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings',
    summary: "The user's settings (the newest shape; secrets as *_set flags; 404 before the first save)",
    response: SettingsView,
    errors: [404],
    handle: (_input, context) => context.runner.run(storedSettingsView),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/settings',
    summary:
      "Change some of the user's settings: agent_settings_diff and conversation_settings_diff deep-merged, the older nested keys refused (settings_router.py, store_settings)",
    body: SettingsUpdate,
    documentedBody: z.record(z.string(), z.unknown()),
    response: z.record(z.string(), z.unknown()),
    handle: ({ body }, context) => context.runner.run(storeSettings, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/agent-schema',
    summary: 'The form schema of the agent settings, in sections (settings_router.py, load_settings_schema)',
    response: z.record(z.string(), z.unknown()),
    handle: async () => AGENT_SETTINGS_SCHEMA,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/conversation-schema',
    summary: 'The form schema of the conversation settings, in sections (settings_router.py, load_conversation_settings_schema)',
    response: z.record(z.string(), z.unknown()),
    handle: async () => CONVERSATION_SETTINGS_SCHEMA,
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/profiles',
    summary: 'The saved LLM profiles and the active one',
    response: ProfileListResponse,
    handle: (_input, context) => context.runner.run(listProfiles),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/settings/profiles/:name',
    summary: 'One LLM profile (its key never)',
    params: ProfileParam,
    response: ProfileDetailResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(getProfile, params.name),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/settings/profiles/:name',
    summary: 'Save an LLM profile: the given LLM, or the current one',
    params: ProfileParam,
    body: SaveProfileRequest,
    bodyNullable: true,
    response: ProfileMutationResponse,
    successStatus: 201,
    handle: ({ params, body }, context) => context.runner.run(saveProfile, params.name, body, { keepStoredKey: true }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/v1/settings/profiles/:name',
    summary: 'Delete an LLM profile',
    params: ProfileParam,
    response: ProfileMutationResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(deleteProfile, params.name),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/settings/profiles/:name/activate',
    summary: "Make a profile's LLM the settings' LLM",
    params: ProfileParam,
    response: ActivateProfileResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(activateProfile, params.name),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/v1/settings/profiles/:name/rename',
    summary: 'Rename a profile (409 when the new name is taken)',
    params: ProfileParam,
    body: RenameProfileRequest,
    response: ProfileMutationResponse,
    errors: [404, 409],
    handle: ({ params, body }, context) => context.runner.run(renameProfile, params.name, body.new_name),
  }),
]);
