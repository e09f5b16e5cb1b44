/**
 * Everything the fake holds: its tables (`Table`: records with an id index and orderings), the
 * user's provider tokens and MCP configuration (`user-records.ts`), the links between conversations, and the caller's secrets. Every change is
 * announced to `onChange` (see `events.ts`).
 */
import { SandboxSpecInfo } from '../../schemas/sandbox-spec.js';
import { AgentEventRecord, ConversationRecord, SandboxRecord, StartTaskRecord } from '../../schemas/records.js';
import type { MCPConfig } from '../../schemas/mcp.js';
import type { GitWorld } from '../../schemas/user-git.js';
import type { CustomSecretRecord } from '../../schemas/user-secrets.js';
import type { UserSettingsRecord } from '../../schemas/user-settings.js';
import type { AgentWorldRecord } from '../../schemas/agent-world.js';
import type { ChangeSink } from './events.js';
import { ShellLog } from './shell-log.js';
import { StoreBudget, Table, type UndoSink } from './table.js';
import type { ProviderType } from '../../schemas/common.js';
import type { ProviderToken } from '../../schemas/legacy.js';

const ignore: ChangeSink = () => undefined;

/** Provider tokens, keyed by provider. */
export type ProviderTokens = Partial<Record<ProviderType, ProviderToken>>;

/** What the store reads of its @msw/data collections (`user-records.ts`, made on the first write). */
export interface UserRecordsView {
  /** The stored tokens, keyed by provider. */
  providerTokens(): ProviderTokens;
  /** The stored MCP configuration, or `null`. */
  mcpConfig(): MCPConfig | null;
}

/** Everything the fake holds: tables with indexes, plus the caller's secrets. */
export class Store {
  /** Where changes are announced; the service subscribes once the store is loaded. */
  onChange: ChangeSink = ignore;
  readonly #sink = () => this.onChange;
  /** Whether a transaction is open, and its undo steps, newest last (made on the first change: most operations change nothing). */
  #open = false;
  #undo: (() => void | Promise<void>)[] | null = null;
  readonly #record: UndoSink = (undo) => {
    if (this.#open) (this.#undo ??= []).push(undo);
  };
  /** What the store may hold; a change past it is refused (507). */
  readonly budget: StoreBudget;
  /** Sandbox specs; the first one stored is the default. */
  readonly sandboxSpecs: Table<typeof SandboxSpecInfo>;
  /** Sandboxes (MISSING ones are not stored). */
  readonly sandboxes: Table<typeof SandboxRecord>;
  /** Conversations of both versions, with orderings for the V1 lists. */
  readonly conversations: Table<typeof ConversationRecord, 'v0' | 'v1' | 'v1TopLevel'>;
  /** Start tasks of app conversations. */
  readonly startTasks: Table<typeof StartTaskRecord>;
  /** The events of every conversation's log. */
  readonly events: Table<typeof AgentEventRecord>;
  /** The agent host's shell: its bash events and the outputs not yet due (bounded by `agent-world/bash.ts`, not by the budget). */
  readonly shell: ShellLog;
  /** Each conversation's event ids, oldest first. */
  readonly #eventsOf = new Map<string, string[]>();
  /** Where each event stands in its conversation's list (a page starts at one by its id). */
  readonly #eventPosition = new Map<string, number>();
  /**
   * How many times an event log lost or changed events it held (an append undone, a log removed or
   * put back): a log is otherwise only appended to, so what a reader wrote of its first events stays
   * true while this count does (the agent host's event pages, `event-pages.ts`).
   */
  #eventLogRewrites = 0;

