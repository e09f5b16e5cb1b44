/**
 * The newest agent server's routes: a reference list read from software-agent-sdk (Aug 2026,
 * commit 611629e, every `@*_router.get|post|put|patch|delete` and `@router.*` of
 * `openhands-agent-server/openhands/agent_server/`, with the prefixes `api.py` mounts them under:
 * `/api` for the API routers, the root for `server_details_router`, `openai_router` and
 * `sockets_router`). Each must be served by the fake (in its agent document; the routes the real
 * document leaves out, `include_in_schema=False`, in its route table; the sockets among its socket
 * routes), and each operation of the fake's agent document must be in this list or in the short list
 * of older routes it keeps for older clients: a new real route, added here, fails until the fake serves it.
 */
import { describe, expect, it } from 'vitest';
import { fakeDocument } from '../../src/drift/index.js';
import { agentServerSurface } from '../../src/surfaces/agent-server/index.js';
import { agentRoutes } from '../../src/surfaces/agent-server/routes.js';

/** The newest source's routes in its document, by router file. */
const NEWEST_SOURCE_ROUTES: Readonly<Record<string, readonly string[]>> = {
  'settings_router.py': [
    'GET /api/settings/agent-schema', 'GET /api/settings/conversation-schema', 'GET /api/settings', 'PATCH /api/settings',
    'POST /api/settings/mcp/{settings_key}', 'PATCH /api/settings/mcp/{settings_key}', 'DELETE /api/settings/mcp/{settings_key}',
    'GET /api/settings/secrets', 'GET /api/settings/secrets/{name}', 'PUT /api/settings/secrets', 'DELETE /api/settings/secrets/{name}',
  ],
  'profiles_router.py': ['GET /api/profiles', 'GET /api/profiles/{name}', 'POST /api/profiles/{name}', 'POST /api/profiles/{name}/validate', 'DELETE /api/profiles/{name}', 'POST /api/profiles/{name}/rename', 'POST /api/profiles/{name}/activate'],
  // In the release after the Aug 2026 source: openhands-agent-server 1.58.2 (PyPI), its /openapi.json.
  'runtime_router.py (1.58.2)': [
    ...['GET /bash/bash_events/search', 'GET /bash/bash_events/{event_id}', 'GET /bash/bash_events/', 'POST /bash/start_bash_command'],
    ...['POST /bash/execute_bash_command', 'DELETE /bash/bash_events', 'POST /bash/bash_commands/{command_id}/stop', 'POST /file/upload'],
    ...['GET /file/download', 'POST /file/create_directory', 'GET /file/download-trajectory/{conversation_id}', 'GET /file/archive'],
    ...['GET /git/changes', 'GET /git/diff', 'GET /git/commits', 'GET /git/commits/{sha}/changes', 'GET /vscode/url', 'GET /vscode/status'],
  ].map((route) => route.replace(' /', ' /api/conversations/{runtime_conversation_id}/')),
  'conversation_router.py, bash_router.py, catalogs, acp_router.py, openai/router.py (1.58.2)': [
    'GET /api/conversations/{conversation_id}/runtime', 'POST /api/conversations/{conversation_id}/runtime/reprovision',
    'POST /api/conversations/{conversation_id}/children', 'POST /api/bash/bash_commands/{command_id}/stop', 'GET /api/tools/catalog',
    'GET /api/skills/catalog', 'POST /api/plugins/fetch', 'GET /api/git/repositories/search', 'POST /api/acp/models', 'POST /v1/responses',
  ],
  'canvas_extensions_router.py, canvas_extensions_bridge_router.py (1.58.2)': [
    'GET /api/canvas-extensions/installed/{extension_name}/icon', 'GET /api/canvas-extensions/installed/{extension_name}/backend',
    'POST /api/canvas-extensions/installed/{extension_name}/backend/prepare', 'POST /api/canvas-extensions/installed/{extension_name}/backend/start',
    'POST /api/canvas-extensions/installed/{extension_name}/backend/stop', 'GET /api/canvas-extensions/installed/{extension_name}/backend/logs',
    'DELETE /api/canvas-extensions/installed/{extension_name}/backend/data', 'POST /app-backends/{extension_name}/session',
    'DELETE /app-backends/{extension_name}/session',
  ],
  'meta_profiles_router.py': ['GET /api/meta-profiles', 'GET /api/meta-profiles/{name}', 'POST /api/meta-profiles/{name}', 'DELETE /api/meta-profiles/{name}', 'POST /api/meta-profiles/{name}/activate'],
  'agent_profiles_router.py': ['GET /api/agent-profiles', 'GET /api/agent-profiles/{name}', 'POST /api/agent-profiles/{name}', 'DELETE /api/agent-profiles/{name}', 'POST /api/agent-profiles/{name}/rename', 'POST /api/agent-profiles/{profile_id}/activate', 'POST /api/agent-profiles/{name}/materialize'],
  'llm_router.py': [
    'GET /api/llm/providers', 'GET /api/llm/models', 'GET /api/llm/models/verified',
    'GET /api/llm/subscription/openai/models', 'GET /api/llm/subscription/openai/status', 'POST /api/llm/subscription/openai/device/start',
    'POST /api/llm/subscription/openai/device/poll', 'POST /api/llm/subscription/openai/logout',
  ],
  'provider_connections_router.py': ['GET /api/llm/provider-connections', 'POST /api/llm/provider-connections', 'PATCH /api/llm/provider-connections/{connection_id}', 'DELETE /api/llm/provider-connections/{connection_id}'],
  'desktop_router.py': ['GET /api/desktop/url'],
  'mcp_router.py': ['POST /api/mcp/test', 'POST /api/mcp/oauth/start', 'GET /api/mcp/oauth/status/{job_id}', 'POST /api/mcp/oauth/callback/{job_id}'],
  'skills_router.py': ['POST /api/skills', 'POST /api/skills/sync', 'POST /api/skills/install', 'GET /api/skills/installed', 'GET /api/skills/installed/{name}', 'PATCH /api/skills/installed/{name}', 'DELETE /api/skills/installed/{name}', 'POST /api/skills/installed/{name}/refresh', 'GET /api/skills/marketplace'],
  'plugins_router.py': ['POST /api/plugins', 'POST /api/plugins/install', 'GET /api/plugins/installed', 'GET /api/plugins/installed/{name}', 'PATCH /api/plugins/installed/{name}', 'DELETE /api/plugins/installed/{name}', 'POST /api/plugins/installed/{name}/refresh', 'GET /api/plugins/marketplace'],
  'hooks_router.py': ['POST /api/hooks'],
  'tool_router.py': ['GET /api/tools/'],
  'sub_agents_router.py': ['POST /api/sub-agents'],
  'workspaces_router.py': ['GET /api/workspaces', 'POST /api/workspaces', 'DELETE /api/workspaces', 'POST /api/workspaces/parents', 'DELETE /api/workspaces/parents'],
  'file_router.py': ['POST /api/file/upload', 'GET /api/file/download', 'POST /api/file/create_directory', 'GET /api/file/home', 'GET /api/file/search_subdirs', 'GET /api/file/download-trajectory/{conversation_id}', 'GET /api/file/archive'],
  'git_router.py': ['GET /api/git/changes', 'GET /api/git/diff', 'GET /api/git/commits', 'GET /api/git/commits/{sha}/changes'],
  'bash_router.py': ['GET /api/bash/bash_events/search', 'GET /api/bash/bash_events/{event_id}', 'GET /api/bash/bash_events/', 'POST /api/bash/start_bash_command', 'POST /api/bash/execute_bash_command', 'DELETE /api/bash/bash_events'],
  'auth_router.py': ['POST /api/auth/workspace-session', 'DELETE /api/auth/workspace-session'],
  'init_router.py': ['GET /api/init', 'POST /api/init'],
  'vscode_router.py': ['GET /api/vscode/url', 'GET /api/vscode/status'],
  'server_details_router.py': ['GET /alive', 'GET /health', 'GET /ready', 'GET /server_info'],
  // `api.py`, `_setup_static_files`: without static files the root answers `get_server_info`.
  'api.py': ['GET /'],
  'conversation_router.py': [
    'GET /api/conversations/search', 'GET /api/conversations/count', 'GET /api/conversations/{conversation_id}',
    'GET /api/conversations/{conversation_id}/agent_final_response', 'GET /api/conversations', 'POST /api/conversations',
    'POST /api/conversations/{conversation_id}/pause', 'POST /api/conversations/{conversation_id}/interrupt',
    'DELETE /api/conversations/{conversation_id}', 'POST /api/conversations/{conversation_id}/run',
    'POST /api/conversations/{conversation_id}/goal', 'POST /api/conversations/{conversation_id}/goal/stop',
    'POST /api/conversations/{conversation_id}/goal/resume', 'POST /api/conversations/{conversation_id}/secrets',
    'POST /api/conversations/{conversation_id}/confirmation_policy', 'POST /api/conversations/{conversation_id}/security_analyzer',
    'POST /api/conversations/{conversation_id}/switch_profile', 'POST /api/conversations/{conversation_id}/switch_llm',
    'POST /api/conversations/{conversation_id}/load_plugin', 'POST /api/conversations/{conversation_id}/switch_acp_model',
    'PATCH /api/conversations/{conversation_id}', 'POST /api/conversations/{conversation_id}/ask_agent',
    'POST /api/conversations/{conversation_id}/condense', 'POST /api/conversations/{conversation_id}/fork',
    'POST /api/conversations/{conversation_id}/navigate',
  ],
  'event_router.py': [
    'GET /api/conversations/{conversation_id}/events/search', 'GET /api/conversations/{conversation_id}/events/count',
    'GET /api/conversations/{conversation_id}/events/{event_id}', 'GET /api/conversations/{conversation_id}/events',
    'POST /api/conversations/{conversation_id}/events', 'POST /api/conversations/{conversation_id}/events/respond_to_confirmation',
  ],
  'workspace_router.py': ['GET /api/conversations/{conversation_id}/workspace', 'GET /api/conversations/{conversation_id}/workspace/{file_path}'],
  'openai/router.py': ['GET /v1/models', 'POST /v1/chat/completions'],
  // Not yet in a release: pull request #4395 (commit 030b04c), the API Agent Canvas 1.20.0 calls.
  'canvas_extensions_router.py': [
    'POST /api/canvas-extensions/install',
    'GET /api/canvas-extensions/installed',
    'GET /api/canvas-extensions/installed/{extension_name}',
    'PATCH /api/canvas-extensions/installed/{extension_name}',
    'DELETE /api/canvas-extensions/installed/{extension_name}',
    'GET /api/canvas-extensions/installed/{extension_name}/bundle',
  ],
};

