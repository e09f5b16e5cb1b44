/**
 * `fake.service` as a page meets it: the same methods as `domain/service.ts`'s `createService`, the
 * module behind them (every domain operation, statically imported) loaded with the first call, so
 * a page's bundler makes it a chunk of its own (issue 23, issue 30). This is the one split point
 * outside the surfaces' later route tables. Calls keep their order: each waits for the same load,
 * and promise callbacks run in the order they were registered, so the runner gets them in the
 * order they were made.
 */
import type { ChangeListener } from './domain/store/events.js';
import type { FakeService, OperationName } from './domain/service.js';
import type { OperationRunner } from './domain/store/runner.js';
import type * as Domain from './http/facade-module.js';

let domain: Promise<typeof Domain> | null = null;

/**
 * `domain/service.ts` (every operation, the scripted agent, the fixture's schemas; with the answers'
 * contract check: `http/facade-module.ts`), loaded once: the
 * one split point outside the surfaces' later route tables. What an `Environment` gives an instance
 * as `loadDomain`.
 * @example
 * const environment = { ...others, loadDomain }
 */
export function loadDomain(): Promise<typeof Domain> {
  return (domain ??= import('./http/facade-module.js'));
}

/** Every operation's name; the two checks below fail to compile when this list and `OPERATIONS` differ. */
const NAMES = [
  'searchSandboxSpecs',
  'getSandboxSpecs',
  'searchSandboxes',
  'getSandboxes',
  'startSandbox',
  'pauseSandbox',
  'resumeSandbox',
  'deleteSandbox',
  'failSandbox',
  'searchAppConversations',
  'countAppConversations',
  'getAppConversations',
  'startAppConversation',
  'getStartTasks',
  'startTaskSteps',
  'searchStartTasks',
  'countStartTasks',
  'createConversation',
  'listConversations',
  'listConversationsText',
  'getConversation',
  'updateConversationTitle',
  'deleteConversation',
  'updateAppConversation',
  'deleteAppConversation',
  'sendMessage',
  'readFile',
  'exportConversation',
  'exportConversationPieces',
  'storeGitProviders',
] as const satisfies readonly OperationName[];
/** Fails to compile when an operation of `OPERATIONS` is missing from `NAMES`. */
const everyName: Exclude<OperationName, (typeof NAMES)[number]> extends never ? true : false = true;
void everyName;

/**
 * `fake.service` over a runner: its operations load `domain/service.ts` with the first call.
 * @example
 * const service = lazyService(runner); await service.pauseSandbox(id)
 */
export function lazyService(runner: OperationRunner): FakeService {
  let loaded: Promise<FakeService> | null = null;
  const load = () => (loaded ??= loadDomain().then((m) => m.createService(runner)));
  const service: Record<string, unknown> = {
    snapshot: () => runner.snapshot(),
    subscribe: (listener: ChangeListener) => runner.subscribe(listener),
    providerTokens: () => runner.state.store.providerTokens,
  };
  for (const name of NAMES) {
    service[name] = (...args: unknown[]) => load().then((real) => (real[name] as (...a: unknown[]) => Promise<unknown>)(...args));
  }
  return Object.freeze(service) as unknown as FakeService;
}
