/**
 * The generated git world: what a user sees on GitHub, GitLab and Bitbucket through a token when
 * the fixture describes none. Deterministic (the same for every fake, so tests can name a repository),
 * small word lists and a hash rather than faker, so the browser build stays light. Helpers build a
 * world of one's own in a few lines (`gitWorld`, `repository`).
 */
import { hashOf } from '../store/ids.js';
import type { ProviderType } from '../../schemas/common.js';
import type { SuggestedTask } from '../../schemas/legacy.js';
import type { Branch, GitRepositoryRecord, GitUser, GitWorld } from '../../schemas/user-git.js';

/** 40 hex digits from a string (a commit sha that is always the same for the same branch). */
function shaOf(text: string): string {
  let out = '';
  for (let i = 0; out.length < 40; i++) out += hashOf(`${text}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, 40);
}

/** An ISO time some days before the world's reference instant. */
const daysBefore = (days: number, hours = 0) =>
  new Date(Date.UTC(2025, 10, 3, 9) - (days * 24 + hours) * 3_600_000).toISOString().replace('.000Z', 'Z');

const BRANCH_WORDS = [
  'fix/flaky-tests',
  'feat/dark-mode',
  'chore/deps',
  'develop',
  'release/1.2',
  'feat/search',
  'fix/login-redirect',
  'docs/readme',
  'refactor/api-client',
  'feat/export-csv',
  'fix/timezone',
  'perf/cache',
];

/** Branches of a repository: its main branch, then `count - 1` more, newest push first after main. */
export function branchesOf(fullName: string, main: string, count: number): Branch[] {
  const seed = hashOf(fullName);
  const branches: Branch[] = [
    { name: main, commit_sha: shaOf(`${fullName}@${main}`), protected: true, last_push_date: daysBefore(seed % 3, 2) },
  ];
  for (let i = 1; i < count; i++) {
    const word = BRANCH_WORDS[(seed + i) % BRANCH_WORDS.length]!;
    const name = i < BRANCH_WORDS.length ? word : `${word}-${i}`;
    if (branches.some((b) => b.name === name)) continue;
    branches.push({ name, commit_sha: shaOf(`${fullName}@${name}`), protected: false, last_push_date: daysBefore(i + (seed % 5), i) });
  }
  return branches;
}

/**
 * A repository of a fixture's git world, with defaults: public, owned by an organization, `main`,
 * a few branches.
 * @example
 * repository('acme/web', { git_provider: 'gitlab', branches: ['main', 'develop'] })
 */
export function repository(
  fullName: string,
  options: {
    git_provider?: ProviderType;
    is_public?: boolean;
    stargazers_count?: number;
    pushed_at?: string;
    main_branch?: string;
    branches?: string[] | number;
    installation_id?: string | null;
  } = {},
): GitRepositoryRecord {
  const seed = hashOf(fullName);
  const main = options.main_branch ?? 'main';
  const branchCount = typeof options.branches === 'number' ? options.branches : 3 + (seed % 6);
  const branches = Array.isArray(options.branches)
    ? options.branches.map((name) => ({
        name,
        commit_sha: shaOf(`${fullName}@${name}`),
        protected: name === main,
        last_push_date: daysBefore(seed % 9),
      }))
    : branchesOf(fullName, main, branchCount);
  const owner = fullName.split('/')[0] ?? fullName;
  return {
    id: String(100_000 + (seed % 900_000)),
    full_name: fullName,
    git_provider: options.git_provider ?? 'github',
    is_public: options.is_public ?? true,
    stargazers_count: options.stargazers_count ?? seed % 5000,
    pushed_at: options.pushed_at ?? daysBefore(seed % 30, seed % 24),
    owner_type: owner === DEFAULT_USER.login ? 'user' : 'organization',
    main_branch: main,
    installation_id: options.installation_id === undefined ? String(40_000_000 + (hashOf(owner) % 1_000_000)) : options.installation_id,
    branches,
    microagents: [
      {
        name: 'repo',
        path: '.openhands/microagents/repo.md',
        created_at: daysBefore(60 + (seed % 30)),
        content: `---\nname: repo\ntype: repo\nagent: CodeActAgent\n---\n# ${fullName}\n\nRun the tests before opening a pull request.\n`,
      },
      {
        name: 'testing',
        path: '.openhands/microagents/testing.md',
        created_at: daysBefore(40 + (seed % 20)),
        content:
          '---\nname: testing\ntype: knowledge\ntriggers:\n- test\n- flaky\n---\nRead the first failure first, and rerun only that test.\n',
      },
    ],
  };
}

