/**
 * `fake.service`: the domain operations, for arranging state and injecting faults in tests. Each
 * method is a domain operation (a function of the state, in its area module) run by the fake's one
 * `OperationRunner`: one at a time, time-driven steps settled first, changes published before it
 * resolves. Routes run the same functions through the same runner (`context.runner.run(op, ...args)`);
 * this table names the ones `fake.service` offers, and adding one to it is one line in `OPERATIONS`.
 *
 * The module imports every operation statically. A page does not download it with its first
 * chunk: `fake.service` is a facade that loads it with its first call (`../service-facade.ts`), and
 * an instance loads it for what it needs only sometimes (`LaterDomain`: the scripted agent, the
 * fixture's schemas).
 */
import type { ProviderType } from '../schemas/common.js';
import type { ProviderToken } from '../schemas/legacy.js';
import type { Fixture } from '../schemas/fixture.js';
import * as appConversations from './conversations/app-conversations.js';
import * as ops from './conversations/conversation-ops.js';
import * as starts from './conversations/start-conversation.js';
import type { ChangeListener } from './store/events.js';
import * as gitProviders from './user/git-providers.js';
import * as legacy from './legacy/conversations.js';
import type { Operation, OperationRunner } from './store/runner.js';
import * as sandboxes from './sandboxes/sandboxes.js';
import * as startTasks from './conversations/start-tasks.js';
import type { DomainState } from './store/state.js';

export { agentRuntime } from './agent/runtime.js';
export { storeFromFixture } from './fixtures/fixtures.js';
export * as snapshots from './store/snapshot.js';
export { AgentScript } from '../schemas/agent-script.js';
export type { Page, PageRequest } from './store/paging.js';
export type { AppConversationFilters } from './conversations/app-conversations.js';
export type { StartTaskFilters } from './conversations/start-tasks.js';

