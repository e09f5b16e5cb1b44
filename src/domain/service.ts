/**
 * The operations of the Conversation and Sandbox Service over the store and the clock.
 * Nothing here knows about HTTP: inputs are already validated, failures are domain errors.
 */
import type { AppConversation, AppConversationStartRequest, AppConversationStartTask } from '../schemas/app-conversation.js';
import type { AppConversationSortOrder, SandboxStatus, StartTaskSortOrder, Success } from '../schemas/common.js';
import { canonicalDateTime, formatDateTime, parseDateTime } from '../schemas/datetime.js';
import type {
  ConversationInfo, ConversationResponse, InitSessionRequest, POSTProviderModel, ProviderToken,
} from '../schemas/legacy.js';
import type { ConversationRecord, Fixture, SandboxRecord, StartTaskRecord, StoredSandboxStatus } from '../schemas/records.js';
import type { ExposedUrl, SandboxInfo } from '../schemas/sandbox.js';
import type { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import type { ProviderType } from '../schemas/common.js';
import type { Clock } from './clock.js';
import { ConflictError, NotFoundError } from './errors.js';
import { toHex, toHyphenatedUuid, type RandomSource } from './ids.js';
import {
  CONVERSATION_STATUS_OF_SANDBOX, FINAL_TASK_STATUSES, SANDBOX_TRANSITIONS,
  nextTaskStep, settleSandboxStatus, type SandboxAction, type Timings,
} from './lifecycle.js';
import { fixtureOf } from './fixtures.js';
import { Mutex } from './mutex.js';
import type { Store } from './store.js';
import type { Ordering } from './table.js';

/** First port handed to a sandbox's agent server; each sandbox gets the next pair. */
const FIRST_AGENT_PORT = 30_000;
/** Ports handed out cycle through this many, staying below 65536. */
const AGENT_PORT_SPAN = 30_000;

/** The agent server port of the `index`-th sandbox (its VSCODE port is the next one). */
export function agentPortFor(index: number): number {
  return FIRST_AGENT_PORT + ((2 * index) % AGENT_PORT_SPAN);
}
/** Title prefix of a conversation created without a title, followed by 5 characters of its id. */
const DEFAULT_TITLE_PREFIX = 'Conversation ';
export { REDACTED } from './redact.js';

/** A page of results, as every search endpoint answers. */
export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

/** Where a page starts and how long it is. */
export interface PageRequest {
  /** Offset of the first item (the decoded `page_id`). */
  offset: number;
  /** Items per page. */
  limit: number;
}

/** Filters of the app conversation search and count. */
export interface AppConversationFilters {
  title__contains?: string | null;
  created_at__gte?: string | null;
  created_at__lt?: string | null;
  updated_at__gte?: string | null;
  updated_at__lt?: string | null;
  include_sub_conversations?: boolean;
}

/** Filters of the start task search and count. */
export interface StartTaskFilters {
  conversation_id__eq?: string | null;
  created_at__gte?: string | null;
}

/** Options of the service. */
export interface ServiceOptions {
  /** How long time-driven steps take. */
  timings: Timings;
  /** `created_by_user_id` of what the caller creates. */
  userId: string | null;
}

/** A view of the ids in an ordering: the page asked for and whether more follow. */
interface IdPage {
  ids: string[];
  more: boolean;
}

/** The stateful core of the fake. Every public operation settles time-driven steps first. */
export class FakeService {
  readonly #store: Store;
  readonly #clock: Clock;
  readonly #random: RandomSource;
  readonly #options: ServiceOptions;
  readonly #mutex = new Mutex();
  /** Start tasks that are not READY or ERROR yet. */
  readonly #pendingTasks = new Set<string>();
  #sandboxCount = 0;
  /** The last timestamp handed out, in epoch microseconds. */
  #lastStampMicros = 0;

  /** Creates a service over `store`, reading time from `clock`. */
  constructor(store: Store, clock: Clock, random: RandomSource, options: ServiceOptions) {
    this.#store = store;
    this.#clock = clock;
    this.#random = random;
    this.#options = options;
    this.#sandboxCount = store.sandboxes.size;
    for (const task of store.startTasks.all()) {
      if (!FINAL_TASK_STATUSES.has(task.status)) this.#pendingTasks.add(task.id);
    }
  }

  // ---------------------------------------------------------------- time

  /**
   * A timestamp for `ms` with seeded microseconds, always after the previous one handed out, so
   * records created in the same millisecond keep their order and are appended to the orderings.
   */
  #stamp(ms = this.#clock.now()): string {
    const micros = Math.max(ms * 1000 + this.#random.int(0, 999), this.#lastStampMicros + 1);
    this.#lastStampMicros = micros;
    return formatDateTime(Math.floor(micros / 1000), micros % 1000);
  }

  /** Runs a read or write as one step, after moving every time-driven state machine to now. */
  #operation<T>(body: () => Promise<T> | T): Promise<T> {
    return this.#mutex.run(async () => {
      await this.#settle();
      return body();
    });
  }

  /**
   * Materialises the start tasks' steps up to now (a READY task creates its conversation).
   * Sandbox steps are never written: a sandbox's status is derived from its record when read.
   */
  async #settle(): Promise<void> {
    if (this.#pendingTasks.size === 0) return;
    const now = this.#clock.now();
    const tasks = [...this.#pendingTasks].map((id) => this.#store.startTasks.get(id)!);
    tasks.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
    for (const task of tasks) await this.#settleTask(task, now);
  }

  #sinceMs(record: { status_changed_at?: string | undefined; created_at: string }): number {
    return parseDateTime(record.status_changed_at ?? record.created_at);
  }

  async #settleTask(initial: StartTaskRecord, now: number): Promise<void> {
    let task = initial;
    for (;;) {
      const sandbox = task.sandbox_id ? this.#store.sandboxes.get(task.sandbox_id) : undefined;
      const step = nextTaskStep(task.status, this.#sinceMs(task), {
        hasRepository: Boolean(task.request.selected_repository),
        sandbox: sandbox ? this.#sandboxState(sandbox) : null,
      }, this.#options.timings);
      if (!step || step.atMs > now) break;
      const at = formatDateTime(step.atMs);
      task = await this.#store.startTasks.update(task.id, {
        status: step.status, status_changed_at: at, updated_at: at, detail: step.detail ?? null,
      });
      if (step.status === 'READY') await this.#createAppConversation(task, step.atMs);
    }
    if (FINAL_TASK_STATUSES.has(task.status)) this.#pendingTasks.delete(task.id);
  }

  async #createAppConversation(task: StartTaskRecord, atMs: number): Promise<void> {
    const request = task.request;
    const at = this.#stamp(atMs);
    const parent = request.parent_conversation_id ? toHyphenatedUuid(request.parent_conversation_id) : null;
    const record = await this.#store.conversations.insert({
      id: task.app_conversation_id,
      version: 'V1',
      sandbox_id: task.sandbox_id!,
      created_by_user_id: task.created_by_user_id,
      title: request.title ?? defaultTitle(task.app_conversation_id),
      selected_repository: request.selected_repository,
      selected_branch: request.selected_branch,
      git_provider: request.git_provider,
      trigger: request.trigger ?? 'gui',
      pr_number: request.pr_number,
      llm_model: request.llm_model,
      parent_conversation_id: parent,
      agent_type: request.agent_type,
      has_initial_message: Boolean(request.initial_message?.content.length),
      agent_started_at: at,
      created_at: at,
      updated_at: at,
    });
    this.#linkChild(record);
  }

  #linkChild(record: ConversationRecord): void {
    if (!record.parent_conversation_id) return;
    const children = this.#store.childrenOf.get(record.parent_conversation_id) ?? [];
    children.push(record.id);
    this.#store.childrenOf.set(record.parent_conversation_id, children);
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
    return this.#operation(() => fixtureOf(this.#store, (sandbox) => {
      const state = this.#sandboxState(sandbox);
      return { ...sandbox, status: state.status, status_changed_at: formatDateTime(state.sinceMs) };
    }));
  }

  // ---------------------------------------------------------------- sandbox specs

  /** `GET /api/v1/sandbox-specs/search`: specs, newest first. */
  searchSandboxSpecs(page: PageRequest): Promise<Page<SandboxSpecInfo>> {
    return this.#operation(() => {
      const table = this.#store.sandboxSpecs;
      const { ids, more } = pageIds(table.orderings.all, page);
      return toPage(ids.map((id) => table.get(id)!), page, more);
    });
  }

  /** `GET /api/v1/sandbox-specs?id=`: specs aligned with `ids`, null for missing ones. */
  getSandboxSpecs(ids: string[]): Promise<(SandboxSpecInfo | null)[]> {
    return this.#operation(() => ids.map((id) => this.#store.sandboxSpecs.get(id) ?? null));
  }

  // ---------------------------------------------------------------- sandboxes

  #sandboxView(stored: SandboxRecord): SandboxInfo {
    const record = this.#settledNow(stored);
    const running = record.status === 'RUNNING';
    return {
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_spec_id: record.sandbox_spec_id,
      status: record.status,
      session_api_key: running ? record.session_api_key : null,
      exposed_urls: running ? exposedUrls(record) : null,
      created_at: record.created_at,
    };
  }

  /** `GET /api/v1/sandboxes/search`: sandboxes, newest first. */
  searchSandboxes(page: PageRequest): Promise<Page<SandboxInfo>> {
    return this.#operation(() => {
      const table = this.#store.sandboxes;
      const { ids, more } = pageIds(table.orderings.all, page);
      return toPage(ids.map((id) => this.#sandboxView(table.get(id)!)), page, more);
    });
  }

  /** `GET /api/v1/sandboxes?id=`: sandboxes aligned with `ids`, null for missing ones. */
  getSandboxes(ids: string[]): Promise<(SandboxInfo | null)[]> {
    return this.#operation(() => ids.map((id) => {
      const record = this.#store.sandboxes.get(id);
      return record ? this.#sandboxView(record) : null;
    }));
  }

  async #createSandbox(specId: string | null): Promise<SandboxRecord> {
    const spec = specId ?? this.#store.defaultSandboxSpecId;
    if (!spec || !this.#store.sandboxSpecs.get(spec)) throw new NotFoundError(`Sandbox spec ${spec}`);
    const created = this.#stamp();
    const record = await this.#store.sandboxes.insert({
      id: this.#random.sandboxId(),
      created_by_user_id: this.#options.userId,
      sandbox_spec_id: spec,
      status: 'STARTING',
      status_changed_at: created,
      session_api_key: this.#random.sessionKey(),
      agent_port: agentPortFor(this.#sandboxCount),
      created_at: created,
    });
    this.#sandboxCount++;
    return record;
  }

  /** `POST /api/v1/sandboxes`: starts a sandbox from a spec (the default one when omitted). */
  startSandbox(sandboxSpecId: string | null): Promise<SandboxInfo> {
    return this.#operation(async () => this.#sandboxView(await this.#createSandbox(sandboxSpecId)));
  }

  /** Where a sandbox's time-driven steps have taken it by now, and since when. */
  #sandboxState(record: SandboxRecord): { status: StoredSandboxStatus; sinceMs: number } {
    return settleSandboxStatus(record.status, this.#sinceMs(record), this.#clock.now(), this.#options.timings);
  }

  /** A sandbox as it is at this instant (its stored status moved on by the time-driven steps). */
  #settledNow(record: SandboxRecord): SandboxRecord {
    const { status } = this.#sandboxState(record);
    return status === record.status ? record : { ...record, status };
  }

  async #transition(id: string, action: SandboxAction): Promise<SandboxRecord> {
    const stored = this.#store.sandboxes.get(id);
    if (!stored) throw new NotFoundError(`Sandbox ${id}`);
    const record = this.#settledNow(stored);
    const next = SANDBOX_TRANSITIONS[action][record.status];
    if (!next) throw new ConflictError(`Sandbox ${id} is ${record.status} and cannot be ${action === 'pause' ? 'paused' : action === 'resume' ? 'resumed' : 'failed'}`);
    if (next === record.status) return record;
    return this.#store.sandboxes.update(id, { status: next, status_changed_at: this.#stamp() });
  }

  /** `POST /api/v1/sandboxes/{id}/pause`: STARTING/RUNNING → PAUSED; a PAUSED sandbox stays so. */
  pauseSandbox(id: string): Promise<Success> {
    return this.#operation(async () => {
      await this.#transition(id, 'pause');
      return { success: true as const };
    });
  }

  /** `POST /api/v1/sandboxes/{id}/resume`: PAUSED → STARTING → RUNNING; a running sandbox stays so. */
  resumeSandbox(id: string): Promise<Success> {
    return this.#operation(async () => {
      await this.#transition(id, 'resume');
      return { success: true as const };
    });
  }

  /** `DELETE /api/v1/sandboxes/{id}`: the sandbox becomes MISSING (gone from search, null in batch). */
  deleteSandbox(id: string): Promise<Success> {
    return this.#operation(() => {
      if (!this.#store.sandboxes.remove(id)) throw new NotFoundError(`Sandbox ${id}`);
      return { success: true as const };
    });
  }

  /** Fault injection: the sandbox enters ERROR (as when its container dies). */
  failSandbox(id: string): Promise<SandboxInfo> {
    return this.#operation(async () => this.#sandboxView(await this.#transition(id, 'fail')));
  }

  // ---------------------------------------------------------------- conversations (shared views)

  #sandboxStatusOf(conversation: ConversationRecord): { status: SandboxStatus; sandbox: SandboxRecord | null } {
    const sandbox = this.#store.sandboxes.get(conversation.sandbox_id);
    if (!sandbox) return { status: 'MISSING', sandbox: null };
    const settled = this.#settledNow(sandbox);
    return { status: settled.status, sandbox: settled };
  }

  #appConversationView(record: ConversationRecord): AppConversation {
    const { status, sandbox } = this.#sandboxStatusOf(record);
    const running = status === 'RUNNING' && sandbox !== null;
    return {
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      sandbox_id: record.sandbox_id,
      selected_repository: record.selected_repository,
      selected_branch: record.selected_branch,
      git_provider: record.git_provider,
      title: record.title,
      trigger: record.trigger,
      pr_number: [...record.pr_number],
      llm_model: record.llm_model,
      metrics: null,
      parent_conversation_id: record.parent_conversation_id,
      sub_conversation_ids: [...(this.#store.childrenOf.get(record.id) ?? [])],
      created_at: record.created_at,
      updated_at: record.updated_at,
      sandbox_status: status,
      execution_status: running ? this.#executionStatus(record) : null,
      conversation_url: running ? conversationUrl(sandbox, record.id) : null,
      session_api_key: running ? sandbox.session_api_key : null,
    };
  }

  #executionStatus(record: ConversationRecord): AppConversation['execution_status'] {
    if (!record.has_initial_message) return 'idle';
    const started = parseDateTime(record.agent_started_at ?? record.created_at);
    return this.#clock.now() < started + this.#options.timings.agentRunMs ? 'running' : 'finished';
  }

  #conversationInfoView(record: ConversationRecord): ConversationInfo {
    const { status, sandbox } = this.#sandboxStatusOf(record);
    const running = status === 'RUNNING' && sandbox !== null;
    return {
      conversation_id: legacyId(record.id),
      title: record.title ?? defaultTitle(record.id),
      last_updated_at: record.updated_at,
      status: CONVERSATION_STATUS_OF_SANDBOX[status],
      runtime_status: RUNTIME_STATUS_OF_SANDBOX[status],
      selected_repository: record.selected_repository,
      selected_branch: record.selected_branch,
      git_provider: record.git_provider,
      trigger: record.trigger,
      num_connections: 0,
      url: running ? conversationUrl(sandbox, record.id) : null,
      session_api_key: running ? sandbox.session_api_key : null,
      created_at: record.created_at,
      pr_number: [...record.pr_number],
      conversation_version: record.version,
      sub_conversation_ids: (this.#store.childrenOf.get(record.id) ?? []).map(legacyId),
    };
  }

  // ---------------------------------------------------------------- app conversations (V1)

  #appConversationQuery(filters: AppConversationFilters): { ordering: Ordering; range: [number, number]; predicate: ((id: string) => boolean) | null } {
    const table = this.#store.conversations;
    const ordering = filters.include_sub_conversations ? table.orderings.v1 : table.orderings.v1TopLevel;
    const lo = filters.created_at__gte ? ordering.positionOf(canonicalDateTime(filters.created_at__gte)) : 0;
    const hi = filters.created_at__lt ? ordering.positionOf(canonicalDateTime(filters.created_at__lt)) : ordering.size;
    const checks: ((record: ConversationRecord) => boolean)[] = [];
    if (filters.title__contains) {
      const needle = filters.title__contains.toLowerCase();
      checks.push((c) => (c.title ?? '').toLowerCase().includes(needle));
    }
    if (filters.updated_at__gte) {
      const gte = canonicalDateTime(filters.updated_at__gte);
      checks.push((c) => c.updated_at >= gte);
    }
    if (filters.updated_at__lt) {
      const lt = canonicalDateTime(filters.updated_at__lt);
      checks.push((c) => c.updated_at < lt);
    }
    const predicate = checks.length === 0 ? null : (id: string) => {
      const record = table.get(id)!;
      return checks.every((check) => check(record));
    };
    return { ordering, range: [lo, Math.max(lo, hi)], predicate };
  }

  /** `GET /api/v1/app-conversations/search` (and the list form of `GET /api/v1/app-conversations`). */
  searchAppConversations(filters: AppConversationFilters & { sort_order?: AppConversationSortOrder }, page: PageRequest): Promise<Page<AppConversation>> {
    return this.#operation(() => {
      const table = this.#store.conversations;
      const query = this.#appConversationQuery(filters);
      const sortOrder = filters.sort_order ?? 'CREATED_AT_DESC';
      let result: IdPage;
      if (sortOrder === 'CREATED_AT' || sortOrder === 'CREATED_AT_DESC') {
        result = pageIds(query.ordering, page, { desc: sortOrder === 'CREATED_AT_DESC', range: query.range, predicate: query.predicate });
      } else {
        const all = matchingIds(query.ordering, query.range, query.predicate).map((id) => table.get(id)!);
        const key = sortOrder.startsWith('TITLE') ? (c: ConversationRecord) => c.title ?? '' : (c: ConversationRecord) => c.updated_at;
        result = sortedPage(all, key, sortOrder.endsWith('_DESC'), page);
      }
      return toPage(result.ids.map((id) => this.#appConversationView(table.get(id)!)), page, result.more);
    });
  }

  /** `GET /api/v1/app-conversations/count`: how many V1 conversations match the filters. */
  countAppConversations(filters: AppConversationFilters): Promise<number> {
    return this.#operation(() => {
      const query = this.#appConversationQuery(filters);
      if (!query.predicate) return query.range[1] - query.range[0];
      return matchingIds(query.ordering, query.range, query.predicate).length;
    });
  }

  /** `GET /api/v1/app-conversations?ids=`: V1 conversations aligned with `ids`, null for missing ones. */
  getAppConversations(ids: string[]): Promise<(AppConversation | null)[]> {
    return this.#operation(() => ids.map((id) => {
      const key = toHyphenatedUuid(id);
      const record = key ? this.#store.conversations.get(key) : undefined;
      return record && record.version === 'V1' ? this.#appConversationView(record) : null;
    }));
  }

  /** `POST /api/v1/app-conversations`: answers at once with a WORKING start task, which then steps on with time. */
  startAppConversation(request: AppConversationStartRequest): Promise<AppConversationStartTask> {
    return this.#operation(async () => {
      let sandboxId: string | null = request.sandbox_id;
      if (sandboxId === null) {
        sandboxId = (await this.#createSandbox(null)).id;
      } else {
        const existing = this.#store.sandboxes.get(sandboxId);
        if (existing && this.#settledNow(existing).status === 'PAUSED') await this.#transition(sandboxId, 'resume');
      }
      const created = this.#stamp();
      const task = await this.#store.startTasks.insert({
        id: this.#random.uuid(),
        created_by_user_id: this.#options.userId,
        status: 'WORKING',
        status_changed_at: created,
        detail: null,
        app_conversation_id: this.#random.uuid(),
        sandbox_id: sandboxId,
        request,
        created_at: created,
        updated_at: created,
      });
      this.#pendingTasks.add(task.id);
      return this.#startTaskView(task);
    });
  }

  #startTaskView(record: StartTaskRecord): AppConversationStartTask {
    const ready = record.status === 'READY';
    const sandbox = ready && record.sandbox_id ? this.#store.sandboxes.get(record.sandbox_id) : undefined;
    return {
      id: record.id,
      created_by_user_id: record.created_by_user_id,
      status: record.status,
      detail: record.detail,
      app_conversation_id: ready ? record.app_conversation_id : null,
      sandbox_id: record.status === 'WORKING' ? null : record.sandbox_id,
      agent_server_url: sandbox ? agentServerUrl(sandbox) : null,
      request: structuredClone(record.request),
      created_at: record.created_at,
      updated_at: record.updated_at,
    };
  }

  /** `GET /api/v1/app-conversations/start-tasks?ids=`: tasks aligned with `ids`, null for missing ones. */
  getStartTasks(ids: string[]): Promise<(AppConversationStartTask | null)[]> {
    return this.#operation(() => ids.map((id) => {
      const key = toHyphenatedUuid(id);
      const record = key ? this.#store.startTasks.get(key) : undefined;
      return record ? this.#startTaskView(record) : null;
    }));
  }

  #startTaskQuery(filters: StartTaskFilters): { range: [number, number]; predicate: ((id: string) => boolean) | null } {
    const ordering = this.#store.startTasks.orderings.all;
    const lo = filters.created_at__gte ? ordering.positionOf(canonicalDateTime(filters.created_at__gte)) : 0;
    const conversationId = filters.conversation_id__eq ? toHyphenatedUuid(filters.conversation_id__eq) : null;
    const predicate = conversationId === null ? null : (id: string) => {
      const task = this.#store.startTasks.get(id)!;
      return task.status === 'READY' && task.app_conversation_id === conversationId;
    };
    return { range: [lo, ordering.size], predicate };
  }

  /** `GET /api/v1/app-conversations/start-tasks/search`. */
  searchStartTasks(filters: StartTaskFilters & { sort_order?: StartTaskSortOrder }, page: PageRequest): Promise<Page<AppConversationStartTask>> {
    return this.#operation(() => {
      const table = this.#store.startTasks;
      const query = this.#startTaskQuery(filters);
      const sortOrder = filters.sort_order ?? 'CREATED_AT_DESC';
      let result: IdPage;
      if (sortOrder.startsWith('CREATED_AT')) {
        result = pageIds(table.orderings.all, page, { desc: sortOrder === 'CREATED_AT_DESC', range: query.range, predicate: query.predicate });
      } else {
        const all = matchingIds(table.orderings.all, query.range, query.predicate).map((id) => table.get(id)!);
        result = sortedPage(all, (t) => t.updated_at, sortOrder === 'UPDATED_AT_DESC', page);
      }
      return toPage(result.ids.map((id) => this.#startTaskView(table.get(id)!)), page, result.more);
    });
  }

  /** `GET /api/v1/app-conversations/start-tasks/count`. */
  countStartTasks(filters: StartTaskFilters): Promise<number> {
    return this.#operation(() => {
      const query = this.#startTaskQuery(filters);
      if (!query.predicate) return query.range[1] - query.range[0];
      return matchingIds(this.#store.startTasks.orderings.all, query.range, query.predicate).length;
    });
  }

  // ---------------------------------------------------------------- legacy conversations

  #findConversation(id: string): ConversationRecord | undefined {
    return this.#store.conversations.get(toHyphenatedUuid(id) ?? id);
  }

  /** `POST /api/conversations`: creates a V0 conversation with its own sandbox, or joins an existing one. */
  createConversation(request: InitSessionRequest): Promise<ConversationResponse> {
    return this.#operation(async () => {
      const existing = request.conversation_id === undefined ? undefined : this.#findConversation(request.conversation_id);
      const record = existing ?? await this.#createLegacyConversation(request);
      const status = CONVERSATION_STATUS_OF_SANDBOX[this.#sandboxStatusOf(record).status];
      return { status: 'ok', conversation_id: legacyId(record.id), message: null, conversation_status: status };
    });
  }

  async #createLegacyConversation(request: InitSessionRequest): Promise<ConversationRecord> {
    const id = request.conversation_id === undefined
      ? this.#random.uuid()
      : toHyphenatedUuid(request.conversation_id) ?? request.conversation_id;
    const sandbox = await this.#createSandbox(null);
    const trigger = request.suggested_task ? 'suggested_task' : request.create_microagent ? 'microagent_management' : 'gui';
    const created = this.#stamp();
    return this.#store.conversations.insert({
      id,
      version: 'V0',
      sandbox_id: sandbox.id,
      created_by_user_id: this.#options.userId,
      title: defaultTitle(id),
      selected_repository: request.repository ?? request.create_microagent?.repo ?? null,
      selected_branch: request.selected_branch,
      git_provider: request.git_provider ?? request.create_microagent?.git_provider ?? null,
      trigger,
      has_initial_message: Boolean(request.initial_user_msg),
      agent_started_at: created,
      created_at: created,
      updated_at: created,
    });
  }

  /** `GET /api/conversations`: conversations of both versions, newest first. */
  listConversations(page: PageRequest): Promise<{ results: ConversationInfo[]; next_page_id: string | null }> {
    return this.#operation(() => {
      const table = this.#store.conversations;
      const { ids, more } = pageIds(table.orderings.all, page);
      const { items, next_page_id } = toPage(ids.map((id) => this.#conversationInfoView(table.get(id)!)), page, more);
      return { results: items, next_page_id };
    });
  }

  /** `GET /api/conversations/{id}`. */
  getConversation(id: string): Promise<ConversationInfo> {
    return this.#operation(() => {
      const record = this.#findConversation(id);
      if (!record) throw new NotFoundError(`Conversation ${id}`);
      return this.#conversationInfoView(record);
    });
  }

  /** `PATCH /api/conversations/{id}`: sets the title. */
  updateConversationTitle(id: string, title: string): Promise<true> {
    return this.#operation(async () => {
      const record = this.#findConversation(id);
      if (!record) throw new NotFoundError(`Conversation ${id}`);
      await this.#store.conversations.update(record.id, { title, updated_at: this.#stamp() });
      return true as const;
    });
  }

  /** `DELETE /api/conversations/{id}`: removes the conversation, and its sandbox when nothing else uses it. */
  deleteConversation(id: string): Promise<true> {
    return this.#operation(() => {
      const record = this.#findConversation(id);
      if (!record) throw new NotFoundError(`Conversation ${id}`);
      this.#store.conversations.remove(record.id);
      if (record.parent_conversation_id) {
        const siblings = this.#store.childrenOf.get(record.parent_conversation_id) ?? [];
        this.#store.childrenOf.set(record.parent_conversation_id, siblings.filter((c) => c !== record.id));
      }
      const shared = this.#store.conversations.all().some((c) => c.sandbox_id === record.sandbox_id);
      if (!shared) this.#store.sandboxes.remove(record.sandbox_id);
      return true as const;
    });
  }

  /** `POST /api/add-git-providers`: merges provider tokens and stores the MCP config. */
  storeGitProviders(request: POSTProviderModel): Promise<{ message: 'Git providers stored' }> {
    return this.#operation(async () => {
      const incoming = request.provider_tokens;
      if (Object.keys(incoming).length > 0) {
        const merged: Partial<Record<ProviderType, ProviderToken>> = {};
        for (const [provider, token] of Object.entries(incoming) as [ProviderType, ProviderToken][]) {
          const stored = this.#store.providerTokens[provider];
          merged[provider] = !token.token && stored?.token ? { ...stored, host: token.host } : { ...token };
        }
        await this.#store.setProviderTokens(merged);
      }
      if (request.mcp_config) await this.#store.setMcpConfig(request.mcp_config);
      return { message: 'Git providers stored' as const };
    });
  }

  /** The stored provider tokens, unredacted: for in-process assertions only, never served over HTTP. */
  providerTokens(): Partial<Record<ProviderType, ProviderToken>> {
    return this.#store.providerTokens;
  }
}