/** The user of the generated world. */
export const DEFAULT_USER: GitUser = Object.freeze({
  id: '4815162342',
  login: 'octo-dev',
  avatar_url: 'https://avatars.githubusercontent.com/u/4815162342?v=4',
  company: 'Acme',
  name: 'Octo Dev',
  email: 'octo-dev@example.com',
});

const POPULAR = [
  'OpenHands/OpenHands',
  'facebook/react',
  'django/django',
  'nodejs/node',
  'microsoft/TypeScript',
  'vercel/next.js',
  'mswjs/msw',
  'colinhacks/zod',
  'pact-foundation/pact-js',
  'vitest-dev/vitest',
];
const NOUNS = [
  'api',
  'web',
  'billing',
  'search',
  'mobile',
  'infra',
  'docs',
  'auth',
  'payments',
  'analytics',
  'design-system',
  'cli',
  'worker',
  'gateway',
  'notifications',
];

/**
 * A git world from repositories (and, optionally, the user and suggested tasks).
 * @example
 * const git = gitWorld([repository('acme/web'), repository('acme/api', { branches: ['main', 'develop'] })])
 */
export function gitWorld(
  repositories: GitRepositoryRecord[],
  options: { user?: GitUser; suggested_tasks?: SuggestedTask[] } = {},
): GitWorld {
  const suggested =
    options.suggested_tasks ??
    repositories.slice(0, 4).flatMap((repo, i): SuggestedTask[] => {
      const types = ['FAILING_CHECKS', 'OPEN_ISSUE', 'MERGE_CONFLICTS', 'UNRESOLVED_COMMENTS', 'OPEN_PR'] as const;
      return [
        {
          git_provider: repo.git_provider,
          task_type: types[i % types.length]!,
          repo: repo.full_name,
          issue_number: 100 + (hashOf(repo.full_name) % 900),
          title: `${['Fix the failing CI on main', 'Dates show in UTC', 'Resolve conflicts in the release branch', 'Answer the review comments', 'Review the dependency bump'][i % 5]}`,
        },
      ];
    });
  return { user: options.user ?? { ...DEFAULT_USER }, repositories, suggested_tasks: suggested };
}

/** The generated world, made once (it is the same for every fake, and read only). */
let sharedDefault: GitWorld | null = null;

/** The world a fixture without `git` has (shared, read only): 10 popular GitHub repositories, 30 of the user's and their organization's, 6 on GitLab and 4 on Bitbucket. */
export function sharedDefaultGitWorld(): GitWorld {
  sharedDefault ??= deepFreeze(defaultGitWorld());
  return sharedDefault;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** The world a fixture without `git` has, as a new object: 10 popular GitHub repositories, 30 of the user's and their organization's, 6 on GitLab and 4 on Bitbucket. */
export function defaultGitWorld(): GitWorld {
  const repositories: GitRepositoryRecord[] = [
    ...POPULAR.map((name) => repository(name, { installation_id: null })),
    ...NOUNS.map((noun, i) =>
      repository(`${i % 3 === 0 ? DEFAULT_USER.login : 'acme'}/${noun}`, { is_public: i % 4 !== 0, branches: i === 0 ? 45 : undefined }),
    ),
    ...NOUNS.map((noun) => repository(`acme-labs/${noun}-service`, { is_public: false })),
    ...NOUNS.slice(0, 6).map((noun) => repository(`acme-group/${noun}`, { git_provider: 'gitlab', installation_id: null })),
    ...NOUNS.slice(6, 10).map((noun) =>
      repository(`acme-workspace/${noun}`, { git_provider: 'bitbucket', installation_id: 'acme-workspace' }),
    ),
  ];
  return gitWorld(repositories);
}