/** The operations `fake.service` offers, each a domain function of the state (statically imported: "go to definition" lands on it). */
export const OPERATIONS = {
  /** `GET /api/v1/sandbox-specs/search`: specs, newest first. */
  searchSandboxSpecs: sandboxes.searchSandboxSpecs,
  /** `GET /api/v1/sandbox-specs?id=`: specs aligned with `ids`, null for missing ones. */
  getSandboxSpecs: sandboxes.getSandboxSpecs,
  /** `GET /api/v1/sandboxes/search`: sandboxes, newest first. */
  searchSandboxes: sandboxes.searchSandboxes,
  /** `GET /api/v1/sandboxes?id=`: sandboxes aligned with `ids`, null for missing ones. */
  getSandboxes: sandboxes.getSandboxes,
  /** `POST /api/v1/sandboxes`: starts a sandbox from a spec (the default one when `null`); answers STARTING. */
  startSandbox: sandboxes.startSandbox,
  /** `POST /api/v1/sandboxes/{id}/pause`: STARTING/RUNNING → PAUSED; a PAUSED or ERROR sandbox stays so (the table in `time/lifecycle.ts`). */
  pauseSandbox: sandboxes.pauseSandbox,
  /** `POST /api/v1/sandboxes/{id}/resume`: PAUSED or ERROR → STARTING → RUNNING; a starting or running sandbox stays so (the table in `time/lifecycle.ts`). */
  resumeSandbox: sandboxes.resumeSandbox,
  /** `DELETE /api/v1/sandboxes/{id}`: the sandbox becomes MISSING (gone from search, null in batch). */
  deleteSandbox: sandboxes.deleteSandbox,
  /** Fault injection: the sandbox enters ERROR (as when its container dies), with `detail` as its `status_detail`. */
  failSandbox: sandboxes.failSandbox,
  /** `GET /api/v1/app-conversations/search`. */
  searchAppConversations: appConversations.searchAppConversations,
  /** `GET /api/v1/app-conversations/count`: how many V1 conversations match the filters. */
  countAppConversations: appConversations.countAppConversations,
  /** `GET /api/v1/app-conversations?ids=`: V1 conversations aligned with `ids`, null for missing ones. */
  getAppConversations: appConversations.getAppConversations,
  /** `POST /api/v1/app-conversations`: answers at once with a WORKING start task, which then steps on with time. */
  startAppConversation: starts.startAppConversation,
  /** `GET /api/v1/app-conversations/start-tasks?ids=`: tasks aligned with `ids`, null for missing ones. */
  getStartTasks: startTasks.getStartTasks,
  /** A start task as it was at each step so far, oldest first; `null` when unknown. */
  startTaskSteps: startTasks.startTaskSteps,
  /** `GET /api/v1/app-conversations/start-tasks/search`. */
  searchStartTasks: startTasks.searchStartTasks,
  /** `GET /api/v1/app-conversations/start-tasks/count`. */
  countStartTasks: startTasks.countStartTasks,
  /** `POST /api/conversations`: creates a V0 conversation with its own sandbox, or joins an existing one. */
  createConversation: legacy.createConversation,
  /** `GET /api/conversations`: conversations of both versions, newest first, filtered. */
  listConversations: legacy.listConversations,
  /** `GET /api/conversations` as JSON text in pieces, the event loop served between them (for a long list). */
  listConversationsText: legacy.listConversationsText,
  /** `GET /api/conversations/{id}`: `null` for an unknown id. */
  getConversation: legacy.getConversation,
  /** `PATCH /api/conversations/{id}`: sets the title. */
  updateConversationTitle: legacy.updateConversationTitle,
  /** `DELETE /api/conversations/{id}`: removes the conversation, and its sandbox when nothing else uses it; `false` for an unknown id. */
  deleteConversation: legacy.deleteConversation,
  /** `PATCH /api/v1/app-conversations/{id}`: `null` for an unknown conversation. */
  updateAppConversation: ops.updateAppConversation,
  /** `DELETE /api/v1/app-conversations/{id}`: `false` for an unknown conversation. */
  deleteAppConversation: ops.deleteAppConversation,
  /** `POST /api/v1/app-conversations/{id}/send-message`: the sandbox's status, or the `Refusal` the route answers. */
  sendMessage: ops.sendMessage,
  /** `GET /api/v1/app-conversations/{id}/file`: the file's text, `""` when it is not there. */
  readFile: ops.readFile,
  /** `GET /api/v1/app-conversations/{id}/download`: a ZIP of the conversation and its workspace; `null` when unknown. */
  exportConversation: ops.exportConversation,
  /** The same ZIP in pieces, the event loop served between them (what the route streams); `null` when unknown. */
  exportConversationPieces: ops.exportConversationPieces,
  /** `POST /api/add-git-providers`: merges provider tokens and stores the MCP config. */
  storeGitProviders: gitProviders.storeGitProviders,
} as const;

/** A domain function as a method: the state argument is the runner's, the result a promise. */
type BoundOperation<F> = F extends (state: DomainState, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The operations of the table, as methods. */
type Bound<T> = { [K in keyof T]: BoundOperation<T[K]> };

/** The names of the operations `fake.service` offers. */
export type OperationName = keyof typeof OPERATIONS;

/** The operations of the Conversation and Sandbox Service, for arranging state in tests (`fake.service`). */
export interface FakeService extends Bound<typeof OPERATIONS> {
  /** Everything the service holds, as a fixture: time-driven steps settled, tokens redacted. */
  snapshot(): Promise<Fixture>;
  /** Subscribes to state changes (see `fake.onChange`); returns a function that unsubscribes. */
  subscribe(listener: ChangeListener): () => void;
  /** The stored provider tokens, unredacted: for in-process assertions only, never served over HTTP. */
  providerTokens(): Partial<Record<ProviderType, ProviderToken>>;
}

/**
 * The service over a runner: each operation of the table, run by it.
 * @example
 * const service = createService(runner); await service.pauseSandbox(id)
 */
export function createService(runner: OperationRunner): FakeService {
  const service: Record<string, unknown> = {
    snapshot: () => runner.snapshot(),
    subscribe: (listener: ChangeListener) => runner.subscribe(listener),
    providerTokens: () => runner.state.store.providerTokens,
  };
  for (const [name, operation] of Object.entries(OPERATIONS) as [OperationName, Operation<unknown[], unknown>][]) {
    service[name] = (...args: unknown[]) => runner.run(operation, ...args);
  }
  return Object.freeze(service) as unknown as FakeService;
}
