/**
 * Changes are events: every change of the fake's state, whatever caused it (a request, a fault,
 * code calling the service, time passing, a reset), is announced as a `StateChange`. Persistence,
 * the journal and anything else that follows state subscribe to them; nothing decides from an
 * HTTP verb whether something changed.
 */
import type { Fixture } from '../../schemas/fixture.js';
import type { ShellStep } from '../../schemas/bash.js';

/** What kind of thing changed. */
export type ChangedEntity =
  | 'sandbox_spec'
  | 'sandbox'
  | 'conversation'
  | 'start_task'
  | 'event'
  | 'provider_tokens'
  | 'mcp_config'
  | 'settings'
  | 'secrets'
  /** The agent host's host-wide state (`agent_world`: its profiles, workspaces, directories, skills, connections). */
  | 'agent_world'
  /** The agent host's shell (its bash events and the outputs not yet due): the change is in `shell`. */
  | 'shell'
  /** The clock moved, so time-derived state (a sandbox's RUNNING) may read differently. */
  | 'clock'
  /** The whole state was replaced (a reset). */
  | 'state';

/** One change of the fake's state. */
export interface StateChange {
  /** What kind of thing changed. */
  entity: ChangedEntity;
  /** How it changed. */
  action: 'created' | 'updated' | 'deleted' | 'replaced';
  /** The id of the record, when one record changed. */
  id?: string;
  /** Of an update: the fields set anew (the rest are as they were). */
  fields?: readonly string[];
  /** Of an update: lists that only grew, with how many items were appended at their end. */
  appended?: Readonly<Record<string, number>>;
  /** Of an update: maps (objects) whose other keys stayed as they were, with the keys set anew or removed (issue 29, finding 6). */
  merged?: Readonly<Record<string, readonly string[]>>;
  /** Of the shell: the one step it took. */
  shell?: ShellStep;
}

/** The parts of a fixture that a change replaces whole (each one record of its own, not a list of them). */
export type SnapshotPart = 'provider_tokens' | 'mcp_config' | 'settings' | 'secrets' | 'agent_world';

/** What a change listener can read of the state it is told about. */
export interface ChangedState {
  /** The whole state at this instant, as a fixture (tokens redacted). */
  snapshot(): Fixture;
  /** One record as a fixture holds it (secrets redacted), or `undefined` when it is gone. */
  record(entity: ChangedEntity, id: string): { id: string } | undefined;
  /** One part of the fixture as `snapshot()` would hold it (secrets redacted), or `undefined` when the fixture leaves it out. */
  part(name: SnapshotPart): unknown;
}

/**
 * Called once per domain operation that changed state, with its changes, before the operation
 * resolves: a request is answered only after its listeners (the state file) are done.
 */
export type ChangeListener = (changes: readonly StateChange[], state: ChangedState) => Promise<void> | void;

/** Where a store announces its changes (a no-op until the service subscribes). */
export type ChangeSink = (change: StateChange) => void;
