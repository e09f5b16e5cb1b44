/**
 * The user and their git providers: legacy `/api/user/*` copies openhands `server/routes/git.py`
 * (get_user, get_user_installations, get_user_repositories with the GitHub `link_header`,
 * search_repositories, search_branches, get_suggested_tasks, get_repository_branches with
 * `PaginatedBranchesResponse`, get_repository_microagents, get_repository_microagent_content; 401
 * with a bare JSON string without a token, as `authentication_error_handler` answers); the newest
 * `/api/v1/git/*` pages and `/api/v1/users/git-info` copy `app-server.openapi.json`.
 */
import { describe, expect, it } from 'vitest';
import { defaultGitWorld, gitWorld, repository } from '../../src/index.js';
import { call, useFake } from '../support/api.js';

useFake({ fixture: 'empty' });
const connect = (provider = 'github') =>
  call('POST', '/api/add-git-providers', { body: { provider_tokens: { [provider]: { token: 'tok-fakehands-test', host: null } } } });

describe('the legacy user routes without a token', () => {
  it('answer 401 with the message as a bare JSON string', async () => {
    expect(await call('GET', '/api/user/info')).toMatchObject({ status: 401, body: 'Git provider token required. (such as GitHub).' });
    expect(await call('GET', '/api/user/repositories')).toMatchObject({
      status: 401,
      body: 'Git provider token required. (such as GitHub).',
    });
    expect(await call('GET', '/api/user/search/repositories?query=react')).toMatchObject({
      status: 401,
      body: 'Git provider token required.',
    });
    expect(await call('GET', '/api/user/suggested-tasks')).toMatchObject({ status: 401, body: 'No providers set.' });
  });
});

describe('GET /api/user/info', () => {
  it("answers the user of the fixture's git world once a token is saved", async () => {
    await connect();
    expect(await call('GET', '/api/user/info')).toMatchObject({
      status: 200,
      body: { id: '4815162342', login: 'octo-dev', name: 'Octo Dev', email: 'octo-dev@example.com' },
    });
    expect(await call('GET', '/api/v1/users/git-info')).toMatchObject({ status: 200, body: { login: 'octo-dev' } });
  });
});

describe('GET /api/user/repositories', () => {
  it('pages the repositories of the providers with a token, newest push first, the first item carrying the GitHub link header', async () => {
    await connect();
    const first = await call<{ full_name: string; git_provider: string; link_header: string | null; pushed_at: string }[]>(
      'GET',
      '/api/user/repositories?selected_provider=github&sort=pushed&page=1&per_page=10',
    );
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    expect(first.body.every((r) => r.git_provider === 'github')).toBe(true);
    expect(first.body.map((r) => r.pushed_at)).toEqual([...first.body.map((r) => r.pushed_at)].sort().reverse());
    expect(first.body[0]!.link_header).toBe(
      '<https://api.github.com/user/repos?sort=pushed&page=2&per_page=10>; rel="next", <https://api.github.com/user/repos?sort=pushed&page=4&per_page=10>; rel="last"',
    );
    expect(first.body[1]!.link_header).toBeNull();
    const last = await call<{ link_header: string | null }[]>(
      'GET',
      '/api/user/repositories?selected_provider=github&sort=pushed&page=4&per_page=10',
    );
    expect(last.body).toHaveLength(10);
    expect(last.body[0]!.link_header).toBeNull();
    // GitLab has no token: none of its repositories shows.
    expect((await call<unknown[]>('GET', '/api/user/repositories?selected_provider=gitlab')).body).toEqual([]);
  });

  it('filters by installation, as the web client pages installation by installation', async () => {
    await connect();
    const [installation] = (await call<string[]>('GET', '/api/user/installations?provider=github')).body;
    const repos = (
      await call<{ full_name: string }[]>('GET', `/api/user/repositories?selected_provider=github&installation_id=${installation}`)
    ).body;
    expect(repos.length).toBeGreaterThan(0);
    const world = defaultGitWorld();
    expect(repos.every((r) => world.repositories.find((w) => w.full_name === r.full_name)?.installation_id === installation)).toBe(true);
  });

  it('answers 422 for a provider that does not exist, and 400 for installations of a provider without them', async () => {
    await connect();
    expect(await call('GET', '/api/user/repositories?selected_provider=sourceforge')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'enum', loc: ['query', 'selected_provider'] }] },
    });
    expect(await call('GET', '/api/user/installations?provider=gitlab')).toMatchObject({
      status: 400,
      body: "Provider gitlab doesn't support installations",
    });
  });
});

describe('GET /api/user/search/repositories, /api/user/search/branches', () => {
  it('finds repositories by name (by stars, per_page 5 by default) and branches by name', async () => {
    await connect();
    const found = await call<{ full_name: string; stargazers_count: number }[]>('GET', '/api/user/search/repositories?query=acme-labs');
    expect(found.body).toHaveLength(5);
    expect(found.body.every((r) => r.full_name.startsWith('acme-labs/'))).toBe(true);
    expect(found.body.map((r) => r.stargazers_count)).toEqual([...found.body.map((r) => r.stargazers_count)].sort((a, b) => b - a));
    const branches = await call<{ name: string }[]>('GET', '/api/user/search/branches?repository=OpenHands/OpenHands&query=main');
    expect(branches).toMatchObject({ status: 200, body: [{ name: 'main', protected: true }] });
  });
});

