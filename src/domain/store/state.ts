/**
 * One loaded state of the fake and what every area needs to work on it: the store, the clock,
 * the seeded random source, the time stamps it hands out and the sandbox status at this instant.
 * A reset builds a new `DomainState`; the `FakeService` front keeps the same identity.
 */
import { formatDateTime, parseDateTime } from '../../schemas/datetime.js';
import type { SandboxRecord, StartTaskRecord, StoredSandboxStatus } from '../../schemas/records.js';
import type { Clock } from '../time/clock.js';
import { AGENT_PORT_COUNT, RandomSource, agentPortAfter } from './ids.js';
import { FINAL_TASK_STATUSES, settleSandboxStatus, type Timings } from '../time/lifecycle.js';
import type { Store } from './store.js';
import type { AgentScript } from '../../schemas/agent-server.js';
import type { ConversationRecord } from '../../schemas/records.js';
import type { MetricsSnapshot } from '../agent/metrics.js';
import { runStepsTotal, type TimelineEntry } from '../agent/status.js';

/** How many distinct status times `sinceMs` keeps read (then it starts again). */
const SINCE_CACHE_SIZE = 1024;

/**
 * The scripted agent's entry points that time-driven steps call (`agent/runtime.ts`): a start task
 * that became READY hands it its first message; the runs in progress publish their steps. A state
 * loads it through `loadAgent` only then, so a page's first chunks never carry the agent (issue 30).
 */
export interface AgentRuntime {
  /** `scripted-agent.ts`'s `deliverMessage`: a message to the agent, run when `run` (signature spelled out: importing its type would close a circle). */
  deliverMessage(
    state: DomainState,
    conversation: ConversationRecord,
    message: string,
    run: boolean,
    atMs?: number,
  ): Promise<ConversationRecord>;
  /** `scripted-agent.ts`'s `settleAgentRuns`: every run step due by now published. */
  settleAgentRuns(state: DomainState): Promise<void>;
  /** `streaming.ts`'s `settleTimelines`: the held events of replays and streamed messages that came due. */
  settleTimelines(state: DomainState): Promise<void>;
  /** `ready-conversation.ts`'s `startReadyConversation`: the conversation of a task that turned READY at `atMs`, its log started, its first message delivered. */
  startConversation(state: DomainState, task: StartTaskRecord, atMs: number): Promise<void>;
  /** `vocabulary-stats.ts`'s `combinedMetrics`: what a conversation's LLM calls cost, read off its log (`DomainState.statsReader`). */
  combinedMetrics: StatsReader;
  /** `runtime-stop.ts`'s `stopRuntimeRuns`: the runs of conversations whose sandbox's runtime stopped, stopped where they are. */
  stopRuntimeRuns(state: DomainState, conversations: readonly ConversationRecord[]): Promise<void>;
}

/** Every usage's totals of a conversation's LLM calls as its log has them, or null before the first call (`vocabulary-stats.ts`). */
export type StatsReader = (state: DomainState, conversation: ConversationRecord) => MetricsSnapshot | null;

/** Options of the domain. */
export interface ServiceOptions {
  /** How long time-driven steps take. */
  timings: Timings;
  /** `created_by_user_id` of what the caller creates. */
  userId: string | null;
  /** Where every sandbox's agent server answers, or `null`: each sandbox names its own port. */
  agentUrl?: string | null;
  /** The agent-server version whose event names the agent speaks (default: the newest). */
  agentServerVersion?: string;
  /** The agent's scripts (the built-in one when none matches). */
  agentScripts?: readonly AgentScript[];
  /** Whether every conversation streams its agent's messages (`StreamingDeltaEvent` frames first). */
  streaming?: boolean;
  /** Streamed tokens per second, on the fake's clock (default 50). */
  streamingTokensPerSecond?: number;
}

/** A sandbox's status at an instant and since when it has been in it. */
export interface SandboxState {
  status: StoredSandboxStatus;
  sinceMs: number;
}

/** Whether a conversation's agent run has steps still to publish. */
const hasStepsToPublish = (conversation: ConversationRecord) =>
  conversation.agent_steps_done !== undefined &&
  conversation.agent_status === undefined &&
  conversation.agent_steps_done < runStepsTotal(conversation);

/** The pending tasks and active runs before a step (`DomainState.saveIndexes`). */
export interface SavedIndexes {
  /** The pending start tasks' ids. */
  tasks: string[];
  /** The conversations whose agent run had steps to publish. */
  runs: string[];
  /** Each conversation's held events and steps (copies). */
  timelines: [string, TimelineEntry<DomainState>[]][];
}

