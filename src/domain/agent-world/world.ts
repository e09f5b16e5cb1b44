/**
 * What one fake's agent server holds besides conversations (a host-wide "world"): the settings the
 * frontend owns (`misc_settings`), agent profiles and meta-profiles, saved workspaces and their parents, the host's
 * directories, installed skills and plugins, bash commands and their output, workspace sessions.
 * The user's settings, LLM profiles and custom secrets are the instance's own (`state.store`), so
 * the agent host and the app server read one user. One world per `DomainState`: a reset or a new
 * tenant starts a fresh one (a WeakMap, so nothing outlives its state).
 */
import type { DomainState } from '../store/state.js';

/** A saved workspace (`WorkspaceItem`). */
export interface WorkspaceItem {
  id: string;
  name: string;
  path: string;
  parentPath?: string | null | undefined;
}
/** A saved workspace parent (`WorkspaceParentItem`). */
export interface WorkspaceParentItem {
  id: string;
  name: string;
  path: string;
}
/** An agent profile (`AgentProfile`, stored as given; `id` and `revision` the server's). */
export interface AgentProfileRecord {
  id: string;
  name: string;
  revision: number;
  agent_kind: string;
  llm_profile_ref: string | null;
  mcp_server_refs: string[] | null;
  config: Record<string, unknown>;
}
/** A meta-profile (`MetaProfile`, dumped: every field written): a classifier profile and classes, or a direct-routing prompt. */
export interface MetaProfile {
  classifier_model: string;
  classes: { description: string; model: string }[];
  prompt_template: string | null;
  model_table: string | null;
}
/** A bash event: a command, its output, or an error (`BashEventBase`). */
export type BashEvent =
  | { kind: 'BashCommand'; id: string; timestamp: string; command: string; cwd: string | null; timeout: number }
  | {
      kind: 'BashOutput';
      id: string;
      timestamp: string;
      command_id: string;
      order: number;
      exit_code: number | null;
      stdout: string | null;
      stderr: string | null;
    }
  | { kind: 'BashError'; id: string; timestamp: string; code: string; detail: string };

/** The world of one state. */
export interface AgentWorld {
  misc_settings: Record<string, unknown>;
  active_agent_profile_id: string | null;
  agentProfiles: Map<string, AgentProfileRecord>;
  /** Meta-profiles by name, and the active one's name. */
  metaProfiles: Map<string, MetaProfile>;
  active_meta_profile: string | null;
  workspaces: WorkspaceItem[];
  parents: WorkspaceParentItem[];
  /** Directories of the host (absolute paths), besides the home's defaults. */
  directories: Set<string>;
  /** Installed skills and plugins: name → enabled. */
  skills: Map<string, boolean>;
  plugins: Map<string, boolean>;
  /** Bash events in the order they were published (outputs appear when the clock reaches them). */
  bash: BashEvent[];
  /** Outputs not yet published: each with the epoch ms it is due. */
  pendingBash: { due: number; event: BashEvent }[];
  /** Listeners of new bash events (the `/sockets/bash-events` sockets). */
  bashListeners: Set<(event: BashEvent) => void>;
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

const worlds = new WeakMap<DomainState, AgentWorld>();

/** The world of `state` (made on first use). */
export function worldOf(state: DomainState): AgentWorld {
  let world = worlds.get(state);
  if (!world) {
    world = {
      misc_settings: {},
      active_agent_profile_id: null,
      agentProfiles: new Map(),
      metaProfiles: new Map(),
      active_meta_profile: null,
      workspaces: [],
      parents: [],
      directories: new Set(HOST_DIRECTORIES),
      skills: new Map([
        ['github', true],
        ['docker', true],
      ]),
      plugins: new Map([['code-review', true]]),
      bash: [],
      pendingBash: [],
      bashListeners: new Set(),
    };
    worlds.set(state, world);
  }
  return world;
}
