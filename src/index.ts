/**
 * fakehands: a stateful, contract-checked fake of the OpenHands Conversation and Sandbox Service.
 * @example
 * import { setupServer } from 'msw/node'
 * import { createFake } from 'fakehands'
 * const fake = await createFake({ baseUrl: 'http://localhost:3000' })
 * const server = setupServer(...fake.handlers)
 */
import type { HttpHandler } from 'msw';
import { createFakeCore, type FakeCore } from './fake.js';
import { createHandlers, createRouteHandlers } from './http/handlers.js';
import { allRoutes } from './http/routes/index.js';
import type { FakeOptionsInput } from './options.js';

/** A running fake: msw handlers over one in-memory state. */
export interface Fake extends FakeCore {
  /** msw request handlers for the whole API under the base URL: `setupServer(...fake.handlers)`. */
  readonly handlers: HttpHandler[];
  /** The same behaviour as one msw handler per endpoint, listed by `server.listHandlers()` (slower). */
  readonly routeHandlers: HttpHandler[];
}

/**
 * Creates a fake of the whole API over an in-memory state loaded from a fixture.
 * @example
 * const fake = await createFake({ fixture: 'empty', timings: 'instant', seed: 42 })
 */
export async function createFake(input: FakeOptionsInput = {}): Promise<Fake> {
  const core = await createFakeCore(input);
  const respond = (request: Request) => core.fetch(request);
  return Object.assign(core, {
    handlers: createHandlers(respond, core.options.baseUrl),
    routeHandlers: createRouteHandlers(respond, allRoutes, core.options.baseUrl),
  });
}

export { createFakeCore, BUILT_IN_FIXTURES, type FakeCore, type FixtureOption, type ResetOptions } from './fake.js';
export { generateFixture, type GenerateOptions } from './domain/generate.js';
export { createManualClock, createSystemClock, type Clock } from './domain/clock.js';
export { FakehandsError, type FakehandsErrorCode } from './domain/errors.js';
export type { ChangeListener, ChangedEntity, ChangedState, StateChange } from './domain/events.js';
export type { Faults } from './http/faults.js';
export type { Fault, FaultSpecInput, JournalEntry } from './schemas/control.js';
export type { Journal } from './http/journal.js';
export type { Answer, RequestLike } from './http/responses.js';
export { apiRoutes as routes } from './http/routes/index.js';
export type { Route, RouteAccess, RouteContext } from './http/route.js';
export { DEFAULT_API_KEY, DEFAULT_BASE_URL, FakeOptions, type FakeOptionsInput, type ResolvedFakeOptions } from './options.js';
export { INSTANT_TIMINGS, REALISTIC_TIMINGS, SANDBOX_TRANSITIONS, CONVERSATION_STATUS_OF_SANDBOX, type Timings } from './domain/lifecycle.js';
export type { FakeService, Page, PageRequest } from './domain/service.js';
export * as schemas from './schemas/index.js';
export type { Fixture, FixtureInput } from './schemas/records.js';
