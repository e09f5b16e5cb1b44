/**
 * The SaaS routes Agent Canvas's cloud client calls, as a single-user install answers them: one
 * personal organization, the current API key, agent profiles, shared (public) conversations. Shapes
 * from the published app-server OpenAPI document (Aug 2026): `OrgPage`/`OrgResponse`, `MeResponse`,
 * `CurrentApiKeyResponse`, `AgentProfileListResponse`, `AgentProfileDetailResponse`, `SharedConversation`.
 */
import * as z from 'zod/mini';
import { DateTime } from './common.js';

/** `OrgResponse`: an organization (secrets never answered: `search_api_key`, `sandbox_api_key` are null). */
export const OrgResponse = z.object({
  id: z.string(),
  name: z.string(),
  contact_name: z.string(),
  contact_email: z.string(),
  conversation_expiration: z.nullable(z.int()),
  remote_runtime_resource_factor: z.nullable(z.int()),
  billing_margin: z.nullable(z.number()),
  enable_proactive_conversation_starters: z.boolean(),
  sandbox_base_container_image: z.nullable(z.string()),
  sandbox_runtime_container_image: z.nullable(z.string()),
  org_version: z.int(),
  search_api_key: z.nullable(z.string()),
  sandbox_api_key: z.nullable(z.string()),
  max_budget_per_task: z.nullable(z.number()),
  v1_enabled: z.nullable(z.boolean()),
  credits: z.nullable(z.number()),
  is_personal: z.boolean(),
});
/** `OrgPage`: the user's organizations and the current one. */
export const OrgPage = z.object({
  items: z.array(OrgResponse),
  next_page_id: z.nullable(z.string()),
  current_org_id: z.nullable(z.string()),
});
/** `MeResponse`: the user in an organization (the LLM key masked, never in clear). */
export const MeResponse = z.object({
  org_id: z.string(),
  user_id: z.string(),
  email: z.string(),
  role: z.string(),
  permissions: z.array(z.string()),
  llm_api_key: z.string(),
  llm_api_key_for_byor: z.nullable(z.string()),
  agent_settings_diff: z.record(z.string(), z.unknown()),
  conversation_settings_diff: z.record(z.string(), z.unknown()),
  status: z.nullable(z.string()),
});
/** `CurrentApiKeyResponse`: the key a request came with. */
export const CurrentApiKeyResponse = z.object({
  id: z.int(),
  name: z.nullable(z.string()),
  org_id: z.string(),
  bound_org_id: z.nullable(z.string()),
  user_id: z.string(),
  auth_type: z.string(),
});
/** `AgentProfileInfo`: one agent profile in the list. */
export const AgentProfileInfo = z.object({
  id: z.nullable(z.string()),
  name: z.string(),
  agent_kind: z.string(),
  revision: z.nullable(z.int()),
  llm_profile_ref: z.nullable(z.string()),
  mcp_server_refs: z.nullable(z.array(z.string())),
});
/** `AgentProfileListResponse`. */
export const AgentProfileListResponse = z.object({ profiles: z.array(AgentProfileInfo), active_agent_profile_id: z.nullable(z.string()) });
/** `AgentProfileDetailResponse`: a profile's name and its definition (an `OpenHandsAgentProfile`). */
export const AgentProfileDetailResponse = z.object({ name: z.string(), profile: z.record(z.string(), z.unknown()) });
/** `SharedConversation`: what anyone may read of a public conversation. */
export const SharedConversation = z.object({
  id: z.string(),
  created_by_user_id: z.nullable(z.string()),
  sandbox_id: z.string(),
  selected_repository: z.nullable(z.string()),
  selected_branch: z.nullable(z.string()),
  git_provider: z.nullable(z.string()),
  title: z.nullable(z.string()),
  pr_number: z.array(z.int()),
  llm_model: z.nullable(z.string()),
  metrics: z.nullable(z.unknown()),
  parent_conversation_id: z.nullable(z.string()),
  sub_conversation_ids: z.array(z.string()),
  created_at: DateTime,
  updated_at: DateTime,
});
