/**
 * The agent server's host-wide routes besides settings and the shell: LLM lists (`llm_router.py`),
 * tools, skills, plugins, hooks and sub-agents (`skill-routes.ts`), saved workspaces
 * (`workspaces_router.py`), the host's directories and a conversation's trajectory
 * (`file_router.py`), commits (`git_router.py`), the workspace session cookie (`auth_router.py`)
 * and the init state (`init_router.py`). Each route names the real function it copies.
 */
import * as z from 'zod/mini';
import {
  addWorkspaceParents,
  addWorkspaces,
  createDirectory,
  deleteWorkspace,
  deleteWorkspaceParent,
  gitCommitChanges,
  gitCommits,
  homeDirectory,
  isDirectory,
  listWorkspaces,
  searchSubdirs,
} from '../../domain/agent-world/host.js';
import { llmModels, llmProviders, verifiedModels } from '../../domain/agent-world/catalogues.js';
import { toHex } from '../../domain/store/ids.js';
import { refuse } from '../../domain/store/refusal.js';
import { zipArchive } from '../../domain/agent/zip.js';
import { laxInt, LaxBool } from '../../schemas/helpers.js';
import { GitChange } from '../../schemas/conversation-ops.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';
import { skillRoutes } from './skill-routes.js';
import { forgetWorkspaceSession, rememberWorkspaceSession, WORKSPACE_SESSION_COOKIE } from './request-keys.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';

const Json = z.record(z.string(), z.unknown());
const Limit = z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), 100);
const Bool = (fallback: boolean) => z._default(LaxBool, fallback);
const Path4096 = z.string().check(z.minLength(1), z.maxLength(4096));
/** `WorkspaceItem` (`parentPath` by its alias). */
const WorkspaceItem = z.object({
  id: Path4096,
  name: z.string().check(z.minLength(1), z.maxLength(256)),
  path: Path4096,
  parentPath: z.optional(z.nullable(z.string().check(z.maxLength(4096)))),
});
/** `WorkspaceParentItem`. */
const WorkspaceParentItem = z.object({ id: Path4096, name: z.string().check(z.minLength(1), z.maxLength(256)), path: Path4096 });
const WorkspacesList = z.object({ workspaces: z.array(WorkspaceItem), workspaceParents: z.array(WorkspaceParentItem) });
const Deleted = z.object({ deleted: z.literal(true) });
/** A commit sha (`_SHA_PATTERN`). */
const Sha = z.string().check(z.regex(/^[0-9a-fA-F]{4,40}$/));

/** A 204 with `headers` and no body nor content type (Starlette's `Response(status_code=204)`). */
function noContent(headers: Record<string, string>) {
  const answer = raw(204, new Uint8Array(), '', headers);
  delete (answer.headers as Record<string, string>)['content-type'];
  return answer;
}

