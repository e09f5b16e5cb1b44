/**
 * What the agent host keeps for the whole host besides the user's settings, LLM profiles and
 * secrets (`domain/agent-world/world.ts`): the frontend's `misc_settings`, agent profiles and the
 * active one, meta-profiles and the active one, saved workspaces and their parents, the directories made on the host, the installed
 * skills and plugins, the LLM provider connections and the ChatGPT subscription's sign-in. A record
 * of the store like the settings: a fixture may hold it (`agent_world`), a snapshot and the state
 * file show it, each secret in it masked. A field left out reads as a fresh host's.
 */
import * as z from 'zod/mini';

const Json = z.record(z.string(), z.unknown());

/** A saved workspace (`WorkspaceItem`). */
export const WorkspaceItem = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  parentPath: z.optional(z.nullable(z.string())),
});
export type WorkspaceItem = z.infer<typeof WorkspaceItem>;

/** A saved workspace parent (`WorkspaceParentItem`). */
export const WorkspaceParentItem = z.object({ id: z.string(), name: z.string(), path: z.string() });
export type WorkspaceParentItem = z.infer<typeof WorkspaceParentItem>;

/** An agent profile (`AgentProfile`): its own fields, the rest of what was saved in `config`. */
export const AgentProfileRecord = z.object({
  id: z.string(),
  name: z.string(),
  revision: z.int(),
  agent_kind: z.string(),
  llm_profile_ref: z.nullable(z.string()),
  mcp_server_refs: z.nullable(z.array(z.string())),
  config: Json,
});
export type AgentProfileRecord = z.infer<typeof AgentProfileRecord>;

/** A meta-profile (`MetaProfile`, every field written) under its name: a classifier profile and classes, or a direct-routing prompt. */
export const MetaProfileRecord = z.object({
  name: z.string(),
  classifier_model: z.string(),
  classes: z.array(z.object({ description: z.string(), model: z.string() })),
  prompt_template: z.nullable(z.string()),
  model_table: z.nullable(z.string()),
});
export type MetaProfileRecord = z.infer<typeof MetaProfileRecord>;

/** An installed skill or plugin and whether it is enabled. */
export const InstalledRecord = z.object({ name: z.string(), enabled: z.boolean() });
export type InstalledRecord = z.infer<typeof InstalledRecord>;

/** A stored provider connection (`ProviderConnection`): `api_key` is a secret, never answered. */
export const ProviderConnectionRecord = z.object({
  id: z.string(),
  display_name: z.string(),
  provider: z.string(),
  api_key: z.string(),
  base_url: z.nullable(z.string()),
  created_at: z.number(),
  updated_at: z.number(),
});
export type ProviderConnectionRecord = z.infer<typeof ProviderConnectionRecord>;

/** The agent host's host-wide state; a field left out is a fresh host's. */
export const AgentWorldRecord = z.strictObject({
  misc_settings: z.optional(Json),
  active_agent_profile_id: z.optional(z.nullable(z.string())),
  agent_profiles: z.optional(z.array(AgentProfileRecord)),
  /** The meta-profiles, and the active one's name. */
  meta_profiles: z.optional(z.array(MetaProfileRecord)),
  active_meta_profile: z.optional(z.nullable(z.string())),
  workspaces: z.optional(z.array(WorkspaceItem)),
  workspace_parents: z.optional(z.array(WorkspaceParentItem)),
  /** Directories made on the host (absolute paths), besides a fresh host's. */
  directories: z.optional(z.array(z.string())),
  /** The installed skills, in the order they were installed (a fresh host: github and docker). */
  skills: z.optional(z.array(InstalledRecord)),
  /** The installed plugins (a fresh host: code-review). */
  plugins: z.optional(z.array(InstalledRecord)),
  provider_connections: z.optional(z.array(ProviderConnectionRecord)),
  /** When the ChatGPT subscription's credentials expire (epoch ms); null: signed out. */
  subscription_expires_at: z.optional(z.nullable(z.number())),
});
export type AgentWorldRecord = z.infer<typeof AgentWorldRecord>;
