/**
 * The user and their git providers on the app server: legacy `/api/user/*` (openhands
 * `server/routes/git.py`: get_user_installations, get_user_repositories, get_user,
 * search_repositories, search_branches, get_suggested_tasks, get_repository_branches,
 * get_repository_microagents, get_repository_microagent_content) and the newest
 * `/api/v1/git/{installations,repositories,branches,suggested-tasks}/search`, `/api/v1/users/git-info` and `/api/v1/users/me`.
 */
import * as z from 'zod/mini';
import { refuse } from '../../../domain/store/refusal.js';
import {
  gitUser,
  installations,
  microagentContent,
  repositoryBranches,
  repositoryMicroagents,
  searchBranches,
  searchBranchesPage,
  searchInstallationsPage,
  searchRepositories,
  searchRepositoriesPage,
  searchSuggestedTasksPage,
  suggestedTasks,
  userRepositories,
} from '../../../domain/user/git.js';
import { settingsView } from '../../../domain/user/settings.js';
import { ProviderType } from '../../../schemas/common.js';
import { LaxBool, laxInt } from '../../../schemas/helpers.js';
import { SuggestedTask } from '../../../schemas/legacy.js';
import {
  Branch,
  BranchPage,
  GitUser,
  InstallationPage,
  MicroagentContentResponse,
  MicroagentResponse,
  PaginatedBranchesResponse,
  Repository,
  RepositoryPage,
  RepositorySortOrder,
  SuggestedTaskPage,
  UserGitInfo,
} from '../../../schemas/user-git.js';
import { SettingsView } from '../../../schemas/user-settings.js';
import { defineRoute, type Route } from '../../../http/route.js';

const LaxInt = laxInt(z.int());
const RepositoryParams = z.object({ owner: z.string(), repo: z.string() });
const nameOf = (params: Record<string, string>) => `${params.owner}/${params.repo}`;
const pageQuery = (defaultLimit: number) => ({
  page_id: z.optional(z.string()),
  limit: z._default(laxInt(z.int().check(z.gt(0), z.lte(100))), defaultLimit),
});

/** `GET /api/v1/users/me` of an OSS install: the settings and who the user is. */
const SaasUserInfo = z.extend(z.omit(SettingsView, { provider_tokens_set: true, llm_api_key_set: true, search_api_key_set: true }), {
  id: z.nullable(z.string()),
  org_id: z.nullable(z.string()),
  org_name: z.nullable(z.string()),
  role: z.nullable(z.string()),
  permissions: z.nullable(z.array(z.string())),
});

/** The user and git routes. */
export const userGitRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/user/info',
    summary: 'The user on the git provider (401 without a token)',
    response: GitUser,
    handle: (_input, context) => context.runner.run(gitUser),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/installations',
    summary: 'GitHub app installations or Bitbucket workspaces',
    query: z.object({ provider: ProviderType }),
    response: z.array(z.string()),
    errors: [400],
    handle: ({ query }, context) => context.runner.run(installations, query.provider),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/repositories',
    summary: "The user's repositories (a page with `page`: a GitHub link_header on its first item)",
    query: z.object({
      sort: z._default(z.string(), 'pushed'),
      selected_provider: z.optional(ProviderType),
      page: z.optional(LaxInt),
      per_page: z.optional(LaxInt),
      installation_id: z.optional(z.string()),
    }),
    response: z.array(Repository),
    handle: ({ query }, context) => context.runner.run(userRepositories, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/search/repositories',
    summary: 'Repositories whose name contains the query, by stars',
    query: z.object({
      query: z.string(),
      per_page: z._default(LaxInt, 5),
      sort: z._default(z.string(), 'stars'),
      order: z._default(z.string(), 'desc'),
      selected_provider: z.optional(ProviderType),
    }),
    response: z.array(Repository),
    handle: ({ query }, context) => context.runner.run(searchRepositories, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/search/branches',
    summary: 'Branches of a repository whose name contains the query',
    query: z.object({
      repository: z.string(),
      query: z.string(),
      per_page: z._default(LaxInt, 30),
      selected_provider: z.optional(ProviderType),
    }),
    response: z.array(Branch),
    errors: [500],
    handle: ({ query }, context) => context.runner.run(searchBranches, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/suggested-tasks',
    summary: 'Tasks suggested on the connected providers (401 "No providers set." without a token)',
    response: z.array(SuggestedTask),
    handle: (_input, context) => context.runner.run(suggestedTasks),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/repository/branches',
    summary: "A page of a repository's branches",
    query: z.object({ repository: z.string(), page: z._default(LaxInt, 1), per_page: z._default(LaxInt, 30) }),
    response: PaginatedBranchesResponse,
    errors: [500],
    handle: ({ query }, context) => context.runner.run(repositoryBranches, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/repository/:owner/:repo/microagents',
    summary: 'The microagents of a repository (.openhands/microagents)',
    params: RepositoryParams,
    response: z.array(MicroagentResponse),
    errors: [500],
    handle: ({ params }, context) => context.runner.run(repositoryMicroagents, nameOf(params)),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/repository/:owner/:repo/microagents/content',
    summary: 'One microagent file of a repository, with its triggers',
    params: RepositoryParams,
    query: z.object({ file_path: z.string() }),
    response: MicroagentContentResponse,
    errors: [500],
    handle: ({ params, query }, context) => context.runner.run(microagentContent, nameOf(params), query.file_path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/users/git-info',
    summary: 'The user on the git provider (401 without a token)',
    response: UserGitInfo,
    handle: (_input, context) =>
      context.runner.run((state) => {
        const user = gitUser(state);
        return 'login' in user ? user : refuse('unauthorized', 'Git provider token required');
      }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/users/me',
    summary: 'The user and their settings (secrets as *_set flags; expose_secrets is refused)',
    query: z.object({ expose_secrets: z._default(LaxBool, false) }),
    response: SaasUserInfo,
    errors: [403],
    handle: ({ query }, context) =>
      context.runner.run((state) =>
        query.expose_secrets
          ? refuse('forbidden', 'expose_secrets requires a sandbox session key')
          : (() => {
              const { provider_tokens_set: _p, llm_api_key_set: _l, search_api_key_set: _s, ...view } = settingsView(state);
              return { ...view, id: state.options.userId ?? null, org_id: null, org_name: null, role: null, permissions: null };
            })(),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/git/installations/search',
    summary: 'A page of the installations of a provider',
    query: z.object({ provider: ProviderType, ...pageQuery(100) }),
    response: InstallationPage,
    handle: ({ query }, context) => context.runner.run(searchInstallationsPage, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/git/repositories/search',
    summary: 'A page of the repositories of a provider, searched by name',
    query: z.object({
      provider: ProviderType,
      query: z.optional(z.string()),
      installation_id: z.optional(z.string()),
      sort_order: z.optional(RepositorySortOrder),
      ...pageQuery(100),
    }),
    response: RepositoryPage,
    handle: ({ query }, context) => context.runner.run(searchRepositoriesPage, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/git/branches/search',
    summary: 'A page of the branches of a repository, searched by name',
    query: z.object({ provider: ProviderType, repository: z.string(), query: z.string(), ...pageQuery(30) }),
    response: BranchPage,
    handle: ({ query }, context) => context.runner.run(searchBranchesPage, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/v1/git/suggested-tasks/search',
    summary: 'A page of the suggested tasks of the connected providers',
    query: z.object(pageQuery(30)),
    response: SuggestedTaskPage,
    handle: ({ query }, context) => context.runner.run(searchSuggestedTasksPage, query),
  }),
]);