describe('GET /api/user/repository/branches', () => {
  it("pages a repository's branches (PaginatedBranchesResponse), main first", async () => {
    await connect();
    const page = await call<{
      branches: { name: string }[];
      has_next_page: boolean;
      current_page: number;
      per_page: number;
      total_count: number;
    }>('GET', '/api/user/repository/branches?repository=octo-dev/api&page=1&per_page=30');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ has_next_page: true, current_page: 1, per_page: 30, total_count: 45 });
    expect(page.body.branches[0]).toMatchObject({ name: 'main', protected: true, commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(
      (
        await call<{ branches: unknown[]; has_next_page: boolean }>(
          'GET',
          '/api/user/repository/branches?repository=octo-dev/api&page=2&per_page=30',
        )
      ).body,
    ).toMatchObject({ has_next_page: false, branches: expect.any(Array) });
    expect(await call('GET', '/api/user/repository/branches?repository=nobody/nothing')).toMatchObject({
      status: 500,
      body: 'Repository nobody/nothing not found',
    });
  });
});

describe('GET /api/user/suggested-tasks', () => {
  it('lists the tasks of the connected providers', async () => {
    await connect();
    const tasks = await call<{ repo: string; git_provider: string; task_type: string }[]>('GET', '/api/user/suggested-tasks');
    expect(tasks.status).toBe(200);
    expect(tasks.body.length).toBeGreaterThan(0);
    expect(tasks.body[0]).toMatchObject({ git_provider: 'github', repo: 'OpenHands/OpenHands', task_type: 'FAILING_CHECKS' });
  });
});

describe('GET /api/user/repository/{owner}/{repo}/microagents and /content', () => {
  it("lists a repository's microagents and reads one with its triggers", async () => {
    await connect();
    expect(await call('GET', '/api/user/repository/OpenHands/OpenHands/microagents')).toMatchObject({
      status: 200,
      body: [{ name: 'repo', path: '.openhands/microagents/repo.md' }, { name: 'testing' }],
    });
    expect(
      await call('GET', '/api/user/repository/OpenHands/OpenHands/microagents/content?file_path=.openhands/microagents/testing.md'),
    ).toMatchObject({
      status: 200,
      body: {
        path: '.openhands/microagents/testing.md',
        triggers: ['test', 'flaky'],
        git_provider: 'github',
        content: expect.stringContaining('rerun only that test'),
      },
    });
    expect(await call('GET', '/api/user/repository/OpenHands/OpenHands/microagents/content')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'file_path'] }] },
    });
  });
});

describe('/api/v1/git/*/search', () => {
  it('page repositories, branches, installations and suggested tasks with page_id and limit', async () => {
    await connect();
    const first = await call<{ items: { full_name: string }[]; next_page_id: string | null }>(
      'GET',
      '/api/v1/git/repositories/search?provider=github&limit=15',
    );
    expect(first.body.items).toHaveLength(15);
    const second = await call<{ items: { full_name: string }[]; next_page_id: string | null }>(
      'GET',
      `/api/v1/git/repositories/search?provider=github&limit=100&page_id=${first.body.next_page_id}`,
    );
    expect(first.body.items.length + second.body.items.length).toBe(40);
    expect(second.body.next_page_id).toBeNull();
    expect(
      (await call<{ items: { full_name: string }[] }>('GET', '/api/v1/git/repositories/search?provider=github&query=react')).body.items.map(
        (r) => r.full_name,
      ),
    ).toEqual(['facebook/react']);
    expect(
      (
        await call<{ items: { name: string }[] }>(
          'GET',
          '/api/v1/git/branches/search?provider=github&repository=octo-dev/api&query=fix&limit=3',
        )
      ).body.items,
    ).toHaveLength(3);
    expect((await call<{ items: string[] }>('GET', '/api/v1/git/installations/search?provider=github')).body.items.length).toBeGreaterThan(
      0,
    );
    expect((await call<{ items: unknown[] }>('GET', '/api/v1/git/suggested-tasks/search')).body.items.length).toBeGreaterThan(0);
    expect(await call('GET', '/api/v1/git/branches/search?provider=github&repository=octo-dev/api')).toMatchObject({
      status: 422,
      body: { detail: [{ type: 'missing', loc: ['query', 'query'] }] },
    });
  });
});

describe("a git world of one's own", () => {
  it('is described in a few lines with gitWorld and repository', async () => {
    const { createFake } = await import('../../src/index.js');
    const fake = await createFake({
      baseUrl: 'http://localhost:3999',
      auth: 'none',
      timings: 'instant',
      fixture: {
        sandbox_specs: [{ id: 'spec', command: null, created_at: '2025-10-01T00:00:00Z', initial_env: {}, working_dir: '/w' }],
        provider_tokens: { gitlab: { token: 't' } },
        git: gitWorld([repository('team/app', { git_provider: 'gitlab', branches: ['main', 'develop'] })]),
      },
    });
    const snapshot = await fake.snapshot();
    expect(snapshot.git?.repositories.map((r) => [r.full_name, r.branches.map((b) => b.name)])).toEqual([
      ['team/app', ['main', 'develop']],
    ]);
  });
});
