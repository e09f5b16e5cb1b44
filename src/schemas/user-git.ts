/**
 * The git world the user sees through a provider token: the user, repositories, their branches and
 * microagents, installations and suggested tasks. The wire shapes copy openhands
 * `integrations/service_types.py` (`User`, `Repository`, `Branch`, `PaginatedBranchesResponse`,
 * `SuggestedTask`) and `server/routes/git.py` (microagents), and the newest pages (`RepositoryPage`,
 * `BranchPage`, `InstallationPage`, `SuggestedTaskPage`, `UserGitInfo`). `GitWorld` is its fixture form.
 */
import * as z from 'zod/mini';
import { ProviderType } from './common.js';
import { pageOf } from './helpers.js';
import { SuggestedTask } from './legacy.js';

/** The user of the provider (`User`). */
export const GitUser = z.object({
  id: z.string(),
  login: z.string(),
  avatar_url: z.string(),
  company: z._default(z.nullable(z.string()), null),
  name: z._default(z.nullable(z.string()), null),
  email: z._default(z.nullable(z.string()), null),
});
export type GitUser = z.output<typeof GitUser>;

/** A branch (`Branch`). */
export const Branch = z.object({
  name: z.string(),
  commit_sha: z.string(),
  protected: z.boolean(),
  last_push_date: z._default(z.nullable(z.string()), null),
});
export type Branch = z.output<typeof Branch>;

/** A repository as the routes answer it (`Repository`). */
export const Repository = z.object({
  id: z.string(),
  full_name: z.string(),
  git_provider: ProviderType,
  is_public: z.boolean(),
  stargazers_count: z._default(z.nullable(z.int()), null),
  link_header: z._default(z.nullable(z.string()), null),
  pushed_at: z._default(z.nullable(z.string()), null),
  owner_type: z._default(z.nullable(z.enum(['user', 'organization'])), null),
  main_branch: z._default(z.nullable(z.string()), null),
});
export type Repository = z.output<typeof Repository>;

/** A microagent file of a repository, with its content. */
export const RepositoryMicroagent = z.strictObject({
  name: z.string().check(z.minLength(1)),
  path: z.string().check(z.minLength(1)),
  content: z.string(),
  created_at: z.string(),
});

/** A repository in a fixture: the wire fields, its branches and microagents, and the installation it belongs to. */
export const GitRepositoryRecord = z.strictObject({
  ...z.omit(Repository, { link_header: true }).shape,
  /** The installation (GitHub app installation, Bitbucket workspace) it is reached through. */
  installation_id: z._default(z.nullable(z.string()), null),
  branches: z._default(z.array(Branch), []),
  microagents: z._default(z.array(RepositoryMicroagent), []),
});
export type GitRepositoryRecord = z.output<typeof GitRepositoryRecord>;

/** The git world of a fixture: who the user is on the providers, and what they can reach. */
export const GitWorld = z.strictObject({
  user: GitUser,
  repositories: z._default(z.array(GitRepositoryRecord), []),
  suggested_tasks: z._default(z.array(SuggestedTask), []),
});
export type GitWorld = z.output<typeof GitWorld>;

/** `GET /api/user/repository/branches` (`PaginatedBranchesResponse`). */
export const PaginatedBranchesResponse = z.object({
  branches: z.array(Branch),
  has_next_page: z.boolean(),
  current_page: z.int(),
  per_page: z.int(),
  total_count: z.nullable(z.int()),
});

/** `GET /api/user/repository/{name}/microagents` (`MicroagentResponse`). */
export const MicroagentResponse = z.object({ name: z.string(), path: z.string(), created_at: z.string() });

/** `GET /api/user/repository/{name}/microagents/content` (`MicroagentContentResponse`). */
export const MicroagentContentResponse = z.object({
  content: z.string(),
  path: z.string(),
  triggers: z.array(z.string()),
  git_provider: z.nullable(z.string()),
});

/** `GET /api/v1/users/git-info` (`UserGitInfo`). */
export const UserGitInfo = GitUser;

/** The newest generation's pages. */
export const RepositoryPage = pageOf(Repository);
export const BranchPage = pageOf(Branch);
export const InstallationPage = pageOf(z.string());
export const SuggestedTaskPage = pageOf(
  z.extend(SuggestedTask, { task_type: z.enum(['MERGE_CONFLICTS', 'FAILING_CHECKS', 'UNRESOLVED_COMMENTS', 'OPEN_ISSUE', 'OPEN_PR']) }),
);

/** How the newest repository search orders (`SortOrder`). */
export const RepositorySortOrder = z.enum(['stars-desc', 'stars-asc', 'forks-desc', 'forks-asc', 'updated-desc', 'updated-asc']);