/** The host-wide routes of the agent server. */
export const worldRoutes: readonly Route[] = hostWide([
  // ── LLM lists ──
  defineRoute({
    method: 'GET',
    path: '/api/llm/providers',
    summary: 'The LLM providers (llm_router.py, list_providers)',
    response: z.object({ providers: z.array(z.string()) }),
    handle: async () => llmProviders(),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/llm/models',
    summary: "The LLM models, or one provider's (llm_router.py, list_models)",
    query: z.object({ provider: z.optional(z.string()) }),
    response: z.object({ models: z.array(z.string()) }),
    handle: async ({ query }) => llmModels(query.provider),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/llm/models/verified',
    summary: 'The verified models by provider (llm_router.py, list_verified_models)',
    response: z.object({ models: z.record(z.string(), z.array(z.string())) }),
    handle: async () => verifiedModels(),
  }),
  // The provider connections (`/api/llm/provider-connections`): connection-routes.ts.
  ...skillRoutes,
  // ── Workspaces ──
  defineRoute({
    method: 'GET',
    path: '/api/workspaces',
    summary: 'The saved workspaces and parents (workspaces_router.py, list_workspaces)',
    response: WorkspacesList,
    handle: (_i, context) => context.runner.run(listWorkspaces),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces',
    summary: 'Save workspaces, deduplicated by path (workspaces_router.py, add_workspaces)',
    body: z.object({ workspaces: z.array(WorkspaceItem) }),
    response: WorkspacesList,
    handle: ({ body }, context) => context.runner.run(addWorkspaces, body.workspaces),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/workspaces',
    summary: 'Forget a workspace by path (workspaces_router.py, delete_workspace)',
    query: z.object({ path: z.string() }),
    response: Deleted,
    errors: [404],
    handle: ({ query }, context) => context.runner.run(deleteWorkspace, query.path),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/workspaces/parents',
    summary: 'Save workspace parents, deduplicated by path (workspaces_router.py, add_workspace_parents)',
    body: z.object({ parents: z.array(WorkspaceParentItem) }),
    response: WorkspacesList,
    handle: ({ body }, context) => context.runner.run(addWorkspaceParents, body.parents),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/workspaces/parents',
    summary: 'Forget a workspace parent by path (workspaces_router.py, delete_workspace_parent)',
    query: z.object({ path: z.string() }),
    response: Deleted,
    errors: [404],
    handle: ({ query }, context) => context.runner.run(deleteWorkspaceParent, query.path),
  }),
  // ── The host's files ──
  defineRoute({
    method: 'GET',
    path: '/api/file/home',
    summary: 'The home, its top-level directories and the root (file_router.py, get_home_directory)',
    query: z.object({ include_hidden: Bool(false) }),
    response: z.object({
      home: z.string(),
      favorites: z.array(z.object({ label: z.string(), path: z.string() })),
      locations: z.array(z.object({ label: z.string(), path: z.string() })),
    }),
    handle: ({ query }, context) => context.runner.run(homeDirectory, query.include_hidden),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/file/search_subdirs',
    summary: "A page of a directory's subdirectories (file_router.py, search_subdirs)",
    query: z.object({ path: z.string(), page_id: z.optional(z.string()), limit: Limit, include_hidden: Bool(false) }),
    response: z.object({ items: z.array(z.object({ name: z.string(), path: z.string() })), next_page_id: z.nullable(z.string()) }),
    errors: [400, 404],
    handle: ({ query }, context) => context.runner.run(searchSubdirs, query),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/file/create_directory',
    summary: 'Make a directory and its parents (file_router.py, create_directory)',
    query: z.object({ path: z.string() }),
    response: z.object({ success: z.literal(true) }),
    errors: [400],
    handle: ({ query }, context) => context.runner.run(createDirectory, query.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/file/archive',
    summary: 'A directory as a ZIP (file_router.py, archive_directory)',
    query: z.object({ path: z.string(), archive_format: z._default(z.enum(['zip', 'tar.gz']), 'zip') }),
    response: z.unknown(),
    untypedInDocument: true,
    errors: [400, 404],
    handle: ({ query }, context) =>
      context.runner.run((state) => {
        if (!query.path.startsWith('/')) return refuse('bad_request', 'Path must be absolute');
        if (!isDirectory(state, query.path)) return refuse('not_found', 'Directory not found');
        const name = query.path.replace(/\/+$/, '').split('/').pop() || 'root';
        if (query.archive_format !== 'zip') return refuse('bad_request', 'The fake archives as zip only');
        return raw(200, zipArchive({ [`${name}/.keep`]: '' }, state.clock.now()), 'application/zip', {
          'content-disposition': `attachment; filename="${name}.zip"`,
        });
      }),
  }),
  // GET /api/file/download-trajectory/{id} is a conversation's: conversation-routes.ts.
  // ── Commits ──
  defineRoute({
    method: 'GET',
    path: '/api/git/commits',
    summary: "The repository's latest commits, newest first (git_router.py, git_commits_query)",
    query: z.object({ path: z.string(), limit: z._default(laxInt(z.int().check(z.gte(1), z.lte(200))), 50) }),
    response: z.object({
      commits: z.array(
        z.object({ sha: z.string(), short_sha: z.string(), subject: z.string(), author: z.string(), timestamp: z.string() }),
      ),
      has_more: z.boolean(),
    }),
    handle: ({ query }, context) => context.runner.run(gitCommits, query.path, query.limit),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/git/commits/:sha/changes',
    summary: 'The files one commit changed (git_router.py, git_commit_changes_query)',
    params: z.object({ sha: Sha }),
    query: z.object({ path: z.string() }),
    response: z.array(GitChange),
    errors: [400],
    handle: ({ params, query }, context) => context.runner.run(gitCommitChanges, query.path, params.sha),
  }),
  // ── Workspace session, init ──
  defineRoute({
    method: 'POST',
    path: '/api/auth/workspace-session',
    summary: 'Set the workspace session cookie (auth_router.py, create_workspace_session)',
    response: z.unknown(),
    untypedInDocument: true,
    successStatus: 200,
    errors: [401],
    handle: async (input, context) => {
      // The cookie carries an opaque token, never the session key itself (a difference the fake declares); the
      // workspace file routes take it as the key that minted it (`request-keys.ts`).
      const token = toHex(context.runner.state.random.uuid());
      rememberWorkspaceSession(context, token, input.headers.get(SESSION_API_KEY_HEADER));
      return noContent({
        'set-cookie': `${WORKSPACE_SESSION_COOKIE}=${token}; HttpOnly; Max-Age=315360000; Path=/api/conversations; SameSite=none; Secure; Partitioned`,
      });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/auth/workspace-session',
    summary: 'Clear the workspace session cookie (auth_router.py, delete_workspace_session)',
    response: z.unknown(),
    untypedInDocument: true,
    errors: [401],
    handle: async (input, context) => {
      // The token is forgotten too: a copy of the cookie kept by any client opens nothing any more (the real cookie is
      // the key itself and cannot be revoked; the fake's is an opaque token, so it is).
      forgetWorkspaceSession(context, input.headers);
      return noContent({ 'set-cookie': `${WORKSPACE_SESSION_COOKIE}=""; Max-Age=0; Path=/api/conversations; SameSite=none; Secure` });
    },
  }),
]);

/** `GET /api/init`: needs no key (init_router.py, get_init_status); the fake's server is always initialised. */
export const initRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/init',
    summary: 'The init state: ready (init_router.py, get_init_status)',
    public: true,
    response: z.object({ state: z.enum(['dormant', 'initializing', 'ready']) }),
    handle: async () => ({ state: 'ready' as const }),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/init',
    summary: 'Initialise a dormant server: 400, it is initialised (init_router.py, initialize_server)',
    body: z.optional(Json),
    bodyOptional: true,
    response: z.object({ state: z.string() }),
    errors: [400],
    handle: async () => refuse('bad_request', 'Server is already initialized (state=ready)'),
  }),
]);
