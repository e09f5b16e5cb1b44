/**
 * fakehands: a stateful, contract-checked fake of the OpenHands Conversation and Sandbox Service.
 * @example
 * import { setupServer } from 'msw/node'
 * import { createFake } from 'fakehands'
 * const fake = await createFake({ baseUrl: 'http://localhost:3000' })
 * const server = setupServer(...fake.handlers)
 */
import { createFakeCore, type FakeCore } from './fake.js';
import { createHandlers, createRouteHandlers, type FakeHandler } from './mounts/msw-handlers.js';
import type { FakeOptionsInput } from './options.js';
import { llmHandlers } from './mounts/llm-handlers.js';
import { llmOfAgentScripts, type ScriptedLlm } from './surfaces/llm/index.js';

/** A running fake: msw handlers over one in-memory state. */
export interface Fake extends FakeCore {
  /** msw handlers for the whole API under the base URL, and the agent host at `agentUrl` (http and WebSocket): `setupServer(...fake.handlers)`. */
  readonly handlers: FakeHandler[];
  /** The same behaviour as one msw handler per endpoint, listed by `server.listHandlers()` (slower). */
  readonly routeHandlers: FakeHandler[];
  /** The scripted LLM answering from the fake's `agentScripts` (those made of model turns only); `handlers` serve it at `llmUrl` when that is set. */
  readonly llm: ScriptedLlm;
}

/**
 * Creates a fake of the whole API over an in-memory state loaded from a fixture.
 * @example
 * const fake = await createFake({ fixture: 'empty', timings: 'instant', seed: 42 })
 */
export async function createFake(input: FakeOptionsInput = {}): Promise<Fake> {
  const core = await createFakeCore(input);
  // In Node every route is loaded at once (nothing to save there; `routeHandlers` lists them all).
  await Promise.all(core.mounts.list.map((mount) => mount.surface.allRoutes()));
  const llm = llmOfAgentScripts(core.options.agentScripts, () => core.clock.now());
  const served = core.options.llmUrl === null ? [] : llmHandlers(llm, core.options.llmUrl);
  return Object.assign(core, {
    handlers: [...served, ...createHandlers(core.mounts)],
    routeHandlers: [...served, ...createRouteHandlers(core.mounts)],
    llm,
  });
}

export {
  ScriptedLlm,
  llmOfAgentScripts,
  parseLlmScripts,
  type ScriptedLlmOptions,
  type LlmRequest,
  type LlmRequestRecord,
} from './surfaces/llm/index.js';
export { llmHandlers } from './mounts/llm-handlers.js';
export { createFakeCore, BUILT_IN_FIXTURES, type FakeCore, type FixtureOption, type ResetOptions } from './fake.js';
export { generateFixture, type GenerateOptions } from './domain/fixtures/generate.js';
export { defaultGitWorld, gitWorld, repository } from './domain/user/git-world.js';
export { userSettings } from './domain/user/default-settings.js';
export { customSecret } from './domain/user/custom-secret.js';
export { createManualClock, createSystemClock, type Clock } from './domain/time/clock.js';
export { FakehandsError, type FakehandsErrorCode } from './domain/store/errors.js';
export type { ChangeListener, ChangedEntity, ChangedState, StateChange } from './domain/store/events.js';
export type { Refusal, RefusalReason } from './domain/store/refusal.js';
export type { Faults } from './instance/faults.js';
export type { Fault, FaultSpecInput } from './schemas/faults.js';
export type { JournalEntry } from './schemas/control.js';
export type { Journal } from './instance/journal.js';
export type { Answer, AnswerBody, RequestLike } from './http/responses.js';
export type { Mounts, Mount, Placement } from './mounts/mounts.js';
export type { FakeHandler } from './mounts/msw-handlers.js';
export { DEFAULT_API_KEY, DEFAULT_BASE_URL, FakeOptions, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
export {
  INSTANT_TIMINGS,
  REALISTIC_TIMINGS,
  SANDBOX_TRANSITIONS,
  CONVERSATION_STATUS_OF_SANDBOX,
  type Timings,
} from './domain/time/lifecycle.js';
export type { FakeService, Page, PageRequest, AppConversationFilters, StartTaskFilters } from './domain/service.js';
export * as schemas from './schemas/index.js';
export type { Fixture, FixtureInput } from './schemas/fixture.js';
export type { Har, HarEntry, Recording } from './domain/recording/har.js';
