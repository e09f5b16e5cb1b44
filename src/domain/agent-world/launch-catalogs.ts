/**
 * What the agent server 1.58.2 offers a client configuring an agent, and the sources it checks:
 * the tool catalog (`tool_router.py`, get_tool_catalog), the skill catalog (`skills_router.py`,
 * get_skill_catalog), a plugin fetched without installing it (`plugins_router.py`,
 * fetch_plugin_endpoint), and the repositories a git provider token reaches
 * (`git_provider_service.py`, search_provider_repositories). The fake fetches nothing: its plugins
 * are its marketplace's, its repositories its git world's.
 */
import { sharedDefaultGitWorld } from '../user/git-world.js';
import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { HOME } from './world.js';
import { loadedSkills, PLUGINS } from './catalogues.js';

/** `ToolCatalogEntry`s of the fake's tools: those a client may pick, whether the fake can run them, and the default set. */
const TOOL_CATALOG = [
  {
    name: 'terminal',
    user_selectable: true,
    usable: true,
    description: 'Runs shell commands in one lasting session.',
    in_default_set: true,
  },
  { name: 'file_editor', user_selectable: true, usable: true, description: 'Reads, creates and changes files.', in_default_set: true },
  {
    name: 'task_tracker',
    user_selectable: true,
    usable: true,
    description: 'Keeps a list of tasks for work in steps.',
    in_default_set: true,
  },
  // The fake runs no browser.
  { name: 'browser_tool_set', user_selectable: true, usable: false, description: 'Opens and reads web pages.', in_default_set: true },
  { name: 'glob', user_selectable: true, usable: true, description: 'Finds files whose names match a pattern.', in_default_set: false },
  { name: 'grep', user_selectable: true, usable: true, description: 'Finds lines that match a pattern in files.', in_default_set: false },
  { name: 'planning_file_editor', user_selectable: false, usable: true, description: '', in_default_set: false },
];

/** `GET /api/tools/catalog`. */
export const toolCatalog = () => ({ tools: TOOL_CATALOG.map((entry) => ({ ...entry })) });

/** `GET /api/skills/catalog`: the skills a launch can load, each a public one or the user's own (installed). */
export function skillCatalog(state: DomainState) {
  return {
    skills: loadedSkills(state, {}).skills.map((skill) => ({
      ...skill,
      origin: skill.source === 'public' ? ('public' as const) : ('user' as const),
    })),
  };
}

/** The marketplace the fake's plugins come from. */
const MARKETPLACE = 'github:OpenHands/extensions';

/** A 5xx as the real server's error handler writes it: `Internal Server Error`, and the exception with its status. */
const serverError = (reason: 'bad_gateway' | 'gateway_timeout', status: number, detail: unknown) =>
  new Refusal(reason, 'Internal Server Error', {
    body: { detail: 'Internal Server Error', exception: `${status}: ${typeof detail === 'string' ? detail : pythonRepr(detail)}` },
  });

/** A flat object as Python prints a dict (`{'code': 'x'}`). */
function pythonRepr(value: unknown): string {
  const entries = Object.entries(value as Record<string, string>).map(([k, v]) => `'${k}': ${v.includes("'") ? `"${v}"` : `'${v}'`}`);
  return `{${entries.join(', ')}}`;
}

/**
 * `POST /api/plugins/fetch`: a plugin of the marketplace, pinned and not installed; a folder of the
 * marketplace or a local path without a plugin is 422 `invalid_plugin`; any other source cannot be
 * reached (502 `source_unavailable`).
 */
export function fetchPlugin(request: { source: string; ref?: string | null | undefined; repo_path?: string | null | undefined }) {
  const name = request.repo_path?.split('/').pop() ?? '';
  const plugin = PLUGINS.find((p) => p.name === name);
  if (request.source === MARKETPLACE && plugin && request.repo_path === `plugins/${name}`)
    return {
      path: `${HOME}/.openhands/cache/plugins/${name}`,
      resolved_ref: request.ref ?? 'main',
      source: MARKETPLACE,
      repo_path: request.repo_path,
      manifest: { name, version: '1.0.0', description: plugin.description },
      skills: [],
      commands: [],
    };
  if (request.source === MARKETPLACE || request.source.startsWith('/') || request.source.startsWith('.'))
    return new Refusal('invalid', 'Invalid plugin: plugin.json not found.', {
      body: { detail: { code: 'invalid_plugin', message: 'Invalid plugin: plugin.json not found.' } },
    });
  return serverError('bad_gateway', 502, { code: 'source_unavailable', message: `Could not fetch '${request.source}'` });
}

/** The secrets that hold a GitHub token, in the order they are tried (`_GITHUB_TOKEN_CANDIDATES`). */
const GITHUB_TOKEN_NAMES = ['github_token', 'GITHUB_TOKEN', 'GH_TOKEN', 'github'];

/**
 * `GET /api/git/repositories/search`: the GitHub repositories of the fake's git world a token among
 * the host's secrets reaches, by name (`query`, without case), a page at a time (`page_id`
 * `page:offset`); none, `missing_token`, without a token; 400 for another provider.
 */
export function searchProviderRepositories(
  state: DomainState,
  query: { provider: string; query?: string | undefined; limit: number; page_id?: string | undefined },
) {
  if (query.provider !== 'github') return refuse('bad_request', `Repository discovery is not supported for provider '${query.provider}'`);
  if (!state.store.customSecrets.some((s) => GITHUB_TOKEN_NAMES.includes(s.name) && s.value))
    return { items: [], next_page_id: null, missing_token: true };
  const [page, offset] = (query.page_id ?? '1:0').split(':').map((part) => Number(part || '0'));
  if (!Number.isInteger(page) || !Number.isInteger(offset) || page! < 1 || offset! < 0)
    return refuse('bad_request', 'Invalid repository page_id');
  const needle = query.query?.toLowerCase();
  const repositories = (state.store.git ?? sharedDefaultGitWorld()).repositories
    .filter((r) => r.git_provider === 'github' && (!needle || r.full_name.toLowerCase().includes(needle)))
    .map((r) => ({
      id: r.id,
      full_name: r.full_name,
      git_provider: 'github',
      is_public: r.is_public,
      stargazers_count: r.stargazers_count ?? null,
      pushed_at: r.pushed_at ?? null,
      main_branch: r.main_branch ?? null,
    }));
  const start = (page! - 1) * 100 + offset!;
  const items = repositories.slice(start, start + query.limit);
  const next =
    start + query.limit < repositories.length ? `${Math.floor((start + query.limit) / 100) + 1}:${(start + query.limit) % 100}` : null;
  return { items, next_page_id: next, missing_token: false };
}
