/**
 * Every deliberate difference between the fake's OpenAPI document and the real service's, each
 * with its reason. `fakehands drift` reports these as known (never silently dropped) and reports
 * a declaration that no longer matches anything as stale. The README's table of deliberate
 * differences lists each of them (a test checks it).
 */
import { markBuiltIn, type KnownDifference } from './compare.js';

/** Why the legacy routes differ from the legacy document: it is older than the server the fake copies. */
const NEWER_SOURCE = 'the legacy document is from server 0.53; the Nov 2025 source the fake copies has';

const PROVIDERS_NEWER = `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`;
const GET_BODY_REASON =
  'the real route reads an EventFilter from the JSON body of a GET, which fetch cannot send; the fake reads no filter';
const READS_BODY_ITSELF =
  'the real route reads a JSON body itself (request.json()), so its document declares none; the fake declares the object it reads';
const CANNOT_FAIL =
  "the real route answers 500 when its runtime or store fails (415 for a binary file); the fake's workspace and store do not fail";
const MCP_NEWEST =
  'the newest MCP configuration is a map of mcpServers; the fake reads the Nov 2025 lists (sse_servers, stdio_servers, shttp_servers) the web client sends';

/** Why a ConversationErrorEvent has a classification: the newest SDK has it. */
const ERROR_CLASSIFICATION_NEWER =
  'the newest SDK (Aug 2026, event/error_classification.py) classifies a ConversationErrorEvent (kind, retryable, user_action, error_id); the Feb 2026 document predates it';
/** Why the file editor's action and observation have a second name. */
const STR_REPLACE_EDITOR =
  "Agent Canvas's type guards render StrReplaceEditorAction/StrReplaceEditorObservation (the file editor's fields under another name), which no SDK event has; the str_replace step publishes them so that card can be built";
/** The event routes of the app server (the V1 ones and the SaaS shared-events search): each kind as the published document, with the newest SDK's additions. */
const EVENT_ROUTE_DIFFERENCES: KnownDifference[] = [
  ['GET /api/v1/conversation/{conversation_id}/events/search', 'response items[]'],
  ['GET /api/v1/conversation/{conversation_id}/events', 'response []'],
  ['GET /api/shared-events/search', 'response items[]'],
].flatMap(([operation, at]) => [
  { operation: operation!, location: `${at}.classification`, reason: ERROR_CLASSIFICATION_NEWER },
  { operation: operation!, location: `${at}.action.kind`, aspect: 'enum' as const, reason: STR_REPLACE_EDITOR },
  { operation: operation!, location: `${at}.observation.kind`, aspect: 'enum' as const, reason: STR_REPLACE_EDITOR },
]);

