/**
 * The front of the domain: one `FakeService` per fake, for its whole life (a reset swaps the state
 * behind it, so a reference kept before a reset stays valid). It owns the two rules every
 * operation follows: one at a time (a mutex), and time-driven steps settled first. It collects the
 * state changes an operation made and hands them to subscribers before the operation resolves.
 * The operations themselves live in one module per area.
 */
import type { AppConversation, AppConversationStartRequest, AppConversationStartTask } from '../schemas/app-conversation.js';
import type { ProviderType, SandboxStatus, StartTaskSortOrder, Success } from '../schemas/common.js';
import type { AppConversationUpdateRequest, AppSendMessageRequest, SecretNamesResponse } from '../schemas/conversation-ops.js';
import { formatDateTime } from '../schemas/datetime.js';
import type { ConversationInfo, ConversationResponse, InitSessionRequest, POSTProviderModel, ProviderToken } from '../schemas/legacy.js';
import type { Fixture } from '../schemas/records.js';
import type { SandboxInfo } from '../schemas/sandbox.js';
import type { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import * as appConversations from './app-conversations.js';
import * as ops from './conversation-ops.js';
import type { ChangeListener, ChangedEntity, StateChange } from './events.js';
import { fixtureOf, recordOf } from './fixtures.js';
import * as gitProviders from './git-providers.js';
import * as legacy from './legacy-conversations.js';
import { Mutex } from './mutex.js';
import type { Page, PageRequest } from './paging.js';
import * as sandboxes from './sandboxes.js';
import * as startTasks from './start-tasks.js';
import type { DomainState } from './state.js';
import { sandboxView } from './views.js';

export type { Page, PageRequest } from './paging.js';
export type { AppConversationFilters } from './app-conversations.js';
export type { StartTaskFilters } from './start-tasks.js';

const SUCCESS: Success = { success: true };

/** The operations of the Conversation and Sandbox Service, for arranging state in tests. */
export class FakeService {
  #state: DomainState;
  readonly #mutex = new Mutex();
  readonly #listeners: ChangeListener[] = [];
  #changes: StateChange[] = [];
  /** The publication in progress: publications run one after another, in order. */
  #publishing: Promise<void> = Promise.resolve();

  /** @internal Created by the fake over its first loaded state. */
  constructor(state: DomainState) {
    this.#state = state;
    this.#watch(state);
  }

  #watch(state: DomainState): void {
    state.store.onChange = (change) => {
      if (this.#listeners.length > 0) this.#changes.push(change);
    };
  }

  /**
   * Subscribes to state changes: `listener` gets each operation's changes before that operation
   * resolves (so a request is answered only after it). Returns a function that unsubscribes.
   */
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

  /** @internal Replaces the state behind the service (a reset). */
  replaceState(state: DomainState): Promise<void> {
    return this.#operation(() => {
      this.#state.store.onChange = () => undefined;
      this.#state = state;
      this.#watch(state);
      this.noteChange({ entity: 'state', action: 'replaced' });
    }, { settle: false });
  }

  /** Runs a read or write as one step, after moving every time-driven state machine to now. */
  async #operation<T>(body: (state: DomainState) => Promise<T> | T, { settle = true } = {}): Promise<T> {
    try {
      return await this.#mutex.run(async () => {
        if (settle) await startTasks.settleStartTasks(this.#state);
        return body(this.#state);
      });
    } finally {
      await this.#publish();
    }
  }

  /**
   * Hands the changes collected so far to the listeners. An operation resolves only once every
   * publication before it has finished too, so none is answered before its changes are handled
   * (even when an earlier operation's publication carried them).
   */
  #publish(): Promise<void> {
    const changes = this.#changes;
    this.#changes = [];
    const run = this.#publishing.then(async () => {
      if (changes.length === 0) return;
      const view = { snapshot: () => this.#snapshotNow(), record: (entity: ChangedEntity, id: string) => recordOf(this.#state, entity, id) };
      for (const listener of [...this.#listeners]) await listener(changes, view);
    });
    this.#publishing = run.catch(() => undefined);
    return run;
  }

  /** The state as it is at this instant, as a fixture (synchronous, so always consistent). */
  #snapshotNow(): Fixture {
    const state = this.#state;
    return fixtureOf(state.store, (sandbox) => {
      const settled = state.sandboxState(sandbox);
      return { ...sandbox, status: settled.status, status_changed_at: formatDateTime(settled.sinceMs) };
    });
  }

  /** Brings every time-driven step up to the clock's now (snapshots call this). */
  settle(): Promise<void> {
    return this.#operation(() => undefined);
  }

  /**
   * Everything the service holds, as a fixture: time-driven steps settled, tokens redacted.
   * @example
   * const fixture = await service.snapshot()
   */
  snapshot(): Promise<Fixture> {
    return this.#operation(() => this.#snapshotNow());
  }

  /** `GET /api/v1/sandbox-specs/search`: specs, newest first. */
  searchSandboxSpecs(page: PageRequest): Promise<Page<SandboxSpecInfo>> {
    return this.#operation((state) => sandboxes.searchSandboxSpecs(state, page));
  }

  /** `GET /api/v1/sandbox-specs?id=`: specs aligned with `ids`, null for missing ones. */
  getSandboxSpecs(ids: string[]): Promise<(SandboxSpecInfo | null)[]> {
    return this.#operation((state) => sandboxes.getSandboxSpecs(state, ids));
  }

  /** `GET /api/v1/sandboxes/search`: sandboxes, newest first. */
  searchSandboxes(page: PageRequest): Promise<Page<SandboxInfo>> {
    return this.#operation((state) => sandboxes.searchSandboxes(state, page));
  }

  /** `GET /api/v1/sandboxes?id=`: sandboxes aligned with `ids`, null for missing ones. */
  getSandboxes(ids: string[]): Promise<(SandboxInfo | null)[]> {
    return this.#operation((state) => sandboxes.getSandboxes(state, ids));
  }

  /** `POST /api/v1/sandboxes`: starts a sandbox from a spec (the default one when omitted); always answers STARTING, as a container is created, then starts. */
  startSandbox(sandboxSpecId: string | null): Promise<SandboxInfo> {
    return this.#operation(async (state) => sandboxView(state, await sandboxes.createSandbox(state, sandboxSpecId), { settle: false }));
  }

  /** `POST /api/v1/sandboxes/{id}/pause`: STARTING/RUNNING → PAUSED; a PAUSED sandbox stays so. */
  pauseSandbox(id: string): Promise<Success> {
    return this.#operation(async (state) => (await sandboxes.transitionSandbox(state, id, 'pause'), SUCCESS));
  }

  /** `POST /api/v1/sandboxes/{id}/resume`: PAUSED → STARTING → RUNNING; a running sandbox stays so. */
  resumeSandbox(id: string): Promise<Success> {
    return this.#operation(async (state) => (await sandboxes.transitionSandbox(state, id, 'resume'), SUCCESS));
  }

  /** `DELETE /api/v1/sandboxes/{id}`: the sandbox becomes MISSING (gone from search, null in batch). */
  deleteSandbox(id: string): Promise<Success> {
    return this.#operation((state) => (sandboxes.deleteSandbox(state, id), SUCCESS));
  }

  /** Fault injection: the sandbox enters ERROR (as when its container dies), with the runtime's reason as its `status_detail`. */
  failSandbox(id: string, detail = sandboxes.DEFAULT_FAILURE_DETAIL): Promise<SandboxInfo> {
    return this.#operation(async (state) => sandboxView(state, await sandboxes.transitionSandbox(state, id, 'fail', detail)));
  }

  /** `GET /api/v1/app-conversations/search`. */
  searchAppConversations(filters: appConversations.AppConversationFilters, page: PageRequest): Promise<Page<AppConversation>> {
    return this.#operation((state) => appConversations.searchAppConversations(state, filters, page));
  }

  /** `GET /api/v1/app-conversations/count`: how many V1 conversations match the filters. */
  countAppConversations(filters: appConversations.AppConversationFilters): Promise<number> {
    return this.#operation((state) => appConversations.countAppConversations(state, filters));
  }

  /** `GET /api/v1/app-conversations?ids=`: V1 conversations aligned with `ids`, null for missing ones. */
  getAppConversations(ids: string[]): Promise<(AppConversation | null)[]> {
    return this.#operation((state) => appConversations.getAppConversations(state, ids));
  }

  /** `POST /api/v1/app-conversations`: answers at once with a WORKING start task, which then steps on with time. */
  startAppConversation(request: AppConversationStartRequest): Promise<AppConversationStartTask> {
    return this.#operation((state) => startTasks.startAppConversation(state, request));
  }

  /** `GET /api/v1/app-conversations/start-tasks?ids=`: tasks aligned with `ids`, null for missing ones. */
  getStartTasks(ids: string[]): Promise<(AppConversationStartTask | null)[]> {
    return this.#operation((state) => startTasks.getStartTasks(state, ids));
  }

  /** A start task as it was at each step so far, oldest first; `null` when unknown. */
  startTaskSteps(id: string): Promise<AppConversationStartTask[] | null> {
    return this.#operation((state) => startTasks.startTaskSteps(state, id));
  }

  /** `GET /api/v1/app-conversations/start-tasks/search`. */
  searchStartTasks(filters: startTasks.StartTaskFilters & { sort_order?: StartTaskSortOrder }, page: PageRequest): Promise<Page<AppConversationStartTask>> {
    return this.#operation((state) => startTasks.searchStartTasks(state, filters, page));
  }

  /** `GET /api/v1/app-conversations/start-tasks/count`. */
  countStartTasks(filters: startTasks.StartTaskFilters): Promise<number> {
    return this.#operation((state) => startTasks.countStartTasks(state, filters));
  }

  /** `POST /api/conversations`: creates a V0 conversation with its own sandbox, or joins an existing one. */
  createConversation(request: InitSessionRequest): Promise<ConversationResponse> {
    return this.#operation((state) => legacy.createConversation(state, request));
  }

  /** `GET /api/conversations`: conversations of both versions, newest first, filtered. */
  listConversations(query: legacy.LegacyListQuery): Promise<{ results: ConversationInfo[]; next_page_id: string | null }> {
    return this.#operation((state) => legacy.listConversations(state, query));
  }

  /** `GET /api/conversations/{id}`: `null` for an unknown id. */
  getConversation(id: string): Promise<ConversationInfo | null> {
    return this.#operation((state) => legacy.getConversation(state, id));
  }

  /** `PATCH /api/conversations/{id}`: sets the title. */
  updateConversationTitle(id: string, title: string): Promise<true> {
    return this.#operation((state) => legacy.updateConversationTitle(state, id, title));
  }

  /** `DELETE /api/conversations/{id}`: removes the conversation, and its sandbox when nothing else uses it; `false` for an unknown id. */
  deleteConversation(id: string): Promise<boolean> {
    return this.#operation((state) => legacy.deleteConversation(state, id));
  }

  /** `PATCH /api/v1/app-conversations/{id}`: `null` for an unknown conversation. */
  updateAppConversation(id: string, patch: AppConversationUpdateRequest): Promise<AppConversation | null> {
    return this.#operation((state) => ops.updateAppConversation(state, id, patch));
  }

  /** `DELETE /api/v1/app-conversations/{id}`: `false` for an unknown conversation. */
  deleteAppConversation(id: string): Promise<boolean> {
    return this.#operation((state) => ops.deleteAppConversation(state, id));
  }

  /** `POST /api/v1/app-conversations/{id}/send-message`: the sandbox's status, or why the message was refused. */
  sendMessage(id: string, request: AppSendMessageRequest): Promise<{ sandbox_status: SandboxStatus } | ops.SendRefusal> {
    return this.#operation((state) => ops.sendMessage(state, id, request));
  }

  /**
   * Runs `body` with the conversation's agent-server context when it is ready, or answers why not
   * (`paused`, or `unreachable` with the real message).
   */
  withAgentServer<T>(id: string, body: (context: ops.ReadyContext, change: { switchModel(model: string): Promise<void> }) => Promise<T> | T):
  Promise<{ kind: 'ok'; value: T } | Exclude<ops.AgentServerContext, { kind: 'ready' }>> {
    return this.#operation(async (state) => {
      const context = ops.agentServerContext(state, id);
      if (context.kind !== 'ready') return context;
      return { kind: 'ok' as const, value: await body(context, { switchModel: (model) => ops.switchModel(state, context, model) }) };
    });
  }

  /** `GET /api/v1/app-conversations/{id}/file`: the file's text, `""` when it is not there. */
  readFile(id: string, filePath: string): Promise<string> {
    return this.#operation((state) => ops.readFile(state, id, filePath));
  }

  /** `GET /api/v1/app-conversations/{id}/download`: a ZIP of the conversation and its workspace; `null` when unknown. */
  exportConversation(id: string): Promise<Uint8Array | null> {
    return this.#operation((state) => ops.exportConversation(state, id));
  }

  /** The secret names a sandbox may look up, for the holder of its session key. */
  sandboxSecretNames(sandboxId: string, key: string | null): Promise<SecretNamesResponse | ops.SandboxKeyRefusal> {
    return this.#operation((state) => {
      const sandbox = ops.sandboxForKey(state, sandboxId, key);
      return 'kind' in sandbox ? sandbox : ops.secretNames(state, sandbox);
    });
  }

  /** `POST /api/add-git-providers`: merges provider tokens and stores the MCP config. */
  storeGitProviders(request: POSTProviderModel): Promise<gitProviders.GitProvidersStored> {
    return this.#operation((state) => gitProviders.storeGitProviders(state, request));
  }

  /** The stored provider tokens, unredacted: for in-process assertions only, never served over HTTP. */
  providerTokens(): Partial<Record<ProviderType, ProviderToken>> {
    return this.#state.store.providerTokens;
  }
}