/** The newest source's routes its document leaves out (`include_in_schema=False`), by file. */
const NOT_IN_DOCUMENT: Readonly<Record<string, readonly string[]>> = {
  'credential_binding.py': ['POST /api/conversations/prepare-for-sandbox-pause', 'PUT /api/conversations/{conversation_id}/credential-bindings/{secret_name}'],
};
/** The newest source's sockets (`sockets.py`). */
const NEWEST_SOCKETS: readonly string[] = ['/sockets/events/{conversation_id}', '/sockets/bash-events'];
/** Routes the fake serves that the newest source no longer has, kept for the clients that call them (`KNOWN_AGENT_DIFFERENCES` says why). */
const OLDER_ROUTES: readonly string[] = [
  'POST /api/conversations/{conversation_id}/generate_title',
  'GET /api/git/changes/{path}',
  'GET /api/git/diff/{path}',
  'POST /api/file/upload/{path}',
  'GET /api/file/download/{path}',
];

/** The operations of the fake's agent document, as `METHOD /path` with parameter names blanked. */
function servedOperations(): Set<string> {
  const document = fakeDocument({ agent: true }) as { paths: Record<string, Record<string, unknown>> };
  const served = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) for (const method of Object.keys(operations)) served.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
  return served;
}
const blank = (operation: string) => operation.replace(/\{[^}]+\}/g, '{}');
/** A route of the fake's table as `METHOD /path`, its `:name` parameters blanked. */
const tableOperation = (route: { method: string; path: string }) => `${route.method} ${route.path.replace(/:\w+\*?/g, '{}')}`;

