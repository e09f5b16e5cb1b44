/**
 * The operation runner of one fake: every domain operation runs through `run`, which owns the two
 * rules all of them follow (one at a time, behind a mutex; time-driven steps settled first) and
 * hands the state changes an operation made to subscribers before that operation resolves. A
 * reset swaps the state behind it, so a reference kept before a reset stays valid.
 */
import { formatDateTime } from '../../schemas/datetime.js';
import type { Fixture } from '../../schemas/fixture.js';
import type { ChangeListener, ChangedEntity, SnapshotPart, StateChange } from './events.js';
import type * as Snapshot from './snapshot.js';
import { settleStartTasks } from '../conversations/settle-start-tasks.js';
import { Mutex } from './mutex.js';
import { Refusal } from './refusal.js';
import type { AgentRuntime, DomainState, SavedIndexes } from './state.js';

/** A domain operation: a function of the state and its own arguments. */
export type Operation<A extends unknown[], R> = (state: DomainState, ...args: A) => R | Promise<R>;

/** Runs domain operations one at a time over the current state, and publishes their changes. */
export class OperationRunner {
  #state: DomainState;
  readonly #mutex = new Mutex();
  readonly #listeners: ChangeListener[] = [];
  #changes: StateChange[] = [];
  /** `snapshot.ts`, once a snapshot or a published change needed it. */
  #snapshots: typeof Snapshot | null = null;
  /** Loads `snapshot.ts` (in a page, the service facade's chunk: a page without listeners never needs it). */
  readonly #loadSnapshots: () => Promise<typeof Snapshot>;

  /** The scripted agent (`agent/runtime.ts`), loaded once, the first time a state needs it (in a page, the service facade's chunk). */
  readonly #loadAgent: () => Promise<AgentRuntime>;

  /**
   * A runner over the first loaded state; `loadAgent` gives the scripted agent the first time a state
   * needs it, `loadSnapshots` the snapshot module the first time a snapshot or a listener needs it.
   */
  constructor(state: DomainState, loadAgent: () => Promise<AgentRuntime>, loadSnapshots: () => Promise<typeof Snapshot>) {
    this.#loadSnapshots = loadSnapshots;
    let agent: Promise<AgentRuntime> | null = null;
    this.#loadAgent = () => (agent ??= loadAgent());
    this.#state = state;
    this.#watch(state);
  }

  /** The current state, for synchronous reads that change nothing. */
  get state(): DomainState {
    return this.#state;
  }

  #watch(state: DomainState): void {
    state.loadAgent = this.#loadAgent;
    state.store.onChange = (change) => {
      if (this.#listeners.length > 0) this.#changes.push(change);
    };
  }

  /**
   * Runs `operation` with `args` as one step, after moving every time-driven state machine to now.
   * @example
   * await runner.run(sandboxes.pauseSandbox, id)
   */
  run<A extends unknown[], R>(operation: Operation<A, R>, ...args: A): Promise<Awaited<R>> {
    return this.#step((state) => operation(state, ...args) as Awaited<R> | Promise<Awaited<R>>, true);
  }

