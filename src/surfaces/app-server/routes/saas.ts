/**
 * The SaaS routes Agent Canvas's cloud client calls (OpenHands Cloud's `enterprise/server/routes`:
 * organizations, API keys, shared conversations; the agent profiles), answered as a single-user
 * install would: one personal organization, current; an unbound API key; the built-in `default`
 * agent profile; the organization's LLM profiles are the user's (`/api/v1/settings/profiles`); a
 * public conversation is shared. Shapes from the published app-server OpenAPI document.
 */
import * as z from 'zod/mini';
import {
  agentProfile,
  agentProfiles,
  checkOrg,
  currentApiKey,
  organization,
  organizationMe,
  organizations,
  sharedConversations,
  sharedEvents,
} from '../../../domain/user/saas.js';
import { activateProfile, deleteProfile, getProfile, listProfiles, renameProfile, saveProfile } from '../../../domain/user/settings.js';
import { EventKind, EventSortOrder } from '../../../schemas/agent-server.js';
import { EventPage } from '../../../schemas/event-page.js';
import { laxInt } from '../../../schemas/helpers.js';
import { QueryDateTime } from '../../../schemas/query-datetime.js';
import {
  AgentProfileDetailResponse,
  AgentProfileListResponse,
  CurrentApiKeyResponse,
  MeResponse,
  OrgPage,
  OrgResponse,
  SharedConversation,
} from '../../../schemas/saas.js';
import {
  ActivateProfileResponse,
  ProfileDetailResponse,
  ProfileListResponse,
  ProfileMutationResponse,
  ProfileName,
  RenameProfileRequest,
  SaveProfileRequest,
} from '../../../schemas/user-settings.js';
import { defineRoute, type Route } from '../../../http/route.js';

const OrgParam = z.object({ org_id: z.string() });
const OrgProfileParam = z.object({ org_id: z.string(), name: ProfileName });
const ORG_PROFILES = '/api/organizations/:org_id/profiles';

/** The SaaS routes of a single-user install. */
export const saasRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/organizations',
    summary: "The user's organizations: one personal organization, the current one",
    query: z.object({ page_id: z.optional(z.string()), limit: z.optional(laxInt(z.int().check(z.gt(0), z.lte(100)))) }),
    response: OrgPage,
    handle: (_input, { runner }) => runner.run(organizations),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/organizations/:org_id',
    summary: 'An organization (404 but for the personal one)',
    params: OrgParam,
    response: OrgResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run(organization, params.org_id),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/organizations/:org_id/me',
    summary: 'The user in an organization: its owner (the LLM key masked)',
    params: OrgParam,
    response: MeResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run(organizationMe, params.org_id),
  }),
  defineRoute({
    method: 'GET',
    path: ORG_PROFILES,
    summary: "The organization's LLM profiles (a single user's: /api/v1/settings/profiles)",
    params: OrgParam,
    response: ProfileListResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run((state) => checkOrg(state, params.org_id) ?? listProfiles(state)),
  }),
  defineRoute({
    method: 'GET',
    path: `${ORG_PROFILES}/:name`,
    summary: 'One LLM profile of the organization (its key never)',
    params: OrgProfileParam,
    response: ProfileDetailResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run((state) => checkOrg(state, params.org_id) ?? getProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: `${ORG_PROFILES}/:name`,
    summary: 'Save an LLM profile of the organization',
    params: OrgProfileParam,
    body: SaveProfileRequest,
    bodyOptional: true,
    response: ProfileMutationResponse,
    successStatus: 201,
    errors: [404],
    handle: ({ params, body }, { runner }) =>
      runner.run((state) => checkOrg(state, params.org_id) ?? saveProfile(state, params.name, body, { keepStoredKey: true })),
  }),
  defineRoute({
    method: 'DELETE',
    path: `${ORG_PROFILES}/:name`,
    summary: 'Delete an LLM profile of the organization',
    params: OrgProfileParam,
    response: ProfileMutationResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run((state) => checkOrg(state, params.org_id) ?? deleteProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: `${ORG_PROFILES}/:name/activate`,
    summary: "Make an organization LLM profile the settings' LLM",
    params: OrgProfileParam,
    response: ActivateProfileResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run((state) => checkOrg(state, params.org_id) ?? activateProfile(state, params.name)),
  }),
  defineRoute({
    method: 'POST',
    path: `${ORG_PROFILES}/:name/rename`,
    summary: 'Rename an LLM profile of the organization (409 when taken)',
    params: OrgProfileParam,
    body: RenameProfileRequest,
    response: ProfileMutationResponse,
    errors: [404, 409],
    handle: ({ params, body }, { runner }) =>
      runner.run((state) => checkOrg(state, params.org_id) ?? renameProfile(state, params.name, body.new_name)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/organizations/:org_id/provider-connections',
    summary: "The organization's LLM provider connections: none on a single-user install (not in the published document)",
    params: OrgParam,
    response: z.object({ connections: z.array(z.record(z.string(), z.unknown())) }),
    errors: [404],
    handle: ({ params }, { runner }) => runner.run((state) => checkOrg(state, params.org_id) ?? { connections: [] }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/keys/current',
    summary: 'The API key of the request: unbound, its effective organization the personal one',
    response: CurrentApiKeyResponse,
    handle: (_input, { runner }) => runner.run(currentApiKey),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/agent-profiles',
    summary: 'The agent profiles: the built-in default OpenHands profile',
    query: z.object({ org_id: z.optional(z.string()) }),
    response: AgentProfileListResponse,
    handle: (_input, { runner }) => runner.run(agentProfiles),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/agent-profiles/:name',
    summary: 'An agent profile (404 but for the built-in one)',
    params: z.object({ name: z.string() }),
    query: z.object({ org_id: z.optional(z.string()) }),
    response: AgentProfileDetailResponse,
    errors: [404],
    handle: ({ params }, { runner }) => runner.run(agentProfile, params.name),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/shared-conversations',
    summary: 'Public conversations by id (null for the others)',
    query: z.object({ ids: z.array(z.string()).check(z.maxLength(100)) }),
    lists: ['ids'],
    response: z.array(z.nullable(SharedConversation)),
    handle: ({ query }, { runner }) => runner.run(sharedConversations, query.ids),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/shared-events/search',
    summary: "A page of a public conversation's events (empty for any other)",
    query: z.object({
      conversation_id: z.string(),
      kind__eq: z.optional(EventKind),
      timestamp__gte: z.optional(QueryDateTime),
      timestamp__lt: z.optional(QueryDateTime),
      sort_order: z._default(EventSortOrder, 'TIMESTAMP'),
      page_id: z.optional(z.string()),
      limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100),
    }),
    response: EventPage,
    handle: ({ query }, { runner }) =>
      runner.run(sharedEvents, query.conversation_id, {
        kind: query.kind__eq,
        // The store's timestamps are naive (no zone): a filter's zone is dropped, as the events routes do.
        timestamp__gte: query.timestamp__gte?.replace(/(Z|[+-]\d{2}:\d{2})$/, ''),
        timestamp__lt: query.timestamp__lt?.replace(/(Z|[+-]\d{2}:\d{2})$/, ''),
        sort_order: query.sort_order,
        page_id: query.page_id,
        limit: query.limit,
      }),
  }),
]);