/** The declared differences of the whole web app's routes. */
const WEB_APP_DIFFERENCES: KnownDifference[] = [
  { operation: 'GET /api/settings', location: 'response condenser_max_size', reason: `${NEWER_SOURCE} condenser_max_size (at least 20)` },
  {
    operation: 'GET /api/settings',
    location: 'response mcp_config.shttp_servers[].timeout',
    reason: `${NEWER_SOURCE} the streamable-HTTP MCP server timeout (seconds, default 60)`,
  },
  {
    operation: 'GET /api/settings',
    location: 'response secrets_store',
    reason: `${NEWER_SOURCE} a secrets_store serialized as {"provider_tokens": {}} (secrets never leave the store)`,
  },
  { operation: 'POST /api/settings', location: 'request condenser_max_size', reason: `${NEWER_SOURCE} condenser_max_size (at least 20)` },
  {
    operation: 'POST /api/settings',
    location: 'request mcp_config.shttp_servers[].timeout',
    reason: `${NEWER_SOURCE} the streamable-HTTP MCP server timeout (seconds, default 60)`,
  },
  {
    operation: 'POST /api/settings',
    location: 'request secrets_store',
    reason: `${NEWER_SOURCE} a frozen secrets_store the route ignores (secrets are stored apart)`,
  },
  { operation: 'POST /api/settings', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'POST /api/secrets', location: 'status 200', reason: `${NEWER_SOURCE} create_custom_secret answering 201 Created` },
  { operation: 'GET /api/user/installations', location: 'query provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  { operation: 'GET /api/user/repositories', location: 'query selected_provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  { operation: 'GET /api/user/repositories', location: 'response [].git_provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  { operation: 'GET /api/user/search/repositories', location: 'query selected_provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  { operation: 'GET /api/user/search/repositories', location: 'response [].git_provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  { operation: 'GET /api/user/suggested-tasks', location: 'response [].git_provider', aspect: 'enum', reason: PROVIDERS_NEWER },
  {
    operation: 'GET /api/user/repository/branches',
    location: 'query page',
    reason: `${NEWER_SOURCE} branches paged with page and per_page, answered as PaginatedBranchesResponse`,
  },
  {
    operation: 'GET /api/user/repository/branches',
    location: 'query per_page',
    reason: `${NEWER_SOURCE} branches paged with page and per_page, answered as PaginatedBranchesResponse`,
  },
  {
    operation: 'GET /api/user/repository/branches',
    location: 'response',
    reason: `${NEWER_SOURCE} branches paged with page and per_page, answered as PaginatedBranchesResponse`,
  },
  {
    operation: 'GET /api/user/repository/{owner}/{repo}/microagents',
    location: 'operation',
    reason: `${NEWER_SOURCE} a repository's microagents (the web client's microagent management)`,
  },
  {
    operation: 'GET /api/user/repository/{owner}/{repo}/microagents/content',
    location: 'operation',
    reason: `${NEWER_SOURCE} a repository's microagents (the web client's microagent management)`,
  },
  {
    operation: 'GET /api/user/search/branches',
    location: 'operation',
    reason: `${NEWER_SOURCE} a branch search (the web client's branch picker)`,
  },
  { operation: 'GET /api/conversations/{conversation_id}/events', location: 'request', reason: GET_BODY_REASON },
  { operation: 'POST /api/conversations/{conversation_id}/events', location: 'request', reason: READS_BODY_ITSELF },
  { operation: 'POST /api/conversations/{conversation_id}/submit-feedback', location: 'request', reason: READS_BODY_ITSELF },
  {
    operation: 'POST /api/conversations/{conversation_id}/start',
    location: 'request providers_set[]',
    aspect: 'enum',
    reason: PROVIDERS_NEWER,
  },
  {
    operation: 'POST /api/conversations/{conversation_id}/start',
    location: 'response conversation_status',
    aspect: 'enum',
    reason: `${NEWER_SOURCE} the statuses ARCHIVED and ERROR (a V1 conversation whose sandbox is gone or failed)`,
  },
  {
    operation: 'POST /api/conversations/{conversation_id}/stop',
    location: 'response conversation_status',
    aspect: 'enum',
    reason: `${NEWER_SOURCE} the statuses ARCHIVED and ERROR (a V1 conversation whose sandbox is gone or failed)`,
  },
  {
    operation: 'POST /api/conversations/{conversation_id}/upload-files',
    location: 'response',
    reason: `${NEWER_SOURCE} upload_files answering {uploaded_files: [paths], skipped_files: [{name, reason}]} (a JSONResponse, not its declared model)`,
  },
  { operation: 'GET /api/conversations/{conversation_id}/git/changes', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'GET /api/conversations/{conversation_id}/git/diff', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'GET /api/conversations/{conversation_id}/list-files', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'GET /api/conversations/{conversation_id}/zip-directory', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'GET /api/conversations/{conversation_id}/select-file', location: 'status 415', reason: CANNOT_FAIL },
  { operation: 'POST /api/v1/settings', location: 'status 500', reason: CANNOT_FAIL },
  { operation: 'POST /api/v1/secrets/git-providers', location: 'request mcp_config', reason: MCP_NEWEST },
];

/** Why a personal organization has no settings of its own in the fake (the SaaS routes Agent Canvas's cloud client calls, issue 33). */
const ORG_SETTINGS_REASON =
  "a single-user install's personal organization: its agent and conversation settings are the user's (GET /api/v1/settings answers them), so the fake's OrgResponse leaves the organization-level copies out";
/** Why the fake serves a SaaS route the published document lacks. */
const SAAS_SINGLE_USER =
  "a SaaS route Agent Canvas's cloud client calls (OpenHands Cloud's, absent from an open-source app server and from the trimmed snapshot), answered as a single-user install would: one personal organization, an unbound key, the built-in agent profile, public conversations shared";
/** Why an organization's LLM profiles differ. */
const ORG_PROFILES_REASON =
  "the fake answers an organization's LLM profiles in the agent server's profile shape (profiles_router.py: config with api_key_set, never the key; a body to save, answered 201; the model on activate); the published document answers an llm object and 200";
/** Why an agent profile's definition differs. */
const AGENT_PROFILE_REASON =
  "the fake holds only the built-in OpenHands profile and answers the fields it has (agent_kind, name, the LLM, MCP, secret and skill refs); the document's union of OpenHands and ACP profiles spells out every option";
/** Why a shared conversation's git provider differs. */
const SHARED_GIT_PROVIDER_REASON =
  "the fake types git_provider as the provider's name (github, gitlab, bitbucket, …); the document leaves it untyped";

/** The declared differences. */
export const KNOWN_DIFFERENCES: readonly Readonly<KnownDifference>[] = Object.freeze(
  (
    [
      // ---------------------------------------------------------------- V1 (document of Aug 2026)
      {
        operation: 'DELETE /api/v1/sandboxes/{id}',
        location: 'path id',
        reason:
          'the real document leaves the path parameter {id} undeclared (its function reads ?sandbox_id= instead); OpenAPI requires every templated segment to be declared, so the fake declares it',
      },
      {
        operation: 'POST /api/v1/app-conversations',
        location: 'request processors[].kind',
        aspect: 'required',
        reason:
          'the real input schema gives each processor kind a default, but its discriminated union needs kind to pick one; the fake asks for it',
      },
      {
        operation: 'POST /api/v1/app-conversations/stream-start',
        location: 'request processors[].kind',
        aspect: 'required',
        reason:
          'the real input schema gives each processor kind a default, but its discriminated union needs kind to pick one; the fake asks for it',
      },

      {
        operation: 'POST /api/v1/conversations/{conversation_id}/pending-messages',
        location: 'request',
        reason:
          'the real route reads its body itself (a message: role and content), so its document declares none; the fake declares the message it reads',
      },
      {
        operation: 'GET /api/v1/events/search',
        location: 'operation',
        aspect: 'served',
        reason:
          'the Nov 2025 web client reads events at /api/v1/events/...?conversation_id__eq= (it waits for that count before it calls the history loaded); the newest document serves them at /api/v1/conversation/{id}/events, which the fake serves too',
      },
      {
        operation: 'GET /api/v1/events/count',
        location: 'operation',
        aspect: 'served',
        reason:
          'the Nov 2025 web client reads events at /api/v1/events/...?conversation_id__eq= (it waits for that count before it calls the history loaded); the newest document serves them at /api/v1/conversation/{id}/events, which the fake serves too',
      },

      ...['response items[].agent_settings', 'response items[].conversation_settings'].map((location) => ({
        operation: 'GET /api/organizations',
        location,
        reason: ORG_SETTINGS_REASON,
      })),
      ...['response agent_settings', 'response conversation_settings'].map((location) => ({
        operation: 'GET /api/organizations/{org_id}',
        location,
        reason: ORG_SETTINGS_REASON,
      })),
      { operation: 'GET /api/organizations/{org_id}/profiles/{name}', location: 'response', reason: ORG_PROFILES_REASON },
      { operation: 'POST /api/organizations/{org_id}/profiles/{name}', location: 'request', reason: ORG_PROFILES_REASON },
      { operation: 'POST /api/organizations/{org_id}/profiles/{name}', location: 'status 200', reason: ORG_PROFILES_REASON },
      { operation: 'POST /api/organizations/{org_id}/profiles/{name}/activate', location: 'response', reason: ORG_PROFILES_REASON },
      { operation: 'GET /api/agent-profiles/{name}', location: 'response profile', reason: AGENT_PROFILE_REASON },
      { operation: 'GET /api/shared-conversations', location: 'response [].git_provider', reason: SHARED_GIT_PROVIDER_REASON },
      {
        operation: 'GET /api/organizations/{org_id}/provider-connections',
        location: 'operation',
        aspect: 'served',
        reason: SAAS_SINGLE_USER,
      },
      {
        operation: 'GET /api/v1/app-conversations/{conversation_id}/files',
        location: 'operation',
        aspect: 'served',
        reason:
          "Agent Canvas's file tree reads a cloud conversation's files at /api/v1/app-conversations/{id}/files, which the published document (Aug 2026) does not declare",
      },
      // ---------------------------------------------------------------- legacy (document of server 0.53)
      {
        operation: 'GET /api/conversations',
        location: 'query conversation_trigger',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the triggers bitbucket and automation`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'query include_sub_conversations',
        reason: `${NEWER_SOURCE} include_sub_conversations (sub-conversations are left out by default)`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'response results[].conversation_version',
        reason: `${NEWER_SOURCE} conversation_version (V0 or V1)`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'response results[].sub_conversation_ids',
        reason: `${NEWER_SOURCE} sub_conversation_ids`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'response results[].git_provider',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'response results[].status',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the statuses ARCHIVED and ERROR (a V1 conversation whose sandbox is gone or failed)`,
      },
      {
        operation: 'GET /api/conversations',
        location: 'response results[].trigger',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the triggers bitbucket and automation`,
      },
      {
        operation: 'GET /api/conversations/{conversation_id}',
        location: 'response conversation_version',
        reason: `${NEWER_SOURCE} conversation_version (V0 or V1)`,
      },
      {
        operation: 'GET /api/conversations/{conversation_id}',
        location: 'response sub_conversation_ids',
        reason: `${NEWER_SOURCE} sub_conversation_ids`,
      },
      {
        operation: 'GET /api/conversations/{conversation_id}',
        location: 'response git_provider',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`,
      },
      {
        operation: 'GET /api/conversations/{conversation_id}',
        location: 'response status',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the statuses ARCHIVED and ERROR (a V1 conversation whose sandbox is gone or failed)`,
      },
      {
        operation: 'GET /api/conversations/{conversation_id}',
        location: 'response trigger',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the triggers bitbucket and automation`,
      },
      {
        operation: 'POST /api/conversations',
        location: 'request git_provider',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`,
      },
      {
        operation: 'POST /api/conversations',
        location: 'request create_microagent.git_provider',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`,
      },
      {
        operation: 'POST /api/conversations',
        location: 'request suggested_task.git_provider',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`,
      },
      {
        operation: 'POST /api/conversations',
        location: 'request mcp_config.shttp_servers[].timeout',
        reason: `${NEWER_SOURCE} the streamable-HTTP MCP server timeout (seconds, default 60)`,
      },
      {
        operation: 'POST /api/conversations',
        location: 'response conversation_status',
        aspect: 'enum',
        reason: `${NEWER_SOURCE} the statuses ARCHIVED and ERROR`,
      },
      {
        operation: 'POST /api/add-git-providers',
        location: 'request mcp_config.shttp_servers[].timeout',
        reason: `${NEWER_SOURCE} the streamable-HTTP MCP server timeout (seconds, default 60)`,
      },
      {
        operation: 'POST /api/add-git-providers',
        location: 'response',
        reason:
          'the real route declares no response model (it returns a JSONResponse); the fake declares what it sends: {"message": "Git providers stored"}',
      },
    ] satisfies KnownDifference[] as KnownDifference[]
  )
    .concat(WEB_APP_DIFFERENCES, EVENT_ROUTE_DIFFERENCES)
    .map((difference): Readonly<KnownDifference> => Object.freeze(difference)),
);

markBuiltIn(KNOWN_DIFFERENCES);

export { KNOWN_AGENT_DIFFERENCES, NEWEST_AGENT_SOURCE } from './known-agent-differences.js';