  /** An empty store of at most `budget`. */
  constructor(budget: StoreBudget = new StoreBudget()) {
    this.budget = budget;
    this.sandboxSpecs = new Table('sandbox_spec', SandboxSpecInfo, {}, this.#sink, budget, null, this.#record);
    this.sandboxes = new Table('sandbox', SandboxRecord, {}, () => this.#sandboxSink, budget, 'agent_port', this.#record);
    this.conversations = new Table(
      'conversation',
      ConversationRecord,
      {
        v0: (c) => c.version === 'V0',
        // The app server lists what it started: not what a client created on an agent host.
        v1: (c) => c.version === 'V1' && c.agent_host?.created_here !== true,
        v1TopLevel: (c) => c.version === 'V1' && c.parent_conversation_id === null && c.agent_host?.created_here !== true,
      },
      this.#sink,
      budget,
      null,
      this.#record,
    );
    this.startTasks = new Table('start_task', StartTaskRecord, {}, this.#sink, budget, null, this.#record);
    this.events = new Table('event', AgentEventRecord, {}, this.#sink, budget, null, this.#record);
    this.shell = new ShellLog(this.#record, this.#sink);
  }

  /** Sandboxes changed since the start tasks last looked (the tasks waiting for them need a look). */
  readonly changedSandboxes = new Set<string>();
  readonly #sandboxSink: ChangeSink = (change) => {
    if (change.id !== undefined) this.changedSandboxes.add(change.id);
    this.onChange(change);
  };

  /** Opens a transaction: every change from now on can be undone by `rollback()`. */
  begin(): void {
    this.#open = true;
    this.#undo = null;
  }

  /** Keeps the changes of the open transaction and closes it. */
  commit(): void {
    this.#open = false;
    this.#undo = null;
  }

  /** A point of the open transaction that `rollbackTo` can go back to (the number of undo steps so far). */
  savepoint(): number {
    return this.#undo?.length ?? 0;
  }

  /** Undoes the open transaction's changes made since `mark` (`savepoint`), newest first; the transaction stays open. */
  async rollbackTo(mark: number): Promise<void> {
    const steps = this.#undo?.splice(mark) ?? [];
    for (const step of steps.reverse()) await step();
  }

  /** Undoes every change of the open transaction, newest first, and closes it: the store is as it was at `begin()`. */
  async rollback(): Promise<void> {
    const steps = this.#undo ?? [];
    this.#open = false;
    this.#undo = null;
    for (const step of steps.reverse()) await step();
  }

  /** Appends an event to a conversation's log (validated by its schema). */
  async appendEvent(record: AgentEventRecord): Promise<AgentEventRecord> {
    return this.#logEvent(await this.events.insert(record));
  }

  /**
   * Appends an event the domain built itself (`storeEvent`: a drawn id, a time from `state.stamp()`,
   * the event a fresh object): stored as it is, without a second parse (`Table.insertValidated`).
   */
  appendBuiltEvent(record: AgentEventRecord, size?: number): AgentEventRecord {
    return this.#logEvent(this.events.insertValidated(record, size));
  }

  /** Puts a stored event at the end of its conversation's list. */
  #logEvent(stored: AgentEventRecord): AgentEventRecord {
    let ids = this.#eventsOf.get(stored.conversation_id);
    if (!ids) this.#eventsOf.set(stored.conversation_id, (ids = []));
    this.#eventPosition.set(stored.id, ids.push(stored.id) - 1);
    this.#record(() => {
      ids.pop();
      this.#eventPosition.delete(stored.id);
      this.#eventLogRewrites++;
    });
    return stored;
  }

  /** Messages queued for conversations still starting, by conversation id, oldest first. */
  readonly #pending = new Map<string, { id: string; text: string }[]>();

  /** Queues a message for a conversation that is still starting; returns its 1-based position. */
  queueMessage(conversationId: string, message: { id: string; text: string }): number {
    let queue = this.#pending.get(conversationId);
    if (!queue) this.#pending.set(conversationId, (queue = []));
    queue.push(message);
    this.#record(() => {
      queue.pop();
    });
    return queue.length;
  }

  /** The messages queued for a conversation, taken out of the queue. */
  takeQueued(conversationId: string): { id: string; text: string }[] {
    const queue = this.#pending.get(conversationId) ?? [];
    this.#pending.delete(conversationId);
    if (queue.length > 0)
      this.#record(() => {
        this.#pending.set(conversationId, queue);
      });
    return queue;
  }

  /** How many messages wait for a conversation. */
  queuedCount(conversationId: string): number {
    return this.#pending.get(conversationId)?.length ?? 0;
  }

  /** Removes a conversation's whole event log (the conversation is gone). */
  removeEventsOf(conversationId: string): void {
    const ids = this.#eventsOf.get(conversationId);
    if (!ids) return;
    for (const id of ids) {
      this.events.remove(id);
      this.#eventPosition.delete(id);
    }
    this.#eventsOf.delete(conversationId);
    this.#eventLogRewrites++;
    this.#record(() => {
      this.#eventLogRewrites++;
      this.#eventsOf.set(conversationId, ids);
      ids.forEach((id, i) => this.#eventPosition.set(id, i));
    });
  }

  /** Where an event stands in its conversation's list, or `undefined`. */
  eventPosition(id: string): number | undefined {
    return this.#eventPosition.get(id);
  }

  /** How many times an event log lost or changed events it held (appends do not count). */
  get eventLogRewrites(): number {
    return this.#eventLogRewrites;
  }

  /** A conversation's event ids, oldest first (the live list: do not change it). */
  eventIdsOf(conversationId: string): readonly string[] {
    return this.#eventsOf.get(conversationId) ?? [];
  }

  /** Ids of the children of each conversation (`sub_conversation_ids`). */
  readonly childrenOf = new Map<string, string[]>();
  /**
   * Stored git provider tokens (secrets, never returned by any endpoint) and the user-level MCP
   * configuration: as a fixture loaded them, until the first write moves them into @msw/data
   * collections (`user-records.ts`, which only the operations that write them import).
   */
  #loadedTokens: ProviderTokens = {};
  #loadedMcpConfig: MCPConfig | null = null;
  /** The collections, once written (`user-records.ts`). */
  userRecords: UserRecordsView | null = null;
  /** Id of the default sandbox spec. */
  defaultSandboxSpecId: string | null = null;

  /** The stored provider tokens, keyed by provider. */
  get providerTokens(): ProviderTokens {
    return this.userRecords ? this.userRecords.providerTokens() : { ...this.#loadedTokens };
  }

  /** The stored MCP configuration, or `null`. */
  get mcpConfig(): MCPConfig | null {
    return this.userRecords ? this.userRecords.mcpConfig() : this.#loadedMcpConfig;
  }

  /** A fixture's provider tokens and MCP configuration, as loaded (before any operation: nothing to undo or announce). */
  loadUserRecords(tokens: ProviderTokens, mcpConfig: MCPConfig | null): void {
    this.#loadedTokens = { ...tokens };
    this.#loadedMcpConfig = mcpConfig;
  }

  /** Notes how to undo a change made outside the store's own methods (`user-records.ts`), with the open transaction. */
  recordUndo(undo: () => void | Promise<void>): void {
    this.#record(undo);
  }

  /** Counts a value replacing another against the store's byte budget (507 past it), undone with the transaction. */
  #swapBytes(previous: unknown, next: unknown): void {
    const before = previous === null ? 0 : JSON.stringify(previous).length;
    const after = next === null ? 0 : JSON.stringify(next).length;
    this.budget.claim(0, after);
    this.budget.release(0, before);
    this.#record(() => {
      this.budget.claim(0, before);
      this.budget.release(0, after);
    });
  }

  /** The user's settings; `null` until saved once. */
  #settings: UserSettingsRecord | null = null;

  /** The user's settings, or `null` before the first save. */
  get settings(): UserSettingsRecord | null {
    return this.#settings;
  }

  /** Replaces the user's settings (a change the state file keeps). */
  async setSettings(settings: UserSettingsRecord | null): Promise<void> {
    const previous = this.#settings;
    this.#swapBytes(previous, settings);
    this.#record(() => {
      this.#settings = previous;
    });
    this.#settings = settings;
    this.onChange({ entity: 'settings', action: 'replaced' });
  }

  /** The user's custom secrets, oldest first. */
  #customSecrets: CustomSecretRecord[] = [];

  /** The user's custom secrets, oldest first (do not change the list: use `setCustomSecrets`). */
  get customSecrets(): readonly CustomSecretRecord[] {
    return this.#customSecrets;
  }

  /** Replaces the user's custom secrets. */
  async setCustomSecrets(secrets: CustomSecretRecord[]): Promise<void> {
    const previous = this.#customSecrets;
    this.#swapBytes(previous, secrets);
    this.#record(() => {
      this.#customSecrets = previous;
    });
    this.#customSecrets = secrets;
    this.onChange({ entity: 'secrets', action: 'replaced' });
  }

  /** The agent host's host-wide state; `null` until first changed (a fresh host's). */
  #agentWorld: AgentWorldRecord | null = null;

  /** The agent host's host-wide state, or `null` while it is a fresh host's (never changed in place: `setAgentWorld` replaces it). */
  get agentWorld(): AgentWorldRecord | null {
    return this.#agentWorld;
  }

  /** Replaces the agent host's host-wide state (a change the state file keeps, undone with the operation's transaction). */
  setAgentWorld(world: AgentWorldRecord | null): void {
    const previous = this.#agentWorld;
    this.#swapBytes(previous, world);
    this.#record(() => {
      this.#agentWorld = previous;
    });
    this.#agentWorld = world;
    this.onChange({ entity: 'agent_world', action: 'replaced' });
  }

  /**
   * The git world behind the provider tokens (read only: set when the fixture loads); `null`: the
   * generated default world (`git-world.ts`, loaded with the routes that read it, never at start).
   */
  git: GitWorld | null = null;

  /** Links a conversation to its parent (`sub_conversation_ids`). */
  linkChild(parentId: string, childId: string): void {
    const children = this.childrenOf.get(parentId) ?? [];
    children.push(childId);
    this.childrenOf.set(parentId, children);
    this.#record(() => this.unlinkChild(parentId, childId));
  }

  /** Removes a conversation from its parent's children. */
  unlinkChild(parentId: string, childId: string): void {
    const siblings = this.childrenOf.get(parentId);
    if (!siblings) return;
    this.childrenOf.set(
      parentId,
      siblings.filter((c) => c !== childId),
    );
    this.#record(() => {
      this.childrenOf.set(parentId, siblings);
    });
  }
}
