/**
 * The agent server's meta-profiles (`/api/meta-profiles`, openhands-agent-server
 * `meta_profiles_router.py`): list, read, save, delete, activate. Host-wide routes
 * (`host-wide.ts`), part of `settings-routes.ts`'s table after the LLM and agent profiles.
 */
import * as z from 'zod/mini';
import {
  activateMetaProfile,
  deleteMetaProfile,
  getMetaProfile,
  listMetaProfiles,
  saveMetaProfile,
} from '../../domain/agent-world/meta-profiles.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';
import { onSettings } from './on-settings.js';

/** `MetaProfileName`: 1 to 64 letters, digits, `.`, `_` or `-`, starting with a letter or digit (`PROFILE_NAME_PATTERN`). */
const MetaProfileName = z.string().check(z.minLength(1), z.maxLength(64), z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/));
const NameParam = z.object({ name: MetaProfileName });
const nullableString = z.nullable(z.string());
/** `MetaProfileClass`. */
const MetaProfileClass = z.looseObject({ description: z.string(), model: z.string() });
/** `MetaProfile` as sent (its fields checked, the rest kept for the 422 that quotes it). */
const MetaProfileBody = z.looseObject({
  classifier_model: z.string(),
  classes: z.optional(z.array(MetaProfileClass)),
  prompt_template: z.optional(nullableString),
  model_table: z.optional(nullableString),
});
const Mutation = z.object({ name: z.string(), message: z.string() });

/** The meta-profile routes (spread into `settingsRoutes`, `settings-routes.ts`). */
export const metaProfileRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'GET',
    path: '/api/meta-profiles',
    summary: 'The meta-profiles and the active one (meta_profiles_router.py, list_meta_profiles)',
    response: z.object({
      meta_profiles: z.array(z.object({ name: z.string(), classifier_model: nullableString, num_classes: z.int() })),
      active_meta_profile: nullableString,
    }),
    handle: (_input, context) => onSettings(context, (state) => listMetaProfiles(state)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/meta-profiles/:name',
    summary: "A meta-profile's configuration (meta_profiles_router.py, get_meta_profile)",
    params: NameParam,
    response: z.object({
      name: z.string(),
      config: z.object({
        classifier_model: z.string(),
        classes: z.array(z.object({ description: z.string(), model: z.string() })),
        prompt_template: nullableString,
        model_table: nullableString,
      }),
    }),
    errors: [404],
    handle: ({ params }, context) => onSettings(context, (state) => getMetaProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/meta-profiles/:name',
    summary: 'Save a meta-profile; 422 when it cannot route, 409 past 50 (meta_profiles_router.py, save_meta_profile)',
    params: NameParam,
    body: MetaProfileBody,
    response: Mutation,
    successStatus: 201,
    errors: [409],
    handle: ({ params, body }, context) => onSettings(context, (state) => saveMetaProfile(state, params.name, body)),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/meta-profiles/:name',
    summary: 'Delete a meta-profile, a missing one too; the active one is cleared (meta_profiles_router.py, delete_meta_profile)',
    params: NameParam,
    response: Mutation,
    handle: ({ params }, context) => onSettings(context, (state) => deleteMetaProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/meta-profiles/:name/activate',
    summary: 'Make a meta-profile the active one; not applied for an ACP agent (meta_profiles_router.py, activate_meta_profile)',
    params: NameParam,
    response: z.object({ name: z.string(), message: z.string(), applied: z.boolean() }),
    errors: [404],
    bodyOptional: true,
    body: z.optional(z.unknown()),
    handle: ({ params }, context) => onSettings(context, (state) => activateMetaProfile(state, params.name)),
  }),
]);
