/**
 * The deliberate differences between the fake's agent host and the agent server's published
 * OpenAPI document (`fakehands drift --agent`), each with its reason; the app server's are in
 * `known-differences.ts`, which re-exports these.
 */
import { markBuiltIn, operationNamesMatch, type KnownDifference } from './compare.js';
import { CONVERSATION_INFO_REASON, EVENTS_REASON, PATH_QUERY_REASON } from './reasons.js';

/** Why the agent host serves conversation routes the compared document lacks (issue 31). */
const NEWER_AGENT_ROUTE =
  'the newest source (Aug 2026: conversation_router.py, file_router.py) serves it; the agent-server document the drift test compares lacks it';
/** Why `generate_title`'s request differs. */
const TITLE_LLM_REASON =
  "the fake's title is the first message cut to max_length, made by no LLM: it takes the request's llm as an object and reads none of its options, which the real document spells out";
/** Why the conversation secrets' request differs. */
const SECRETS_REASON =
  'the fake keeps the names of the secrets only, never a value: it takes each as a string or a StaticSecret/LookupSecret object and reads neither the value, url nor headers, which the real document spells out';
/** Why the analyzer's request differs. */
const ANALYZER_REASON =
  "the fake keeps which analyzer is set (its kind) or that none is, and scores no action: the analyzer's options (URLs, keys, thresholds, policy) pass unread";
/** Why the create request differs: the fake types what it acts on. */
const START_REQUEST_REASON =
  "the fake types the fields of StartConversationRequest it acts on (the agent's kind and model, workspace, ids, policy, analyzer, initial message, limits, secrets, tags) and lets the agent's other options pass; the real document spells out every agent, tool and LLM option";
/** Why `include_skills` is taken. */
const INCLUDE_SKILLS_REASON =
  "the newest source takes include_skills (conversation_router.py, trim_conversation_response_skills); the fake's conversations have no skills to trim";
/** Why PATCH differs. */
const UPDATE_REASON =
  'the newest UpdateConversationRequest (models.py) makes title optional and adds tags, and update_conversation answers {"success": false}, not 404, for a conversation it does not hold';
/** Why `ServerInfo` has fields the document lacks. */
const RUNNING_SERVER_INFO_REASON =
  'the running agent server 1.58.2 writes ServerInfo with its packages, build, tools, runtime and capabilities (server_details_router.py; test/real/agent-server.real.test.ts compares the two); the Feb 2026 document lacks them';
/** Why the agent host serves routes its published document lacks: the document is older than the source the fake copies. */
export const NEWEST_AGENT_SOURCE =
  'the published agent-server document is from Feb 2026; the newest source the fake copies (software-agent-sdk, Aug 2026, *_router.py) has this route';
/** Why the agent host serves the Canvas Extensions routes no release has yet. */
export const CANVAS_EXTENSIONS_SOURCE =
  "software-agent-sdk's canvas_extensions_router.py (pull request #4395, Aug 2026, not yet in a release) serves it and Agent Canvas 1.20.0 calls it; the fake answers as a host with no extension installed";
/** The Canvas Extensions routes (`canvas_extensions_router.py`). */
const CANVAS_EXTENSIONS_ROUTES: readonly string[] = [
  'POST /api/canvas-extensions/install',
  'GET /api/canvas-extensions/installed',
  'GET /api/canvas-extensions/installed/{extension_name}',
  'PATCH /api/canvas-extensions/installed/{extension_name}',
  'DELETE /api/canvas-extensions/installed/{extension_name}',
  'GET /api/canvas-extensions/installed/{extension_name}/bundle',
];
/** Why the agent host serves routes the running 1.58.2 has and no document the drift test compares. */
export const RELEASE_1_58_SOURCE =
  'the running agent server 1.58.2 (PyPI) serves it (its own /openapi.json: meta_profiles_router.py, runtime_router.py, conversation_router.py, the catalogs, canvas app backends, openai/router.py); the documents the drift test compares are older';
