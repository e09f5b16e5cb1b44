/**
 * The newest agent server's host-wide routes that no published document covers (the published one
 * is Feb 2026): a reference list read from software-agent-sdk (Aug 2026,
 * `openhands-agent-server/openhands/agent_server/*_router.py`, mounted under `/api` by `api.py`).
 * Each must be in the fake's agent document, and each the fake serves beyond a published document
 * must be in this list: a new real route, added here, fails until the fake serves it.
 */
import { describe, expect, it } from 'vitest';
import { fakeDocument } from '../../src/drift/index.js';

/** The newest source's routes, by router file (conversation and event routes are listed with the conversation routes). */
const NEWEST_SOURCE_ROUTES: Readonly<Record<string, readonly string[]>> = {
  'settings_router.py': [
    'GET /api/settings/agent-schema', 'GET /api/settings/conversation-schema', 'GET /api/settings', 'PATCH /api/settings',
    'POST /api/settings/mcp/{settings_key}', 'PATCH /api/settings/mcp/{settings_key}', 'DELETE /api/settings/mcp/{settings_key}',
    'GET /api/settings/secrets', 'GET /api/settings/secrets/{name}', 'PUT /api/settings/secrets', 'DELETE /api/settings/secrets/{name}',
  ],
  'profiles_router.py': ['GET /api/profiles', 'GET /api/profiles/{name}', 'POST /api/profiles/{name}', 'POST /api/profiles/{name}/validate', 'DELETE /api/profiles/{name}', 'POST /api/profiles/{name}/rename', 'POST /api/profiles/{name}/activate'],
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

/** The operations of the fake's agent document, as `METHOD /path` with parameter names blanked. */
function servedOperations(): Set<string> {
  const document = fakeDocument({ agent: true }) as { paths: Record<string, Record<string, unknown>> };
  const served = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) for (const method of Object.keys(operations)) served.add(`${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`);
  return served;
}
const blank = (operation: string) => operation.replace(/\{[^}]+\}/g, '{}');

describe('the newest agent server\'s host-wide routes (software-agent-sdk, Aug 2026)', () => {
  for (const [file, routes] of Object.entries(NEWEST_SOURCE_ROUTES)) {
    it(`the fake serves every route of ${file}`, () => {
      const served = servedOperations();
      expect(routes.filter((route) => !served.has(blank(route)))).toEqual([]);
    });
  }

  it('every host-wide route the fake serves is in the reference list (none invented)', () => {
    const listed = new Set(Object.values(NEWEST_SOURCE_ROUTES).flat().map(blank));
    const hostWide = [...servedOperations()].filter((op) => !op.includes('/api/conversations') && !op.includes('/sockets/') && !/\/api\/(git\/(changes|diff)|file\/(upload|download))\/\{\}/.test(op));
    expect(hostWide.filter((op) => !listed.has(op))).toEqual([]);
  });
});
