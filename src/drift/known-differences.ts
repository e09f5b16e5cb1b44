/**
 * Every deliberate difference between the fake's OpenAPI document and the real service's, each
 * with its reason. `fakehands drift` reports these as known (never silently dropped) and reports
 * a declaration that no longer matches anything as stale. The README's table of deliberate
 * differences lists each of them (a test checks it).
 */
import { markBuiltIn, type KnownDifference } from './compare.js';

/** Why the legacy routes differ from the legacy document: it is older than the server the fake copies. */
const NEWER_SOURCE = 'the legacy document is from server 0.53; the Nov 2025 source the fake copies has';

/** Why the agent document's events differ: the fake declares the newer union of every kind. */
const EVENTS_REASON =
  "the fake's document declares every event kind with every field, action, observation and tool (the union Event of the Feb 2026 app-server document, the newest the fake copies); the committed agent-server snapshot is older and lists fewer kinds, tools and fields";
const CONVERSATION_INFO_REASON =
  "the fake's document types the fields of ConversationInfo a client reads (id, the agent's kind and model, workspace, status, policy, title, dates) and serves the others as the agent server writes them; the real document spells out every agent and LLM option";
const PATH_QUERY_REASON =
  'the newest source (v1.20.0, May 2026: file_router.py, git_router.py) reads the path from ?path= and dropped the {path} form; the Feb 2026 document has only the {path} form, which the Nov 2025 web client calls and the fake serves too';
const PROVIDERS_NEWER = `${NEWER_SOURCE} the providers bitbucket_data_center, forgejo and azure_devops`;
const GET_BODY_REASON =
  'the real route reads an EventFilter from the JSON body of a GET, which fetch cannot send; the fake reads no filter';
const READS_BODY_ITSELF =
  'the real route reads a JSON body itself (request.json()), so its document declares none; the fake declares the object it reads';
const CANNOT_FAIL =
  "the real route answers 500 when its runtime or store fails (415 for a binary file); the fake's workspace and store do not fail";
const MCP_NEWEST =
  'the newest MCP configuration is a map of mcpServers; the fake reads the Nov 2025 lists (sse_servers, stdio_servers, shttp_servers) the web client sends';
const SETTINGS_PAYLOAD =
  'the real payload is a free-form object checked in code; the fake declares the keys it reads and refuses others with a 422';
const PROFILE_REQUEST =
  "the fake reads the LLM's model, base URL and key (and an empty body saves the current LLM); the real StrictLLM lists every LLM option and the body may be null";

/** Why a ConversationErrorEvent has a classification: the newest SDK has it. */
const ERROR_CLASSIFICATION_NEWER =
  'the newest SDK (Aug 2026, event/error_classification.py) classifies a ConversationErrorEvent (kind, retryable, user_action, error_id); the Feb 2026 document predates it';
/** Why the file editor's action and observation have a second name. */
const STR_REPLACE_EDITOR =
  "Agent Canvas's type guards render StrReplaceEditorAction/StrReplaceEditorObservation (the file editor's fields under another name), which no SDK event has; the str_replace step publishes them so that card can be built";
/** The event routes of the app server (those of the compared snapshot; the SaaS shared-events search differs the same way): each kind as the published document, with the newest SDK's additions. */
const EVENT_ROUTE_DIFFERENCES: KnownDifference[] = [
  ['GET /api/v1/conversation/{conversation_id}/events/search', 'response items[]'],
  ['GET /api/v1/conversation/{conversation_id}/events', 'response []'],
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
  { operation: 'POST /api/v1/settings', location: 'request', reason: SETTINGS_PAYLOAD },
  { operation: 'POST /api/v1/secrets/git-providers', location: 'request mcp_config', reason: MCP_NEWEST },
  { operation: 'POST /api/v1/settings/profiles/{name}', location: 'request', reason: PROFILE_REQUEST },
];

