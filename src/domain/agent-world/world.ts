/**
 * What one fake's agent server holds besides conversations (a host-wide "world"): the settings the
 * frontend owns (`misc_settings`), agent profiles and the active one, saved workspaces and their
 * parents, the host's directories, installed skills and plugins, LLM provider connections and the
 * ChatGPT subscription's sign-in. The user's settings, LLM profiles and custom secrets are the
 * instance's own (`state.store.settings`), so the agent host and the app server read one user.
 *
 * The world is a record of the store (`state.store.agentWorld`, `schemas/agent-world.ts`), never
 * changed in place: each change replaces it (`changeWorld`). So a snapshot, the state file, a
 * reset, a tenant and an operation's undo (a write the state file cannot take) cover it as they
 * cover every other record. Before its first change the store holds none: a fresh host's is read.
 * The shell's events are the store's too (`store.shell`, `bash.ts`). What stays in memory beside
 * them, each module saying why: the MCP OAuth probes (`mcp.ts`) and the pending subscription logins
 * (`connections.ts`).
 */
import type {
  AgentProfileRecord,
  AgentWorldRecord,
  InstalledRecord,
  MetaProfileRecord,
  WorkspaceItem,
  WorkspaceParentItem,
} from '../../schemas/agent-world.js';
import type { DomainState } from '../store/state.js';

export type { AgentProfileRecord, WorkspaceItem, WorkspaceParentItem } from '../../schemas/agent-world.js';

/** A meta-profile as answered (`MetaProfile`): its record without its name. */
export type MetaProfile = Omit<MetaProfileRecord, 'name'>;

/** The world of one state, as read (build the next one with `changeWorld`). */
export interface AgentWorld {
  readonly misc_settings: Readonly<Record<string, unknown>>;
  readonly active_agent_profile_id: string | null;
  /** The agent profiles by name. */
  readonly agentProfiles: ReadonlyMap<string, AgentProfileRecord>;
  /** Meta-profiles by name, and the active one's name. */
  readonly metaProfiles: ReadonlyMap<string, MetaProfile>;
  readonly active_meta_profile: string | null;
  readonly workspaces: readonly WorkspaceItem[];
  readonly parents: readonly WorkspaceParentItem[];
  /** Directories of the host (absolute paths), a fresh host's included. */
  readonly directories: ReadonlySet<string>;
  /** Installed skills and plugins: name → enabled, in the order they were installed. */
  readonly skills: ReadonlyMap<string, boolean>;
  readonly plugins: ReadonlyMap<string, boolean>;
}

/** The home of the agent server's user. */
export const HOME = '/home/openhands';
/** The directories a fresh host has. */
const HOST_DIRECTORIES = [
  '/',
  '/home',
  HOME,
  `${HOME}/workspace`,
  `${HOME}/projects`,
  `${HOME}/projects/todo-app`,
  `${HOME}/projects/api-server`,
  `${HOME}/.cache`,
  '/tmp',
  '/workspace',
  // Agent Canvas's Docker image mounts the user's projects at /projects, where its folder browser
  // opens on a host whose home is /home/openhands (folder-browser-modal.tsx).
  '/projects',
  '/projects/todo-app',
  '/projects/api-server',
];

/** A fresh host's installed skills and plugins. */
const FRESH_SKILLS: readonly InstalledRecord[] = [
  { name: 'github', enabled: true },
  { name: 'docker', enabled: true },
];
const FRESH_PLUGINS: readonly InstalledRecord[] = [{ name: 'code-review', enabled: true }];

/** Every field of the stored world, a fresh host's where it holds none. */
export function worldRecordOf(state: DomainState): Required<AgentWorldRecord> {
  const stored = state.store.agentWorld ?? {};
  return {
    misc_settings: stored.misc_settings ?? {},
    active_agent_profile_id: stored.active_agent_profile_id ?? null,
    agent_profiles: stored.agent_profiles ?? [],
    meta_profiles: stored.meta_profiles ?? [],
    active_meta_profile: stored.active_meta_profile ?? null,
    workspaces: stored.workspaces ?? [],
    workspace_parents: stored.workspace_parents ?? [],
    directories: stored.directories ?? [],
    skills: stored.skills ?? [...FRESH_SKILLS],
    plugins: stored.plugins ?? [...FRESH_PLUGINS],
    provider_connections: stored.provider_connections ?? [],
    subscription_expires_at: stored.subscription_expires_at ?? null,
  };
}

/**
 * The read view of each stored world, made once per record: a record is never changed in place, so
 * its view stays true while the store holds it (a cache, not state: a WeakMap, gone with its record).
 */
const views = new WeakMap<object, AgentWorld>();
/** The view of a fresh host (no world stored yet). */
let freshView: AgentWorld | null = null;

/** The world of `state`, as read. */
export function worldOf(state: DomainState): AgentWorld {
  const stored = state.store.agentWorld;
  const cached = stored ? views.get(stored) : freshView;
  if (cached) return cached;
  const record = worldRecordOf(state);
  const view: AgentWorld = {
    misc_settings: record.misc_settings,
    active_agent_profile_id: record.active_agent_profile_id,
    agentProfiles: new Map(record.agent_profiles.map((p) => [p.name, p])),
    metaProfiles: new Map(record.meta_profiles.map(({ name, ...profile }) => [name, profile])),
    active_meta_profile: record.active_meta_profile,
    workspaces: record.workspaces,
    parents: record.workspace_parents,
    directories: new Set([...HOST_DIRECTORIES, ...record.directories]),
    skills: new Map(record.skills.map((s) => [s.name, s.enabled])),
    plugins: new Map(record.plugins.map((p) => [p.name, p.enabled])),
  };
  if (stored) views.set(stored, view);
  else freshView = view;
  return view;
}

/**
 * Replaces the world of `state` with `change` applied (the fields given replace the stored ones; a
 * change the state file keeps, undone with the operation's transaction). Never pass a list or map
 * read from the world changed in place: build a new one.
 */
export function changeWorld(state: DomainState, change: Partial<AgentWorldRecord>): void {
  state.store.setAgentWorld({ ...worldRecordOf(state), ...change });
}

/** `items` with the one whose `key` is `key` replaced by `next` (appended when there is none). */
export function upsertBy<T>(items: readonly T[], key: (item: T) => string, next: T): T[] {
  const at = items.findIndex((item) => key(item) === key(next));
  return at < 0 ? [...items, next] : items.map((item, i) => (i === at ? next : item));
}
