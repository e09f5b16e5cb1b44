/**
 * The agent server's meta-profiles (`/api/meta-profiles`): named model-routing configurations — a
 * classifier LLM profile and task classes (or a direct-routing prompt), each naming a saved LLM
 * profile — listed, read, saved, deleted and activated. Copies openhands-agent-server
 * `meta_profiles_router.py` (list_meta_profiles, get_meta_profile, save_meta_profile,
 * delete_meta_profile, activate_meta_profile) and openhands-sdk `llm/meta_profile_store.py`
 * (`MetaProfileStore`: names sorted, a delete of a missing one a no-op). They hold no secrets.
 */
import { invalid, refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { changeWorld, type MetaProfile, worldOf, worldRecordOf } from './world.js';

/** Most meta-profiles a user keeps (`MAX_META_PROFILES`). */
export const MAX_META_PROFILES = 50;

/** A meta-profile's save, read or delete answer (`MetaProfileMutationResponse`). */
const mutation = (name: string, what: string) => ({ name, message: `Meta-profile '${name}' ${what}` });
const notFound = (name: string) => refuse('not_found', `Meta-profile '${name}' not found`);

/** `GET /api/meta-profiles`: each one's summary, by name, and the active one. */
export function listMetaProfiles(state: DomainState) {
  const world = worldOf(state);
  return {
    meta_profiles: [...world.metaProfiles.keys()].sort().map((name) => {
      const profile = world.metaProfiles.get(name)!;
      return { name, classifier_model: profile.classifier_model, num_classes: profile.classes.length };
    }),
    active_meta_profile: world.active_meta_profile,
  };
}

/** `GET /api/meta-profiles/{name}`: its whole configuration; 404 without it. */
export function getMetaProfile(state: DomainState, name: string) {
  const profile = worldOf(state).metaProfiles.get(name);
  return profile ? { name, config: structuredClone(profile) } : notFound(name);
}

/** A meta-profile as a request sends it: its fields checked, the rest of it as sent. */
export interface MetaProfileInput {
  classifier_model: string;
  classes?: { description: string; model: string }[] | undefined;
  prompt_template?: string | null | undefined;
  model_table?: string | null | undefined;
  [key: string]: unknown;
}

/**
 * Why a meta-profile cannot route, or `null`: a direct-routing prompt must quote the request
 * (`{{ instance_text }}`) and excludes classes (`MetaProfile.validate_routing_mode`); one with
 * neither classes nor a prompt routes nowhere (the router's `_require_route`).
 */
function unroutable(profile: MetaProfileInput): string | null {
  const template = profile.prompt_template ?? null;
  const classes = profile.classes ?? [];
  if (template !== null) {
    if (!/\{\{\s*instance_text\s*\}\}/.test(template))
      return 'Direct-routing meta-profiles must include {{ instance_text }} in prompt_template.';
    if (classes.length > 0) return 'Direct-routing meta-profiles cannot also define classes.';
    return null;
  }
  return classes.length === 0 ? 'A meta-profile needs either classes or a prompt_template to route.' : null;
}

/**
 * `POST /api/meta-profiles/{name}`: created or overwritten, its fields as the model keeps them (the
 * rest dropped); 422 when it cannot route (a `value_error` at the body, as sent); 409 when a new one
 * would pass the limit.
 */
export function saveMetaProfile(state: DomainState, name: string, input: MetaProfileInput) {
  const error = unroutable(input);
  if (error) return invalid([{ type: 'value_error', loc: ['body'], msg: `Value error, ${error}`, input, ctx: { error } }]);
  const profile: MetaProfile = {
    classifier_model: input.classifier_model,
    classes: (input.classes ?? []).map(({ description, model }) => ({ description, model })),
    prompt_template: input.prompt_template ?? null,
    model_table: input.model_table ?? null,
  };
  const world = worldOf(state);
  if (!world.metaProfiles.has(name) && world.metaProfiles.size >= MAX_META_PROFILES)
    return refuse('conflict', `Meta-profile limit reached (${MAX_META_PROFILES}). Delete a meta-profile before saving a new one.`);
  const others = worldRecordOf(state).meta_profiles.filter((stored) => stored.name !== name);
  changeWorld(state, { meta_profiles: [...others, { name, ...profile }] });
  return mutation(name, 'saved');
}

/** `DELETE /api/meta-profiles/{name}`: gone (a missing one too); the active one deleted is active no more. */
export function deleteMetaProfile(state: DomainState, name: string) {
  const record = worldRecordOf(state);
  changeWorld(state, {
    meta_profiles: record.meta_profiles.filter((stored) => stored.name !== name),
    active_meta_profile: record.active_meta_profile === name ? null : record.active_meta_profile,
  });
  return mutation(name, 'deleted');
}

/**
 * `POST /api/meta-profiles/{name}/activate`: recorded as the active one, the agent's LLM unchanged;
 * an ACP agent cannot route between models, so nothing is recorded (`applied: false`); 404 without it.
 */
export function activateMetaProfile(state: DomainState, name: string): { name: string; message: string; applied: boolean } | Refusal {
  const world = worldOf(state);
  if (!world.metaProfiles.has(name)) return notFound(name);
  if (state.store.settings?.agent_settings_extra?.agent_kind === 'acp')
    return {
      name,
      message: `Meta-profile '${name}' not activated: the current agent settings cannot route between models`,
      applied: false,
    };
  changeWorld(state, { active_meta_profile: name });
  return { name, message: `Meta-profile '${name}' activated`, applied: true };
}
