/**
 * The SaaS routes Agent Canvas's cloud client calls, answered as a single-user install would: the
 * user belongs to one personal organization (the current one), every request's API key is bound to
 * no organization (its effective organization is the personal one), the agent profiles are the one
 * built-in `default` OpenHands profile, and a conversation is shared when it is public.
 */
import { searchEvents } from '../agent/agent-server.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { settingsView } from './settings.js';
import { appConversationView } from '../conversations/views.js';
import type * as z from 'zod/mini';
import type {
  AgentProfileDetailResponse,
  AgentProfileListResponse,
  CurrentApiKeyResponse,
  MeResponse,
  OrgPage,
  OrgResponse,
  SharedConversation,
} from '../../schemas/saas.js';

/** The id of the user and of their personal organization when the fake has no user id (a SaaS personal org's id is its user's). */
export const SINGLE_USER_ID = '6b6f5d1e-0000-4000-8000-000000000001';
/** The name of the built-in agent profile. */
export const DEFAULT_AGENT_PROFILE = 'default';
/** What the owner of an organization may do (the permissions Canvas reads from `/me`). */
const OWNER_PERMISSIONS = [
  'manage_secrets',
  'manage_integrations',
  'manage_application_settings',
  'manage_llm_settings',
  'view_billing',
  'manage_members',
];

/** The user's id, which is also their personal organization's. */
export function personalOrgId(state: DomainState): string {
  return state.options.userId ?? SINGLE_USER_ID;
}

/** `OrgResponse` of the personal organization. */
function personalOrg(state: DomainState): z.output<typeof OrgResponse> {
  return {
    id: personalOrgId(state),
    name: 'Personal',
    contact_name: 'fakehands user',
    contact_email: 'user@fakehands.invalid',
    conversation_expiration: null,
    remote_runtime_resource_factor: null,
    billing_margin: null,
    enable_proactive_conversation_starters: false,
    sandbox_base_container_image: null,
    sandbox_runtime_container_image: null,
    org_version: 1,
    search_api_key: null,
    sandbox_api_key: null,
    max_budget_per_task: null,
    v1_enabled: true,
    credits: null,
    is_personal: true,
  };
}

/** `GET /api/organizations`: the personal organization, current. */
export function organizations(state: DomainState): z.output<typeof OrgPage> {
  return { items: [personalOrg(state)], next_page_id: null, current_org_id: personalOrgId(state) };
}

/** 404 for any organization but the personal one (the user is a member of no other). */
export function checkOrg(state: DomainState, orgId: string): Refusal | null {
  return orgId === personalOrgId(state) ? null : refuse('not_found', 'Organization not found');
}

/** `GET /api/organizations/{org_id}`. */
export function organization(state: DomainState, orgId: string): z.output<typeof OrgResponse> | Refusal {
  return checkOrg(state, orgId) ?? personalOrg(state);
}

/** `GET /api/organizations/{org_id}/me`: the user is the owner; the LLM key masked. */
export function organizationMe(state: DomainState, orgId: string): z.output<typeof MeResponse> | Refusal {
  return (
    checkOrg(state, orgId) ?? {
      org_id: orgId,
      user_id: personalOrgId(state),
      email: 'user@fakehands.invalid',
      role: 'owner',
      permissions: [...OWNER_PERMISSIONS],
      llm_api_key: settingsView(state).llm_api_key_set ? '**********' : '',
      llm_api_key_for_byor: null,
      agent_settings_diff: {},
      conversation_settings_diff: {},
      status: 'active',
    }
  );
}

/** `GET /api/keys/current`: an unbound key whose effective organization is the personal one. */
export function currentApiKey(state: DomainState): z.output<typeof CurrentApiKeyResponse> {
  return {
    id: 1,
    name: 'fakehands',
    org_id: personalOrgId(state),
    bound_org_id: null,
    user_id: personalOrgId(state),
    auth_type: 'api_key',
  };
}

/** `GET /api/agent-profiles`: the built-in default OpenHands profile (no LLM profile of its own: it runs on the settings' LLM). */
export function agentProfiles(_state: DomainState): z.output<typeof AgentProfileListResponse> {
  return {
    profiles: [
      {
        id: DEFAULT_AGENT_PROFILE,
        name: DEFAULT_AGENT_PROFILE,
        agent_kind: 'openhands',
        revision: 1,
        llm_profile_ref: null,
        mcp_server_refs: null,
      },
    ],
    active_agent_profile_id: null,
  };
}

/** `GET /api/agent-profiles/{name}`: the built-in profile; 404 for any other name. */
export function agentProfile(_state: DomainState, name: string): z.output<typeof AgentProfileDetailResponse> | Refusal {
  if (name !== DEFAULT_AGENT_PROFILE) return refuse('not_found', `Agent profile '${name}' not found`);
  return {
    name,
    profile: { agent_kind: 'openhands', name, llm_profile_ref: null, mcp_server_refs: null, secret_refs: null, skills: null },
  };
}

/** The public V1 conversation of `id`, or `undefined`. */
function publicConversation(state: DomainState, id: string) {
  const key = toHyphenatedUuid(id);
  const record = key ? state.store.conversations.get(key) : undefined;
  return record?.version === 'V1' && record.public === true ? record : undefined;
}

/** `GET /api/shared-conversations?ids=`: each public conversation, `null` for the others. */
export function sharedConversations(state: DomainState, ids: readonly string[]): (z.output<typeof SharedConversation> | null)[] {
  return ids.map((id) => {
    const record = publicConversation(state, id);
    if (!record) return null;
    const view = appConversationView(state, record);
    return {
      id: view.id,
      created_by_user_id: view.created_by_user_id,
      sandbox_id: view.sandbox_id,
      selected_repository: view.selected_repository,
      selected_branch: view.selected_branch,
      git_provider: view.git_provider,
      title: view.title,
      pr_number: view.pr_number,
      llm_model: view.llm_model,
      metrics: view.metrics,
      parent_conversation_id: view.parent_conversation_id,
      sub_conversation_ids: view.sub_conversation_ids,
      created_at: view.created_at,
      updated_at: view.updated_at,
    };
  });
}

/** `GET /api/shared-events/search`: a page of a public conversation's events (empty for any other). */
export function sharedEvents(state: DomainState, conversationId: string, page: Parameters<typeof searchEvents>[2]) {
  const record = publicConversation(state, conversationId);
  return record ? searchEvents(state, record, page) : { items: [], next_page_id: null };
}