/** A conversation runtime's routes (`runtime_router.py`): the host's shell, file, git and VS Code routes again, bound to a conversation. */
const RUNTIME_ROUTES: readonly string[] = [
  'GET /bash/bash_events/search',
  'GET /bash/bash_events/{event_id}',
  'GET /bash/bash_events/',
  'POST /bash/start_bash_command',
  'POST /bash/execute_bash_command',
  'DELETE /bash/bash_events',
  'POST /bash/bash_commands/{command_id}/stop',
  'POST /file/upload',
  'GET /file/download',
  'POST /file/create_directory',
  'GET /file/download-trajectory/{conversation_id}',
  'GET /file/archive',
  'GET /git/changes',
  'GET /git/diff',
  'GET /git/commits',
  'GET /git/commits/{sha}/changes',
  'GET /vscode/url',
  'GET /vscode/status',
].map((route) => route.replace(' /', ' /api/conversations/{runtime_conversation_id}/'));
/** The routes of 1.58.2 the fake serves that the compared documents lack. */
const RELEASE_1_58_ROUTES: readonly string[] = [
  'GET /api/meta-profiles',
  'GET /api/meta-profiles/{name}',
  'POST /api/meta-profiles/{name}',
  'DELETE /api/meta-profiles/{name}',
  'POST /api/meta-profiles/{name}/activate',
  ...RUNTIME_ROUTES,
  'GET /api/conversations/{conversation_id}/runtime',
  'POST /api/conversations/{conversation_id}/runtime/reprovision',
  'POST /api/conversations/{conversation_id}/children',
  'POST /api/bash/bash_commands/{command_id}/stop',
  'GET /api/tools/catalog',
  'GET /api/skills/catalog',
  'POST /api/plugins/fetch',
  'GET /api/git/repositories/search',
  'POST /api/acp/models',
  'GET /api/canvas-extensions/installed/{extension_name}/icon',
  'GET /api/canvas-extensions/installed/{extension_name}/backend',
  'POST /api/canvas-extensions/installed/{extension_name}/backend/prepare',
  'POST /api/canvas-extensions/installed/{extension_name}/backend/start',
  'POST /api/canvas-extensions/installed/{extension_name}/backend/stop',
  'GET /api/canvas-extensions/installed/{extension_name}/backend/logs',
  'DELETE /api/canvas-extensions/installed/{extension_name}/backend/data',
  'POST /app-backends/{extension_name}/session',
  'DELETE /app-backends/{extension_name}/session',
  'POST /v1/responses',
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
      { operation: 'GET /server_info', location: 'response', reason: RUNNING_SERVER_INFO_REASON },
      { operation: 'GET /', location: 'response', reason: RUNNING_SERVER_INFO_REASON },
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
      ...RELEASE_1_58_ROUTES.map((operation) => ({
        operation,
        location: 'operation',
        aspect: 'served' as const,
        reason: RELEASE_1_58_SOURCE,
      })),
      ...CANVAS_EXTENSIONS_ROUTES.map((operation) => ({
        operation,
        location: 'operation',
        aspect: 'served' as const,
        reason: CANVAS_EXTENSIONS_SOURCE,
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
      { operation: 'POST /api/conversations/{conversation_id}/fork', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal/resume', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/goal/stop', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/interrupt', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/navigate', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_acp_model', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_llm', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations/{conversation_id}/switch_profile', location: 'operation', reason: NEWER_AGENT_ROUTE },
      { operation: 'POST /api/conversations', location: 'request', reason: START_REQUEST_REASON },
      {
        operation: 'POST /api/conversations/{conversation_id}/ask_agent',
        location: 'status 404',
        reason:
          'ask_agent (conversation_router.py) declares a 404 it never answers: a conversation it does not hold gets 500, as the fake answers it',
      },
      { operation: 'POST /api/conversations/{conversation_id}/generate_title', location: 'request', reason: TITLE_LLM_REASON },
      { operation: 'POST /api/conversations/{conversation_id}/secrets', location: 'request', reason: SECRETS_REASON },
      { operation: 'POST /api/conversations/{conversation_id}/security_analyzer', location: 'request', reason: ANALYZER_REASON },
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
      { operation: 'PATCH /api/conversations/{conversation_id}', location: 'request', reason: UPDATE_REASON },
      { operation: 'PATCH /api/conversations/{conversation_id}', location: 'status 404', reason: UPDATE_REASON },
    ] satisfies KnownDifference[]
  ).map((difference): Readonly<KnownDifference> => Object.freeze(difference)),
);

markBuiltIn(KNOWN_AGENT_DIFFERENCES);

/**
 * The operations of the agent host's route table that the compared documents lack and no
 * declaration above names, each declared served with `NEWEST_AGENT_SOURCE`: the route table is the
 * one list of what the fake serves, so a route added there is declared here with no other edit
 * (`test/drift/agent-newest-routes.test.ts` holds every served route against the newest source's
 * routers, so none is invented). `lacking` is what `checkDrift` found the documents lack.
 * @example
 * newestAgentRoutes(['GET /api/settings']) // [{ operation: 'GET /api/settings', location: 'operation', aspect: 'served', reason: NEWEST_AGENT_SOURCE }]
 */
export function newestAgentRoutes(lacking: readonly string[]): readonly Readonly<KnownDifference>[] {
  const declared = KNOWN_AGENT_DIFFERENCES.filter((known) => known.location === 'operation');
  const derived = lacking
    .filter((operation) => !declared.some((known) => operationNamesMatch(known.operation, operation)))
    .map((operation) => Object.freeze({ operation, location: 'operation', aspect: 'served' as const, reason: NEWEST_AGENT_SOURCE }));
  markBuiltIn(derived);
  return derived;
}