/** Legacy runtime status of a conversation, from its sandbox's status. */
const RUNTIME_STATUS_OF_SANDBOX: Record<SandboxStatus, ConversationInfo['runtime_status']> = {
  STARTING: 'STATUS$STARTING_RUNTIME',
  RUNNING: 'STATUS$READY',
  PAUSED: null,
  ERROR: 'STATUS$ERROR',
  MISSING: null,
};

/** The legacy form of a conversation id: 32 hex digits for UUIDs, anything else as given. */
export function legacyId(id: string): string {
  return toHyphenatedUuid(id) ? toHex(id) : id;
}

function defaultTitle(id: string): string {
  return `${DEFAULT_TITLE_PREFIX}${legacyId(id).slice(0, 5)}`;
}

function agentServerUrl(sandbox: SandboxRecord): string {
  return `http://localhost:${sandbox.agent_port}`;
}

function exposedUrls(sandbox: SandboxRecord): ExposedUrl[] {
  return [
    { name: 'AGENT_SERVER', url: agentServerUrl(sandbox) },
    { name: 'VSCODE', url: `http://localhost:${sandbox.agent_port + 1}` },
  ];
}

function conversationUrl(sandbox: SandboxRecord, conversationId: string): string {
  return `${agentServerUrl(sandbox)}/api/conversations/${legacyId(conversationId)}`;
}