describe("the newest agent server's routes (software-agent-sdk, Aug 2026)", () => {
  for (const [file, routes] of Object.entries(NEWEST_SOURCE_ROUTES)) {
    it(`the fake serves every route of ${file}`, () => {
      const served = servedOperations();
      expect(routes.filter((route) => !served.has(blank(route)))).toEqual([]);
    });
  }

  for (const [file, routes] of Object.entries(NOT_IN_DOCUMENT)) {
    it(`the fake serves every route of ${file}, left out of its document as the real one leaves them out`, () => {
      const table = new Set(agentRoutes.filter((route) => route.internal).map(tableOperation));
      expect(routes.filter((route) => !table.has(blank(route)))).toEqual([]);
      expect(routes.filter((route) => servedOperations().has(blank(route)))).toEqual([]);
    });
  }

  it('the fake serves every socket of sockets.py', () => {
    const sockets = new Set((agentServerSurface.sockets ?? []).map((socket) => socket.path.replace(/:\w+/g, '{}')));
    expect(NEWEST_SOCKETS.filter((path) => !sockets.has(blank(path)))).toEqual([]);
  });

  it('every operation of the fake\'s agent document is in the reference list or a declared older route (none invented)', () => {
    const listed = new Set([...Object.values(NEWEST_SOURCE_ROUTES).flat(), ...OLDER_ROUTES].map(blank));
    expect([...servedOperations()].filter((op) => !listed.has(op))).toEqual([]);
  });
});
