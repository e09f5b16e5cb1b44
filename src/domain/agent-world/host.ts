import { Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { changeWorld, HOME, upsertBy, worldOf, worldRecordOf, type WorkspaceItem, type WorkspaceParentItem } from './world.js';

/** Most saved workspaces, parents and host directories the fake keeps (a client cannot grow them without bound). */
export const MAX_HOST_ITEMS = 10_000;
export const full = (what: string) => new Refusal('storage_full', `Insufficient Storage: the fake keeps at most ${MAX_HOST_ITEMS} ${what}`);

/** Most agent profiles a user keeps. */
export const MAX_AGENT_PROFILES = 50;

// ── Agent profiles ───────────────────────────────────────────────────────

const agentProfileGone = (name: string) => refuse('not_found', `Agent profile '${name}' not found`);

/** `GET /api/agent-profiles`. */
export function listAgentProfiles(state: DomainState) {
  const world = worldOf(state);
  return {
    profiles: [...world.agentProfiles.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => ({
        id: p.id,
        name: p.name,
        agent_kind: p.agent_kind,
        revision: p.revision,
        llm_profile_ref: p.llm_profile_ref,
        mcp_server_refs: p.mcp_server_refs,
      })),
    active_agent_profile_id: world.active_agent_profile_id,
  };
}

/**
 * An `openhands` agent profile's fields with their defaults, in the model's order (openhands-sdk
 * 1.58.2 `profiles/agent_profile.py`, `AgentProfileBase` and `OpenHandsAgentProfile`; the condenser
 * `LLMSummarizingCondenserSettings`, the verification `ProfileVerificationSettings`).
 */
const OPENHANDS_PROFILE_DEFAULTS = Object.freeze({
  schema_version: 4,
  agent_kind: 'openhands',
  id: null,
  name: null,
  revision: 0,
  mcp_server_refs: null,
  secret_refs: null,
  llm_profile_ref: null,
  agent: 'CodeActAgent',
  tools: null,
  persona: null,
  system_message_suffix: null,
  disabled_skills: [],
  public_skills: null,
  condenser: {
    condenser_kind: 'llm_summarizing',
    enabled: true,
    max_size: 240,
    max_tokens: null,
    keep_first: 2,
    minimum_progress: 0.1,
    hard_context_reset_max_retries: 5,
    hard_context_reset_context_scaling: 0.8,
  },
  verification: {
    critic_enabled: false,
    critic_mode: 'finish_and_message',
    enable_iterative_refinement: false,
    critic_threshold: 0.6,
    max_refinement_iterations: 3,
    critic_server_url: null,
    critic_model_name: null,
  },
  enable_classify_and_switch_llm_tool: false,
  meta_profile_ref: null,
  tool_concurrency_limit: 1,
});

/** `GET /api/agent-profiles/{name}`: the profile as the store loads it, an `openhands` one with every field (its defaults where the save gave none). */
export function getAgentProfile(state: DomainState, name: string) {
  const p = worldOf(state).agentProfiles.get(name);
  if (!p) return agentProfileGone(name);
  return {
    name,
    profile: {
      ...(p.agent_kind === 'openhands' ? OPENHANDS_PROFILE_DEFAULTS : {}),
      ...p.config,
      id: p.id,
      name: p.name,
      revision: p.revision,
      agent_kind: p.agent_kind,
      llm_profile_ref: p.llm_profile_ref,
      mcp_server_refs: p.mcp_server_refs,
    },
  };
}

/** `POST /api/agent-profiles/{name}` (201): saves (a new revision of) the profile; 409 past the cap. */
export function saveAgentProfile(state: DomainState, name: string, body: Record<string, unknown>) {
  const world = worldOf(state);
  const kind = body.agent_kind ?? 'openhands';
  const llmRef = body.llm_profile_ref ?? null;
  const mcpRefs = body.mcp_server_refs ?? null;
  if (
    (kind !== 'openhands' && kind !== 'acp') ||
    (llmRef !== null && typeof llmRef !== 'string') ||
    (mcpRefs !== null && !(Array.isArray(mcpRefs) && mcpRefs.every((r) => typeof r === 'string')))
  ) {
    return new Refusal('invalid', 'Invalid agent profile', { body: { detail: 'Invalid agent profile' } });
  }
  const existing = world.agentProfiles.get(name);
  if (!existing && world.agentProfiles.size >= MAX_AGENT_PROFILES)
    return refuse('conflict', `Agent profile limit reached (${MAX_AGENT_PROFILES}). Delete a profile before saving a new one.`);
  const { id: _id, name: _name, revision: _revision, agent_kind: _kind, llm_profile_ref: _llm, mcp_server_refs: _mcp, ...config } = body;
  const profile = {
    id: existing?.id ?? state.random.uuid(),
    name,
    // A new profile is revision 0, each overwrite the next (`agent_profile_store.py`, `save`).
    revision: existing ? existing.revision + 1 : 0,
    agent_kind: kind,
    llm_profile_ref: llmRef as string | null,
    mcp_server_refs: mcpRefs as string[] | null,
    config,
  };
  changeWorld(state, { agent_profiles: upsertBy(worldRecordOf(state).agent_profiles, (p) => p.name, profile) });
  return { name, message: `Agent profile '${name}' saved` };
}

/** `DELETE /api/agent-profiles/{name}`: the active one stops being active. */
export function deleteAgentProfile(state: DomainState, name: string) {
  const world = worldOf(state);
  const p = world.agentProfiles.get(name);
  if (!p) return agentProfileGone(name);
  changeWorld(state, {
    agent_profiles: worldRecordOf(state).agent_profiles.filter((other) => other.name !== name),
    ...(world.active_agent_profile_id === p.id ? { active_agent_profile_id: null } : {}),
  });
  return { name, message: `Agent profile '${name}' deleted` };
}

/** `POST /api/agent-profiles/{name}/rename`: 409 when the new name is taken. */
export function renameAgentProfile(state: DomainState, name: string, newName: string) {
  const world = worldOf(state);
  const p = world.agentProfiles.get(name);
  if (!p) return agentProfileGone(name);
  if (newName === name) return { name, message: `Agent profile '${name}' unchanged (same name)` };
  if (world.agentProfiles.has(newName)) return refuse('conflict', `Agent profile '${newName}' already exists`);
  // Renamed, it goes to the end, as a profile saved anew.
  changeWorld(state, {
    agent_profiles: [...worldRecordOf(state).agent_profiles.filter((other) => other.name !== name), { ...p, name: newName }],
  });
  return { name: newName, message: `Agent profile '${name}' renamed to '${newName}'` };
}

/** `POST /api/agent-profiles/{id}/activate`: by id (or name). */
export function activateAgentProfile(state: DomainState, idOrName: string) {
  const world = worldOf(state);
  const p = [...world.agentProfiles.values()].find((x) => x.id === idOrName || x.name === idOrName);
  if (!p) return agentProfileGone(idOrName);
  changeWorld(state, { active_agent_profile_id: p.id });
  return { id: p.id, message: `Agent profile '${p.name}' activated`, agent_settings_applied: false };
}

// ── Workspaces ───────────────────────────────────────────────────────────

/** `WorkspacesListResponse` (its parents under the alias `workspaceParents`). */
export function listWorkspaces(state: DomainState) {
  const world = worldOf(state);
  return { workspaces: world.workspaces.map((w) => ({ ...w })), workspaceParents: world.parents.map((p) => ({ ...p })) };
}

/**
 * Most saved workspaces a host keeps, and most workspace parents (the real server keeps any number;
 * its fields are at most 4,096 characters, names 256, as here).
 */
export const MAX_WORKSPACES = MAX_HOST_ITEMS;
/** Most characters the saved workspaces and parents hold together (their ids, names and paths: 4 Mi). */
export const MAX_WORKSPACE_CHARS = 4 * 1024 * 1024;

/** The characters a saved workspace or parent holds. */
const itemChars = (item: WorkspaceItem) => item.id.length + item.name.length + item.path.length + (item.parentPath?.length ?? 0);

/**
 * Appends the items whose path is new (to the list and within the request), or refuses with a 507
 * past `MAX_WORKSPACES` or `MAX_WORKSPACE_CHARS`, changing nothing. One set of the paths: checking
 * each item against the whole list made saving 9,800 paths quadratic (1-2 s a request).
 */
function appendNew<T extends WorkspaceItem>(state: DomainState, list: readonly T[], items: T[], what: string): T[] | Refusal {
  const world = worldOf(state);
  const seen = new Set(list.map((item) => item.path));
  const fresh = items.filter((item) => !seen.has(item.path) && seen.add(item.path));
  if (list.length + fresh.length > MAX_WORKSPACES)
    return new Refusal('storage_full', `Insufficient Storage: the fake keeps at most ${MAX_WORKSPACES} ${what}`);
  let chars = 0;
  for (const item of [...world.workspaces, ...world.parents, ...fresh]) chars += itemChars(item);
  if (chars > MAX_WORKSPACE_CHARS)
    return new Refusal(
      'storage_full',
      `Insufficient Storage: the fake keeps at most ${MAX_WORKSPACE_CHARS} characters of saved workspaces and parents (ids, names, paths)`,
    );
  return [...list, ...fresh];
}

/** `POST /api/workspaces`: appended, deduplicated by path. */
export function addWorkspaces(state: DomainState, items: WorkspaceItem[]) {
  const world = worldOf(state);
  const workspaces = appendNew(state, world.workspaces, items, 'workspaces');
  if (workspaces instanceof Refusal) return workspaces;
  if (workspaces.length > world.workspaces.length) changeWorld(state, { workspaces });
  return listWorkspaces(state);
}

/** `DELETE /api/workspaces?path=`: 404 "Workspace not found". */
export function deleteWorkspace(state: DomainState, path: string) {
  const { workspaces } = worldOf(state);
  const kept = workspaces.filter((w) => w.path !== path);
  if (kept.length === workspaces.length) return refuse('not_found', 'Workspace not found');
  changeWorld(state, { workspaces: kept });
  return { deleted: true as const };
}

/** `POST /api/workspaces/parents`: appended, deduplicated by path. */
export function addWorkspaceParents(state: DomainState, items: WorkspaceParentItem[]) {
  const world = worldOf(state);
  const parents = appendNew(state, world.parents, items, 'workspace parents');
  if (parents instanceof Refusal) return parents;
  if (parents.length > world.parents.length) changeWorld(state, { workspace_parents: parents });
  return listWorkspaces(state);
}

/** `DELETE /api/workspaces/parents?path=`: 404 "Workspace parent not found". */
export function deleteWorkspaceParent(state: DomainState, path: string) {
  const { parents } = worldOf(state);
  const kept = parents.filter((p) => p.path !== path);
  if (kept.length === parents.length) return refuse('not_found', 'Workspace parent not found');
  changeWorld(state, { workspace_parents: kept });
  return { deleted: true as const };
}

// ── The host's directories ───────────────────────────────────────────────

const parentOf = (path: string) => (path.lastIndexOf('/') <= 0 ? '/' : path.slice(0, path.lastIndexOf('/')));
const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const normal = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The immediate subdirectories of `dir`, by name without case. */
function childrenOf(state: DomainState, dir: string, includeHidden: boolean): string[] {
  return [...worldOf(state).directories]
    .filter((d) => d !== '/' && parentOf(d) === dir && (includeHidden || !baseName(d).startsWith('.')))
    .sort((a, b) => baseName(a).toLowerCase().localeCompare(baseName(b).toLowerCase()));
}

/** `GET /api/file/home`: the home, its top-level directories, the root. */
export function homeDirectory(state: DomainState, includeHidden: boolean) {
  return {
    home: HOME,
    favorites: childrenOf(state, HOME, includeHidden)
      .slice(0, 50)
      .map((path) => ({ label: baseName(path), path })),
    locations: [{ label: '/', path: '/' }],
  };
}

/** `GET /api/file/search_subdirs`: a page of subdirectories; `page_id` is the lowercase name of the first. */
export function searchSubdirs(
  state: DomainState,
  query: { path: string; page_id?: string | undefined; limit: number; include_hidden: boolean },
) {
  if (!query.path.startsWith('/')) return refuse('bad_request', 'Path must be absolute');
  const dir = normal(query.path);
  if (!worldOf(state).directories.has(dir)) return refuse('not_found', 'Directory not found');
  const entries = childrenOf(state, dir, query.include_hidden).map((path) => ({ name: baseName(path), path }));
  const found = query.page_id ? entries.findIndex((e) => e.name.toLowerCase() === query.page_id) : 0;
  const start = Math.max(0, found);
  return { items: entries.slice(start, start + query.limit), next_page_id: entries[start + query.limit]?.name.toLowerCase() ?? null };
}

/** `POST /api/file/create_directory?path=`: idempotent, with its parents. */
export function createDirectory(state: DomainState, path: string) {
  if (!path.startsWith('/')) return refuse('bad_request', 'Path must be absolute');
  return addDirectories(state, path) ?? { success: true as const };
}

/** Records the absolute `path` and its parents as directories of the host (`mkdir(parents=True)`); a refusal past the bound. */
export function addDirectories(state: DomainState, path: string): Refusal | null {
  const directories = worldOf(state).directories;
  if (directories.size + path.split('/').length > MAX_HOST_ITEMS) return full('directories');
  const made: string[] = [];
  for (let dir = normal(path); dir !== '/'; dir = parentOf(dir)) if (!directories.has(dir)) made.unshift(dir);
  // An existing directory changes nothing (no write).
  if (made.length > 0) changeWorld(state, { directories: [...worldRecordOf(state).directories, ...made] });
  return null;
}

/** Whether `path` is a directory of the host. */
export const isDirectory = (state: DomainState, path: string): boolean => worldOf(state).directories.has(normal(path));

// ── Commits ──────────────────────────────────────────────────────────────

/** A stable 40-hex sha from a text. */
function shaOf(text: string): string {
  let out = '';
  for (let round = 0; out.length < 40; round++) {
    let h = 2166136261 ^ round;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}

/** The commits of the repository at `path`, newest first: one repository per host directory (none elsewhere). */
function commitsAt(state: DomainState, path: string) {
  if (!isDirectory(state, path)) return [];
  const start = Date.parse('2025-10-01T09:00:00Z');
  const subjects = ['Initial commit', 'Add the README', 'Fix the flaky test'];
  return subjects
    .map((subject, i) => {
      const sha = shaOf(`${normal(path)}#${i}`);
      return {
        sha,
        short_sha: sha.slice(0, 7),
        subject,
        author: 'openhands',
        timestamp: new Date(start + i * 86_400_000).toISOString().replace('.000Z', '+00:00'),
        files: i === 0 ? ['README.md', 'src/index.ts'] : i === 1 ? ['README.md'] : ['test/app.test.ts'],
      };
    })
    .reverse();
}

/** `GET /api/git/commits?path=&limit=`: newest first; an empty page outside a repository. */
export function gitCommits(state: DomainState, path: string, limit: number) {
  const all = commitsAt(state, path);
  return { commits: all.slice(0, limit).map(({ files: _f, ...commit }) => commit), has_more: all.length > limit };
}

/** `GET /api/git/commits/{sha}/changes?path=`: the files a commit changed; 400 for a sha the repository lacks. */
export function gitCommitChanges(state: DomainState, path: string, sha: string) {
  if (!isDirectory(state, path)) return [];
  const commit = commitsAt(state, path).find((c) => c.sha.startsWith(sha.toLowerCase()));
  if (!commit) return refuse('bad_request', `Unknown revision: ${sha}`);
  return commit.files.map((file) => ({
    status: (commit.subject === 'Initial commit' ? 'ADDED' : 'UPDATED') as 'ADDED' | 'UPDATED',
    path: file,
  }));
}

/**
 * `POST /api/agent-profiles/{name}/materialize`: a dry run of the profile's references
 * (`AgentProfileDiagnostics`): dangling ones make it invalid, never an error status.
 */
export function materializeAgentProfile(state: DomainState, name: string) {
  const p = worldOf(state).agentProfiles.get(name);
  if (!p) return agentProfileGone(name);
  const settings = state.store.settings;
  const llm = p.llm_profile_ref ? settings?.llm_profiles[p.llm_profile_ref] : undefined;
  const mcp = (settings?.agent_settings_extra as { mcp_config?: Record<string, unknown> } | undefined)?.mcp_config ?? {};
  const dangling = (p.mcp_server_refs ?? []).filter((ref) => !(ref in mcp));
  const errors = [
    ...(p.llm_profile_ref && !llm ? [`LLM profile '${p.llm_profile_ref}' not found`] : []),
    ...dangling.map((ref) => `MCP server '${ref}' not found`),
  ];
  return {
    agent_kind: p.agent_kind,
    valid: errors.length === 0,
    errors,
    llm_profile_ref: p.llm_profile_ref,
    llm_profile_resolved: Boolean(llm),
    llm_api_key_set: typeof llm?.api_key === 'string' && llm.api_key.trim() !== '',
    mcp_server_refs: p.mcp_server_refs,
    resolved_mcp_config_keys: (p.mcp_server_refs ?? []).filter((ref) => ref in mcp),
    dangling_mcp_server_refs: dangling,
    disabled_skills: [],
    resolved_skills: [...worldOf(state).skills].filter(([, on]) => on).map(([skill]) => skill),
    acp_api_key_secret_name: null,
    acp_base_url_secret_name: null,
    acp_file_secret_names: [],
    resolved_settings: llm ? { llm: { model: llm.model, base_url: llm.base_url, api_key_set: Boolean(llm.api_key) } } : null,
  };
}