/** Ids in `range` of `ordering` that pass `predicate`, oldest first. */
function matchingIds(ordering: Ordering, range: [number, number], predicate: ((id: string) => boolean) | null): string[] {
  const ids: string[] = [];
  for (let i = range[0]; i < range[1]; i++) {
    const id = ordering.idAt(i)!;
    if (!predicate || predicate(id)) ids.push(id);
  }
  return ids;
}

/**
 * One page of an ordering, newest first by default. Without a predicate the page is found by
 * index arithmetic, so a deep page costs the same as the first.
 */
function pageIds(
  ordering: Ordering,
  page: PageRequest,
  options: { desc?: boolean; range?: [number, number]; predicate?: ((id: string) => boolean) | null } = {},
): IdPage {
  const desc = options.desc ?? true;
  const [lo, hi] = options.range ?? [0, ordering.size];
  const ids: string[] = [];
  if (!options.predicate) {
    const count = hi - lo;
    for (let k = page.offset; k < Math.min(count, page.offset + page.limit); k++) {
      ids.push(ordering.idAt(desc ? hi - 1 - k : lo + k)!);
    }
    return { ids, more: page.offset + page.limit < count };
  }
  let skipped = 0;
  for (let k = 0; k < hi - lo; k++) {
    const id = ordering.idAt(desc ? hi - 1 - k : lo + k)!;
    if (!options.predicate(id)) continue;
    if (skipped < page.offset) {
      skipped++;
      continue;
    }
    if (ids.length === page.limit) return { ids, more: true };
    ids.push(id);
  }
  return { ids, more: false };
}

/** One page of `records` sorted by `key` (for sort orders that have no kept ordering). */
function sortedPage<T extends { id: string }>(records: T[], key: (record: T) => string, desc: boolean, page: PageRequest): IdPage {
  const sign = desc ? -1 : 1;
  records.sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  return { ids: records.slice(page.offset, page.offset + page.limit).map((r) => r.id), more: page.offset + page.limit < records.length };
}

function toPage<T>(items: T[], page: PageRequest, more: boolean): Page<T> {
  return { items, next_page_id: more ? String(page.offset + page.limit) : null };
}