/** The state the areas operate on. */
export class DomainState {
  /** The records. */
  readonly store: Store;
  /** Where time comes from. */
  readonly clock: Clock;
  /** Every generated id and key. */
  readonly random: RandomSource;
  /** Timings and the user id. */
  readonly options: ServiceOptions;
  /**
   * Start tasks that are not READY or ERROR yet, with when each next needs a look (epoch ms), or
   * `null` while it waits for its sandbox to change (a paused one).
   */
  readonly pendingTasks = new Map<string, number | null>();
  /** The pending tasks of each sandbox. */
  readonly tasksOfSandbox = new Map<string, Set<string>>();
  /** The earliest time a pending task needs a look. */
  nextTaskDueMs = Number.NEGATIVE_INFINITY;
  /** Conversations with events held for later (a replay, a message being streamed): `timeline.ts`. */
  readonly timelines = new Map<string, TimelineEntry<DomainState>[]>();
  /** Conversations whose agent has run steps still to publish. */
  readonly activeRuns = new Set<string>();
  /**
   * How a conversation's LLM calls are read off its log (`vocabulary-stats.ts`), there once the store
   * holds an event: set by what stores one (`store-event.ts`) or, for a state loaded with events, by
   * the runner before its first step (with the agent). A page's first chunks carry no stats reading.
   */
  statsReader: StatsReader | null = null;
  /** Loads the scripted agent (`AgentRuntime`); the runner gives every state it runs its own loader. */
  loadAgent: () => Promise<AgentRuntime> = () => Promise.reject(new Error('fakehands: this state has no runner to load the agent'));
  /** The last agent port handed out (at load: the highest in use), so a new sandbox never shares a live one's port. */
  #lastAgentPort: number | null = null;
  /** Whether the ports handed out have wrapped past the last one: from then on, each is checked against those in use. */
  #portsWrapped = false;
  /** The last timestamp handed out, in epoch microseconds. */
  #lastStampMicros = 0;