/** Why the fake serves the SaaS routes Agent Canvas's cloud client calls (issue 33). */
const SAAS_SINGLE_USER =
  "a SaaS route Agent Canvas's cloud client calls (OpenHands Cloud's, absent from an open-source app server and from the trimmed snapshot), answered as a single-user install would: one personal organization, an unbound key, the built-in agent profile, public conversations shared";

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

      { operation: 'GET /api/organizations', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/organizations/{org_id}', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/organizations/{org_id}/me', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/organizations/{org_id}/profiles', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/organizations/{org_id}/profiles/{name}', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'POST /api/organizations/{org_id}/profiles/{name}', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      {
        operation: 'DELETE /api/organizations/{org_id}/profiles/{name}',
        location: 'operation',
        aspect: 'served',
        reason: SAAS_SINGLE_USER,
      },
      {
        operation: 'POST /api/organizations/{org_id}/profiles/{name}/activate',
        location: 'operation',
        aspect: 'served',
        reason: SAAS_SINGLE_USER,
      },
      {
        operation: 'POST /api/organizations/{org_id}/profiles/{name}/rename',
        location: 'operation',
        aspect: 'served',
        reason: SAAS_SINGLE_USER,
      },
      {
        operation: 'GET /api/organizations/{org_id}/provider-connections',
        location: 'operation',
        aspect: 'served',
        reason: SAAS_SINGLE_USER,
      },
      { operation: 'GET /api/keys/current', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/agent-profiles', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/agent-profiles/{name}', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/shared-conversations', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
      { operation: 'GET /api/shared-events/search', location: 'operation', aspect: 'served', reason: SAAS_SINGLE_USER },
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

/** Why the agent host serves conversation routes the compared document lacks (issue 31). */
const NEWER_AGENT_ROUTE =
  'the newest source (Aug 2026: conversation_router.py, file_router.py) serves it; the agent-server document the drift test compares lacks it';
/** Why the create request differs: the fake types what it acts on. */
const START_REQUEST_REASON =
  "the fake types the fields of StartConversationRequest it acts on (the agent's kind and model, workspace, ids, policy, analyzer, initial message, limits, secrets, tags) and lets the agent's other options pass; the real document spells out every agent, tool and LLM option";
/** Why `include_skills` is taken. */
const INCLUDE_SKILLS_REASON =
  "the newest source takes include_skills (conversation_router.py, trim_conversation_response_skills); the fake's conversations have no skills to trim";
/** Why delete and pause answer 400, not 404. */
const NOT_HELD_400_REASON =
  'the real route answers 400 for a conversation it does not hold (conversation_service.py returns False); its document declares 404';
/** Why PATCH differs. */
const UPDATE_REASON =
  'the newest UpdateConversationRequest (models.py) makes title optional and adds tags, and update_conversation answers {"success": false}, not 404, for a conversation it does not hold';
/** Why the agent host serves routes its published document lacks: the document is older than the source the fake copies. */
export const NEWEST_AGENT_SOURCE =
  'the published agent-server document is from Feb 2026; the newest source the fake copies (software-agent-sdk, Aug 2026, *_router.py) has this route';
/** Routes of the newest agent server (Aug 2026) that the Feb 2026 document lacks and the fake's host-wide routes serve. */
const NEWEST_AGENT_ROUTES: readonly string[] = [
  'GET /api/settings/agent-schema',
  'GET /api/settings/conversation-schema',
  'GET /api/settings',
  'PATCH /api/settings',
  'POST /api/settings/mcp/{settings_key}',
  'PATCH /api/settings/mcp/{settings_key}',
  'DELETE /api/settings/mcp/{settings_key}',
  'GET /api/settings/secrets',
  'PUT /api/settings/secrets',
  'GET /api/settings/secrets/{name}',
  'DELETE /api/settings/secrets/{name}',
  'GET /api/profiles',
  'GET /api/profiles/{name}',
  'POST /api/profiles/{name}',
  'DELETE /api/profiles/{name}',
  'POST /api/profiles/{name}/validate',
  'POST /api/profiles/{name}/rename',
  'POST /api/profiles/{name}/activate',
  'GET /api/agent-profiles',
  'GET /api/agent-profiles/{name}',
  'POST /api/agent-profiles/{name}',
  'DELETE /api/agent-profiles/{name}',
  'POST /api/agent-profiles/{name}/rename',
  'POST /api/agent-profiles/{profile_id}/activate',
  'POST /api/agent-profiles/{name}/materialize',
  'GET /api/llm/providers',
  'GET /api/llm/models',
  'GET /api/llm/models/verified',
  'GET /api/llm/provider-connections',
  'POST /api/skills/install',
  'GET /api/skills/installed',
  'GET /api/skills/installed/{name}',
  'PATCH /api/skills/installed/{name}',
  'DELETE /api/skills/installed/{name}',
  'POST /api/skills/installed/{name}/refresh',
  'GET /api/skills/marketplace',
  'POST /api/plugins',
  'POST /api/plugins/install',
  'GET /api/plugins/installed',
  'GET /api/plugins/installed/{name}',
  'PATCH /api/plugins/installed/{name}',
  'DELETE /api/plugins/installed/{name}',
  'POST /api/plugins/installed/{name}/refresh',
  'GET /api/plugins/marketplace',
  'POST /api/sub-agents',
  'GET /api/workspaces',
  'POST /api/workspaces',
  'DELETE /api/workspaces',
  'POST /api/workspaces/parents',
  'DELETE /api/workspaces/parents',
  'GET /api/file/home',
  'GET /api/file/search_subdirs',
  'POST /api/file/create_directory',
  'GET /api/file/archive',
  'GET /api/git/commits',
  'GET /api/git/commits/{sha}/changes',
  'POST /api/auth/workspace-session',
  'DELETE /api/auth/workspace-session',
  'GET /api/init',
  'POST /api/init',
];
/** Why bash events differ: the fake declares its three kinds as a union, the real document merges them into BashEventBase. */
const BASH_EVENTS_REASON =
  'the fake declares the bash events as a union of BashCommand, BashOutput and BashError (each with its own required fields); the real document declares the merged fields of BashEventBase';
/** Why the bash batch get differs: FastAPI reads a bare list[str] from a GET body. */
const BASH_BATCH_REASON =
  'the real batch get reads the ids from a JSON body of a GET (the official client sends one); the fake reads that body, or ?event_ids= (repeated) when there is none';
/** Why skills and hooks differ: the fake answers the fields a client reads. */
const CATALOGUE_REASON =
  'the fake answers the skills, hooks and requests of its host as it writes them (loose objects); the real document spells out every field of SkillInfo, HookConfig and the org and sandbox configs';

/** The declared differences of the agent server behind `conversation_url` (`fakehands drift --agent`). */
export const KNOWN_AGENT_DIFFERENCES: readonly Readonly<KnownDifference>[] = Object.freeze(
  (
    [
      { operation: 'GET /api/conversations/{conversation_id}/events/{event_id}', location: 'response', reason: EVENTS_REASON },
      { operation: 'GET /api/conversations/{conversation_id}/events/search', location: 'response items', reason: EVENTS_REASON },
      { operation: 'GET /api/conversations/{conversation_id}/events', location: 'response', reason: EVENTS_REASON },
      {
        operation: 'GET /api/conversations/{conversation_id}/events',
        location: 'request',
        reason:
          'the real batch get reads the ids from a JSON body of a GET, which fetch cannot send; the fake reads them from ?event_ids= (repeated)',
      },
      {
        operation: 'GET /api/conversations/{conversation_id}/events',
        location: 'query event_ids',
        reason:
          'the real batch get reads the ids from a JSON body of a GET, which fetch cannot send; the fake reads them from ?event_ids= (repeated)',
      },
      {
        operation: 'GET /api/conversations/{conversation_id}/events/search',
        location: 'query limit',
        aspect: 'bounds',
        reason:
          'the real route asserts limit <= 100 in its body (a 500 past it) and its document says lte in a keyword JSON Schema does not know; the fake declares the bound and answers 422',
      },
      {
        operation: 'GET /alive',
        location: 'response',
        reason:
          'the newest source (Aug 2026, server_details_router.py) answers HealthStatus {"status": "ok"}; the Feb 2026 document declares an untyped or string answer',
      },
      {
        operation: 'GET /health',
        location: 'response',
        reason:
          'the newest source (Aug 2026, server_details_router.py) answers HealthStatus {"status": "ok"}; the Feb 2026 document declares an untyped or string answer',
      },
      {
        operation: 'GET /api/git/diff/{path}',
        location: 'response',
        reason: 'the fake answers "" for a side of the diff that does not exist, as its app server route does; the real one answers null',
      },
      { operation: 'GET /api/conversations/{conversation_id}', location: 'response', reason: CONVERSATION_INFO_REASON },
      { operation: 'GET /api/conversations', location: 'response', reason: CONVERSATION_INFO_REASON },
      { operation: 'GET /api/conversations/search', location: 'response items', reason: CONVERSATION_INFO_REASON },
      {
        operation: 'GET /api/conversations/search',
        location: 'query limit',
        aspect: 'bounds',
        reason:
          'the real route asserts limit <= 100 in its body (a 500 past it) and its document says lte in a keyword JSON Schema does not know; the fake declares the bound and answers 422',
      },
      { operation: 'POST /api/file/upload', location: 'operation', reason: PATH_QUERY_REASON },
      { operation: 'GET /api/file/download', location: 'operation', reason: PATH_QUERY_REASON },
      { operation: 'GET /api/git/changes', location: 'operation', reason: PATH_QUERY_REASON },
      { operation: 'GET /api/git/diff', location: 'operation', reason: PATH_QUERY_REASON },
      {
        operation: 'POST /api/conversations/{conversation_id}/confirmation_policy',
        location: 'request policy',
        reason:
          'the fake reads the policy kind only (AlwaysConfirm, NeverConfirm, ConfirmRisky) and asks for it; the real union gives each kind a default and ConfirmRisky a threshold',
      },
      // The host-wide routes (settings, profiles, catalogues, workspaces, files, the shell).
      ...NEWEST_AGENT_ROUTES.map((operation) => ({
        operation,
        location: 'operation',
        aspect: 'served' as const,
        reason: NEWEST_AGENT_SOURCE,
      })),
      ...[
        'GET /api/bash/bash_events/search',
        'GET /api/bash/bash_events/{event_id}',
        'GET /api/bash/bash_events/',
        'POST /api/bash/start_bash_command',
        'POST /api/bash/execute_bash_command',
      ].map((operation) => ({ operation, location: 'response', reason: BASH_EVENTS_REASON })),
      {
        operation: 'GET /api/bash/bash_events/search',
        location: 'query limit',
        aspect: 'bounds',
        reason:
          'the real route asserts limit <= 100 in its body (a 500 past it) and its document says lte in a keyword JSON Schema does not know; the fake declares the bound and answers 422',
      },
      { operation: 'GET /api/bash/bash_events/', location: 'request', reason: BASH_BATCH_REASON },
      { operation: 'GET /api/bash/bash_events/', location: 'query event_ids', reason: BASH_BATCH_REASON },
      { operation: 'POST /api/skills', location: 'request', reason: CATALOGUE_REASON },
      { operation: 'POST /api/skills', location: 'response skills[]', reason: CATALOGUE_REASON },
      { operation: 'POST /api/skills/sync', location: 'request', reason: CATALOGUE_REASON },
      { operation: 'POST /api/hooks', location: 'response hook_config', reason: CATALOGUE_REASON },

      { operation: 'GET /api/conversations/{conversation_id}/agent_final_response', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/ask_agent', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/condense', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/fork', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/generate_title', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal/resume', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal/stop', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/interrupt', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/navigate', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/secrets', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/security_analyzer', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_acp_model', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_llm', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_profile', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations', location: 'request', reason: START_REQUEST_REASON },
      { operation: 'POST /api/conversations', location: 'response', reason: CONVERSATION_INFO_REASON },
      {
        operation: 'POST /api/conversations',
        location: 'status 200',
        reason:
          'start_conversation (conversation_router.py) answers 201 for a new conversation and 200 for one it already holds; the fake declares the 201 and answers the 200 as it is',
      },
      { operation: 'GET /api/conversations', location: 'query include_skills', reason: INCLUDE_SKILLS_REASON },
      { operation: 'GET /api/conversations/{conversation_id}', location: 'query include_skills', reason: INCLUDE_SKILLS_REASON },
      { operation: 'GET /api/conversations/search', location: 'query include_skills', reason: INCLUDE_SKILLS_REASON },
      { operation: 'POST /api/conversations', location: 'query include_skills', reason: INCLUDE_SKILLS_REASON },
      { operation: 'DELETE /api/conversations/{conversation_id}', location: 'status 404', reason: NOT_HELD_400_REASON },
      { operation: 'POST /api/conversations/{conversation_id}/pause', location: 'status 404', reason: NOT_HELD_400_REASON },
      { operation: 'PATCH /api/conversations/{conversation_id}', location: 'request', reason: UPDATE_REASON },
      { operation: 'PATCH /api/conversations/{conversation_id}', location: 'status 404', reason: UPDATE_REASON },
    ] satisfies KnownDifference[]
  ).map((difference): Readonly<KnownDifference> => Object.freeze(difference)),
);

markBuiltIn(KNOWN_DIFFERENCES);
markBuiltIn(KNOWN_AGENT_DIFFERENCES);