  /**
   * One step, atomic: the body's changes and their publication (the state file writing them) both
   * happen, or neither does. When either fails, every change of the step is undone, so what the
   * fake holds, what it wrote and what it answered never disagree.
   */
  async #step<T>(body: (state: DomainState) => Promise<T> | T, settle: boolean): Promise<T> {
    return this.#mutex.run(async () => {
      const state = this.#state;
      const mark = this.#changes.length;
      const indexes = state.saveIndexes();
      state.store.begin();
      try {
        // A state loaded with events (a fixture, a restart) reads their LLM calls with the agent's module.
        if (state.statsReader === null && state.store.events.size > 0) state.statsReader = (await state.loadAgent()).combinedMetrics;
        // Nothing time-driven under way (the agent host's own creates): no settle, no promise to wait for.
        if (settle) {
          if (state.pendingTasks.size > 0 || state.activeRuns.size > 0 || state.timelines.size > 0)
            await this.#settle(state, indexes, mark);
          else state.store.changedSandboxes.clear();
        }
        const result = await body(state);
        if (this.#changes.length > 0) await this.#publish();
        state.store.commit();
        return result;
      } catch (error) {
        if (this.#state === state) {
          await state.store.rollback();
          state.restoreIndexes(indexes);
          this.#changes.length = Math.min(mark, this.#changes.length);
        }
        throw error;
      }
    });
  }

  /**
   * Moves every time-driven state machine to now. When a step that came due finds the store full
   * (a start task's conversation, an agent's event: `storage_full`), none of them is taken: the store
   * and the indexes go back to what the step began with, and the operation runs on that. The steps
   * wait for room, which the operation itself may make (a delete): otherwise every request, reads and
   * deletes included, was refused with a 507 until a reset.
   */
  async #settle(state: DomainState, indexes: SavedIndexes | null, changesMark: number): Promise<void> {
    const savepoint = state.store.savepoint();
    try {
      // No start task pending (the agent host's own creates): nothing to settle, no promise to wait for.
      if (state.pendingTasks.size > 0) await settleStartTasks(state);
      else state.store.changedSandboxes.clear();
      // The scripted agent's runs (its module: in a page, the service facade's chunk) only once one started.
      if (state.activeRuns.size > 0) await (await state.loadAgent()).settleAgentRuns(state);
      // Replays and streamed messages: their held events that came due (issue 32); `streaming.ts` comes with the agent.
      if (state.timelines.size > 0) await (await state.loadAgent()).settleTimelines(state);
    } catch (error) {
      if (!(error instanceof Refusal && error.reason === 'storage_full')) throw error;
      await state.store.rollbackTo(savepoint);
      state.restoreIndexes(indexes);
      this.#changes.length = Math.min(changesMark, this.#changes.length);
    }
  }

  /** Subscribes to state changes; returns a function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void {
    this.#listeners.push(listener);
    return () => {
      const at = this.#listeners.indexOf(listener);
      if (at >= 0) this.#listeners.splice(at, 1);
    };
  }

  /** Records a change made outside the store (the clock moved), published with the next operation. */
  noteChange(change: StateChange): void {
    if (this.#listeners.length > 0) this.#changes.push(change);
  }

  /** Replaces the state behind the runner (a reset); when its publication fails, the old state stays. */
  replaceState(state: DomainState): Promise<void> {
    return this.#mutex.run(async () => {
      const previous = this.#state;
      const mark = this.#changes.length;
      this.#install(state);
      this.noteChange({ entity: 'state', action: 'replaced' });
      try {
        await this.#publish();
      } catch (error) {
        this.#install(previous);
        this.#changes.length = Math.min(mark, this.#changes.length);
        throw error;
      }
    });
  }

  #install(state: DomainState): void {
    this.#state.store.onChange = () => undefined;
    this.#state = state;
    this.#watch(state);
  }

  /** Brings every time-driven step up to the clock's now. */
  settle(): Promise<void> {
    return this.#step(() => undefined, true);
  }

  /** Everything the state holds, as a fixture: time-driven steps settled, tokens redacted. */
  snapshot(): Promise<Fixture> {
    return this.#step(async () => {
      this.#snapshots ??= await this.#loadSnapshots();
      return this.#snapshotNow();
    }, true);
  }

  /** Hands the changes collected so far to the listeners (the step's own, and any noted before it). */
  async #publish(): Promise<void> {
    if (this.#changes.length === 0) return;
    const changes = this.#changes;
    this.#changes = [];
    try {
      // What listeners read (`snapshot.ts`) is loaded with the first change published to one.
      const snapshots = (this.#snapshots ??= await this.#loadSnapshots());
      const view = {
        snapshot: () => this.#snapshotNow(),
        record: (entity: ChangedEntity, id: string) => snapshots.recordOf(this.#state, entity, id),
        part: (name: SnapshotPart) => snapshots.partOf(this.#state.store, name),
      };
      for (const listener of [...this.#listeners]) await listener(changes, view);
    } catch (error) {
      // Not published: the changes noted before this step stay to be published by the next one.
      this.#changes = changes.concat(this.#changes);
      throw error;
    }
  }

  /** The state as it is at this instant, as a fixture (synchronous, so always consistent). */
  #snapshotNow(): Fixture {
    const state = this.#state;
    return this.#snapshots!.fixtureOf(state.store, (sandbox) => {
      const settled = state.sandboxState(sandbox);
      return { ...sandbox, status: settled.status, status_changed_at: formatDateTime(settled.sinceMs) };
    });
  }
}