  /** A state over a loaded store. */
  constructor(store: Store, clock: Clock, seed: number, options: ServiceOptions) {
    this.store = store;
    this.clock = clock;
    this.random = new RandomSource(seed);
    this.options = options;
    for (const sandbox of store.sandboxes.all()) {
      if (this.#lastAgentPort === null || sandbox.agent_port > this.#lastAgentPort) this.#lastAgentPort = sandbox.agent_port;
    }
    this.findPendingTasks();
    this.findActiveRuns();
  }

  /** Finds the start tasks that are not READY or ERROR yet (at load, and after a rolled-back operation). */
  findPendingTasks(): void {
    this.pendingTasks.clear();
    this.tasksOfSandbox.clear();
    for (const task of this.store.startTasks.all()) {
      if (!FINAL_TASK_STATUSES.has(task.status)) this.trackTask(task.id, task.sandbox_id, Number.NEGATIVE_INFINITY);
    }
  }

  /** Finds the conversations whose agent run has steps still to publish (at load, and after a rolled-back operation). */
  findActiveRuns(): void {
    this.activeRuns.clear();
    for (const conversation of this.store.conversations.all()) {
      if (hasStepsToPublish(conversation)) this.activeRuns.add(conversation.id);
    }
  }

  /**
   * The pending tasks, active runs and timelines before a step, so that a rolled-back step finds
   * them again among these (`restoreIndexes`) rather than by walking every task and conversation: a
   * refused create on a store of 170,000 conversations walked them all, ~20 ms a request. `null`
   * when nothing is pending.
   */
  saveIndexes(): SavedIndexes | null {
    if (this.pendingTasks.size === 0 && this.activeRuns.size === 0 && this.timelines.size === 0) return null;
    const timelines: [string, TimelineEntry<DomainState>[]][] = [];
    // An entry is copied: a streamed message's entries are moved in time and marked as they are expanded.
    for (const [id, entries] of this.timelines) timelines.push([id, entries.map((entry) => ({ ...entry }))]);
    return { tasks: [...this.pendingTasks.keys()], runs: [...this.activeRuns], timelines };
  }

  /**
   * After a rolled-back step (the store as it was before it): what `findPendingTasks` and
   * `findActiveRuns` find, looking only at the tasks and conversations `saveIndexes` kept, and the
   * timelines as they were (a held event taken off one and not stored is held again).
   */
  restoreIndexes(saved: SavedIndexes | null): void {
    this.pendingTasks.clear();
    this.tasksOfSandbox.clear();
    this.activeRuns.clear();
    this.timelines.clear();
    if (saved === null) return;
    for (const [id, entries] of saved.timelines) this.timelines.set(id, entries);
    for (const id of saved.tasks) {
      const task = this.store.startTasks.get(id);
      if (task && !FINAL_TASK_STATUSES.has(task.status)) this.trackTask(task.id, task.sandbox_id, Number.NEGATIVE_INFINITY);
    }
    for (const id of saved.runs) {
      const conversation = this.store.conversations.get(id);
      if (conversation && hasStepsToPublish(conversation)) this.activeRuns.add(id);
    }
  }

  /** Notes that a pending task needs a look at `dueMs` (or when its sandbox changes, for `null`). */
  trackTask(id: string, sandboxId: string | null, dueMs: number | null): void {
    this.pendingTasks.set(id, dueMs);
    if (dueMs !== null && dueMs < this.nextTaskDueMs) this.nextTaskDueMs = dueMs;
    if (sandboxId === null) return;
    let tasks = this.tasksOfSandbox.get(sandboxId);
    if (!tasks) this.tasksOfSandbox.set(sandboxId, (tasks = new Set()));
    tasks.add(id);
  }

  /** Forgets a task that reached READY or ERROR. */
  untrackTask(id: string, sandboxId: string | null): void {
    this.pendingTasks.delete(id);
    if (sandboxId !== null) this.tasksOfSandbox.get(sandboxId)?.delete(id);
  }

  /**
   * An id from `draw` that `taken` does not hold yet: a state reloaded from a file keeps the ids
   * the seeded source hands out again, so a drawn id may already be in use.
   */
  unusedId(draw: () => string, taken: (id: string) => boolean): string {
    let id = draw();
    while (taken(id)) id = draw();
    return id;
  }

  /** A new sandbox id, not in use. */
  newSandboxId(): string {
    return this.unusedId(
      () => this.random.sandboxId(),
      (id) => this.store.sandboxes.get(id) !== undefined,
    );
  }

  /** A new conversation id (hyphenated UUID), not in use. */
  newConversationId(): string {
    return this.unusedId(
      () => this.random.uuid(),
      (id) => this.store.conversations.get(id) !== undefined,
    );
  }

  /** A new start task id, not in use. */
  newStartTaskId(): string {
    return this.unusedId(
      () => this.random.uuid(),
      (id) => this.store.startTasks.get(id) !== undefined,
    );
  }

  /**
   * The agent port of a new sandbox: the pair after the last one handed out (or the highest in use
   * when the state was loaded, so a reload after a delete never hands out a live sandbox's port).
   */
  nextAgentPort(): number {
    // With a sandbox on every port, ports must be shared: the next one, without a search.
    if (this.store.sandboxes.size >= AGENT_PORT_COUNT) return (this.#lastAgentPort = agentPortAfter(this.#lastAgentPort));
    for (let tries = 0; tries < AGENT_PORT_COUNT; tries++) {
      const port = agentPortAfter(this.#lastAgentPort);
      if (this.#lastAgentPort !== null && port < this.#lastAgentPort) this.#portsWrapped = true;
      this.#lastAgentPort = port;
      if (!this.#portsWrapped || this.store.sandboxes.countOf(port) === 0) return port;
    }
    return agentPortAfter(this.#lastAgentPort);
  }

  /**
   * A timestamp for `ms` with seeded microseconds, always after the previous one handed out, so
   * records created in the same millisecond keep their order and are appended to the orderings.
   */
  stamp(ms = this.clock.now()): string {
    // Whole milliseconds first: a step due at a fraction of a run (1/6 of 10 s) is stamped at the
    // millisecond it falls in, never at a fractional microsecond (issue 29, finding 3).
    const micros = Math.max(Math.floor(ms) * 1000 + this.random.int(0, 999), this.#lastStampMicros + 1);
    this.#lastStampMicros = micros;
    return formatDateTime(Math.floor(micros / 1000), micros % 1000);
  }

  /**
   * Now, for the time-driven steps: the clock's time, or the millisecond of the last stamp handed out
   * when that is later. Stamps go up by at least a microsecond each, so more of them than fit in the
   * clock's millisecond (hundreds of creates in a millisecond, a clock that stands still) run into
   * the next: a start task stamped there was not due "now", and with `timings: 'instant'` and a
   * manual clock 394 of 400 tasks made in one millisecond never became READY.
   */
  now(): number {
    const clock = this.clock.now();
    const stamped = Math.floor(this.#lastStampMicros / 1000);
    return stamped > clock ? stamped : clock;
  }

  /** Times already read (a sandbox's status is settled on every request its key makes), at most `SINCE_CACHE_SIZE`. */
  readonly #since = new Map<string, number>();

  /** When a record entered its current status, in epoch ms. */
  sinceMs(record: { status_changed_at?: string | undefined; created_at: string }): number {
    const at = record.status_changed_at ?? record.created_at;
    let ms = this.#since.get(at);
    if (ms === undefined) {
      if (this.#since.size >= SINCE_CACHE_SIZE) this.#since.clear();
      this.#since.set(at, (ms = parseDateTime(at)));
    }
    return ms;
  }

  /** Where a sandbox's time-driven steps have taken it by now, and since when. */
  sandboxState(record: SandboxRecord): SandboxState {
    return settleSandboxStatus(record.status, this.sinceMs(record), this.now(), this.options.timings);
  }

  /** A sandbox as it is at this instant (its stored status moved on by the time-driven steps). */
  settledNow(record: SandboxRecord): SandboxRecord {
    const { status } = this.sandboxState(record);
    return status === record.status ? record : { ...record, status };
  }
}
