/**
 * What the user reaches on the git providers through the stored tokens: the fixture's git world,
 * seen only for the providers that have a token. Legacy routes copy openhands `server/routes/git.py`
 * (no token: 401 with the message as a bare JSON string; `get_user_installations`: 400 for a provider
 * without installations; repositories paged with a GitHub `link_header` on the first item;
 * `get_repository_branches`: `PaginatedBranchesResponse`; microagents under
 * `.openhands/microagents`); the newest routes page with `page_id` (an offset) and `limit`.
 */
import type { ProviderType } from '../../schemas/common.js';
import type { SuggestedTask } from '../../schemas/legacy.js';
import type { Branch, GitRepositoryRecord, GitUser, GitWorld, Repository } from '../../schemas/user-git.js';
import { sharedDefaultGitWorld } from './git-world.js';
import { pageFrom } from '../store/paging.js';
import { Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** A legacy refusal whose body is the message itself, as `JSONResponse(content=str(e))` writes it. */
const bare = (reason: 'unauthorized' | 'bad_request' | 'internal', message: string) => new Refusal(reason, message, { body: message });

/** The legacy routes' 401 without a token. */
const TOKEN_REQUIRED = 'Git provider token required. (such as GitHub).';

/** The fixture's git world, or the generated default one when the fixture has none. */
const worldOf = (state: DomainState): GitWorld => state.store.git ?? sharedDefaultGitWorld();

/** Providers with a token (or a user id). */
export function connectedProviders(state: DomainState): ProviderType[] {
  return (Object.entries(state.store.providerTokens) as [ProviderType, { token: string | null; user_id: string | null }][])
    .filter(([, token]) => Boolean(token.token || token.user_id))
    .map(([provider]) => provider);
}

/** Repositories of connected providers (of `provider` only, when given). */
function reachable(state: DomainState, provider?: ProviderType | null): GitRepositoryRecord[] {
  const connected = new Set(connectedProviders(state));
  return worldOf(state).repositories.filter((r) => connected.has(r.git_provider) && (!provider || r.git_provider === provider));
}

/** A repository as the routes answer it (no branches, no microagents). */
function wire(repo: GitRepositoryRecord, linkHeader: string | null = null): Repository {
  const { branches: _b, microagents: _m, installation_id: _i, ...fields } = repo;
  return { ...fields, link_header: linkHeader };
}

/** The user, or 401 without any token. */
export function gitUser(state: DomainState): GitUser | Refusal {
  return connectedProviders(state).length > 0 ? worldOf(state).user : bare('unauthorized', TOKEN_REQUIRED);
}

/** `GET /api/user/installations?provider=`: GitHub app installations or Bitbucket workspaces. */
export function installations(state: DomainState, provider: ProviderType): string[] | Refusal {
  if (connectedProviders(state).length === 0) return bare('unauthorized', TOKEN_REQUIRED);
  if (provider !== 'github' && provider !== 'bitbucket') return bare('bad_request', `Provider ${provider} doesn't support installations`);
  return [
    ...new Set(
      reachable(state, provider)
        .map((r) => r.installation_id)
        .filter((id): id is string => id !== null),
    ),
  ];
}

/** Orders repositories as the `sort` parameter asks (`pushed` by default, newest first). */
function sorted(repos: GitRepositoryRecord[], sort: string): GitRepositoryRecord[] {
  const by = {
    stars: (a: GitRepositoryRecord, b: GitRepositoryRecord) => (b.stargazers_count ?? 0) - (a.stargazers_count ?? 0),
    full_name: (a: GitRepositoryRecord, b: GitRepositoryRecord) => a.full_name.localeCompare(b.full_name),
    pushed: (a: GitRepositoryRecord, b: GitRepositoryRecord) => (b.pushed_at ?? '').localeCompare(a.pushed_at ?? ''),
  };
  return [...repos].sort(by[sort as keyof typeof by] ?? by.pushed);
}

/** A GitHub `Link` header for page `page` of `last` pages. */
function linkHeader(page: number, last: number, perPage: number): string | null {
  if (page >= last) return null;
  const url = (p: number) => `<https://api.github.com/user/repos?sort=pushed&page=${p}&per_page=${perPage}>`;
  return `${url(page + 1)}; rel="next", ${url(last)}; rel="last"`;
}

/** `GET /api/user/repositories`: one page (with `page`), or every repository. */
export function userRepositories(
  state: DomainState,
  query: {
    sort: string;
    selected_provider?: ProviderType | null | undefined;
    page?: number | null | undefined;
    per_page?: number | null | undefined;
    installation_id?: string | null | undefined;
  },
): Repository[] | Refusal {
  if (connectedProviders(state).length === 0) return bare('unauthorized', TOKEN_REQUIRED);
  const repos = sorted(
    reachable(state, query.selected_provider).filter((r) => !query.installation_id || r.installation_id === query.installation_id),
    query.sort,
  );
  if (!query.page) return repos.map((r) => wire(r));
  const perPage = Math.max(1, query.per_page ?? 30);
  const last = Math.max(1, Math.ceil(repos.length / perPage));
  const page = repos.slice((query.page - 1) * perPage, query.page * perPage);
  return page.map((r, i) => wire(r, i === 0 ? linkHeader(query.page!, last, perPage) : null));
}

/** `GET /api/user/search/repositories`: names containing the query, by stars. */
export function searchRepositories(
  state: DomainState,
  query: { query: string; per_page: number; sort: string; order: string; selected_provider?: ProviderType | null | undefined },
): Repository[] | Refusal {
  if (connectedProviders(state).length === 0) return bare('unauthorized', 'Git provider token required.');
  const needle = query.query.toLowerCase().replace(/^https?:\/\/[^/]+\//, '');
  let repos = sorted(
    reachable(state, query.selected_provider).filter((r) => r.full_name.toLowerCase().includes(needle)),
    query.sort === 'stars' ? 'stars' : query.sort,
  );
  if (query.order === 'asc') repos = repos.reverse();
  return repos.slice(0, Math.max(0, query.per_page)).map((r) => wire(r));
}

/** The repository named, among those the tokens reach. */
function findRepository(state: DomainState, name: string, provider?: ProviderType | null): GitRepositoryRecord | undefined {
  return reachable(state, provider).find((r) => r.full_name.toLowerCase() === name.toLowerCase());
}

/** `GET /api/user/repository/branches`: a page of branches (1-based `page`). */
export function repositoryBranches(state: DomainState, query: { repository: string; page: number; per_page: number }) {
  if (connectedProviders(state).length === 0) return bare('unauthorized', TOKEN_REQUIRED);
  const repo = findRepository(state, query.repository);
  if (!repo) return bare('internal', `Repository ${query.repository} not found`);
  const perPage = Math.max(1, query.per_page);
  const page = Math.max(1, query.page);
  const branches = repo.branches.slice((page - 1) * perPage, page * perPage);
  return {
    branches,
    has_next_page: page * perPage < repo.branches.length,
    current_page: page,
    per_page: perPage,
    total_count: repo.branches.length,
  };
}

/** `GET /api/user/search/branches`: branches whose name contains the query. */
export function searchBranches(
  state: DomainState,
  query: { repository: string; query: string; per_page: number; selected_provider?: ProviderType | null | undefined },
): Branch[] | Refusal {
  if (connectedProviders(state).length === 0) return bare('unauthorized', 'Git provider token required.');
  const repo = findRepository(state, query.repository, query.selected_provider);
  if (!repo) return bare('internal', `Repository ${query.repository} not found`);
  return repo.branches.filter((b) => b.name.toLowerCase().includes(query.query.toLowerCase())).slice(0, Math.max(0, query.per_page));
}

/** `GET /api/user/suggested-tasks`: the tasks of connected providers; 401 "No providers set." without a token. */
export function suggestedTasks(state: DomainState): SuggestedTask[] | Refusal {
  const connected = new Set(connectedProviders(state));
  if (connected.size === 0) return bare('unauthorized', 'No providers set.');
  return worldOf(state).suggested_tasks.filter((t) => connected.has(t.git_provider));
}

/** `GET /api/user/repository/{owner}/{repo}/microagents`: name, path and date of each. */
export function repositoryMicroagents(state: DomainState, name: string) {
  if (connectedProviders(state).length === 0) return bare('unauthorized', TOKEN_REQUIRED);
  const repo = findRepository(state, name);
  if (!repo) return bare('internal', `Error scanning repository: Repository ${name} not found`);
  return repo.microagents.map(({ name: agent, path, created_at }) => ({ name: agent, path, created_at }));
}

/** `GET .../microagents/content?file_path=`: the file and the triggers its front matter lists. */
export function microagentContent(state: DomainState, name: string, filePath: string) {
  if (connectedProviders(state).length === 0) return bare('unauthorized', TOKEN_REQUIRED);
  const repo = findRepository(state, name);
  const agent = repo?.microagents.find((m) => m.path === filePath);
  if (!repo || !agent) return bare('internal', `Error fetching microagent content: ${filePath} not found in ${name}`);
  const triggers = [...(agent.content.match(/^triggers:\n((?:- .*\n)+)/m)?.[1] ?? '').matchAll(/^- (.*)$/gm)].map((m) => m[1]!.trim());
  return { content: agent.content, path: agent.path, triggers, git_provider: repo.git_provider };
}

/** `GET /api/v1/git/repositories/search`. */
export function searchRepositoriesPage(
  state: DomainState,
  query: {
    provider: ProviderType;
    query?: string | undefined;
    installation_id?: string | undefined;
    page_id?: string | undefined;
    limit: number;
    sort_order?: string | undefined;
  },
) {
  const needle = (query.query ?? '').toLowerCase();
  let repos = reachable(state, query.provider).filter(
    (r) => r.full_name.toLowerCase().includes(needle) && (!query.installation_id || r.installation_id === query.installation_id),
  );
  const order = query.sort_order ?? 'updated-desc';
  repos = sorted(repos, order.startsWith('stars') ? 'stars' : 'pushed');
  if (order.endsWith('-asc')) repos.reverse();
  return pageFrom(
    repos.map((r) => wire(r)),
    query.page_id,
    query.limit,
  );
}

/** `GET /api/v1/git/branches/search`. */
export function searchBranchesPage(
  state: DomainState,
  query: { provider: ProviderType; repository: string; query: string; page_id?: string | undefined; limit: number },
) {
  const repo = findRepository(state, query.repository, query.provider);
  const branches = (repo?.branches ?? []).filter((b) => b.name.toLowerCase().includes(query.query.toLowerCase()));
  return pageFrom(branches, query.page_id, query.limit);
}

/** `GET /api/v1/git/installations/search`. */
export function searchInstallationsPage(
  state: DomainState,
  query: { provider: ProviderType; page_id?: string | undefined; limit: number },
) {
  const ids = [
    ...new Set(
      reachable(state, query.provider)
        .map((r) => r.installation_id)
        .filter((id): id is string => id !== null),
    ),
  ];
  return pageFrom(ids, query.page_id, query.limit);
}

/** `GET /api/v1/git/suggested-tasks/search`. */
export function searchSuggestedTasksPage(state: DomainState, query: { page_id?: string | undefined; limit: number }) {
  const connected = new Set(connectedProviders(state));
  // The newest TaskType has no CREATE_MICROAGENT.
  const tasks = worldOf(state).suggested_tasks.filter(
    (t): t is SuggestedTask & { task_type: Exclude<SuggestedTask['task_type'], 'CREATE_MICROAGENT'> } =>
      connected.has(t.git_provider) && t.task_type !== 'CREATE_MICROAGENT',
  );
  return pageFrom(tasks, query.page_id, query.limit);
}
