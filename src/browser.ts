/**
 * `fakehands/browser`: the same fake (same route table, state machines and errors) behind msw's
 * service worker, for a web app in development, Storybook or a Playwright run. Fixtures by name
 * are bundled (no file system); a fixture object or function works too; the state can be kept in
 * `localStorage` so that a reload keeps it. Nothing here imports a Node built-in (the build checks).
 * @example
 * import { startFakeWorker } from 'fakehands/browser'
 * const { fake, worker } = await startFakeWorker({ baseUrl: location.origin, auth: 'none' })
 */
import { setupWorker, type SetupWorker } from 'msw/browser';
import { BUILT_IN_PAGE_FIXTURES } from './browser/default-fixture.js';
import { PACKAGE_VERSION } from './browser/fixtures.generated.js';
import { createCore, type Environment, type FakeCore } from './core.js';
import { FakehandsError, fixtureError } from './domain/store/errors.js';
import type { ChangeListener } from './domain/store/events.js';
import { Refusal } from './domain/store/refusal.js';
import { createHandlers } from './mounts/msw-handlers.js';
import { loadDomain } from './service-facade.js';
import type { FakeOptionsInput } from './options.js';
import type { FixtureInput } from './schemas/fixture.js';

/** The browser's environment: built-in fixtures made in the page, no file to read. */
const BROWSER_ENVIRONMENT: Environment = {
  async readFixture(name) {
    // Generated in the page (browser/default-fixture.ts) in their parsed form, the same records as
    // fixtures/*.json (a test checks it): stored without the fixture's schemas, which a page then
    // never downloads. Made anew for each load (a reset, a tenant), so no two stores share an object.
    const make = Object.hasOwn(BUILT_IN_PAGE_FIXTURES, name) ? BUILT_IN_PAGE_FIXTURES[name] : undefined;
    const data: unknown = make?.();
    if (data === undefined)
      throw fixtureError(
        `"${name}"`,
        'no such built-in fixture in the browser (there is no file system: pass "default", "empty", a fixture object or a function)',
      );
    return { data, source: `"${name}"`, trusted: true };
  },
  async readNamedFixture(_dir, name) {
    throw fixtureError(`"${name}"`, 'no fixtures directory in the browser');
  },
  version: PACKAGE_VERSION,
  loadDomain,
};

/** Options of `startFakeWorker`: the fake's options, and the worker's. */
export interface StartFakeWorkerOptions extends FakeOptionsInput {
  /** Keep the state in `localStorage` across page reloads (default: no). */
  persist?: 'localStorage' | false;
  /** The `localStorage` key of the kept state (default `fakehands-state`). */
  storageKey?: string;
  /** Where msw's worker script is served (default `/mockServiceWorker.js`, as `npx msw init public/` writes it). */
  serviceWorkerUrl?: string;
  /** Start without msw's console messages. */
  quiet?: boolean;
}

/** A fake running behind msw's service worker. */
export interface FakeWorker {
  /** The fake: clock, faults, journal, reset, snapshot, service, fetch. */
  fake: FakeCore;
  /** msw's worker, already started. */
  worker: SetupWorker;
  /** Stops intercepting. */
  stop(): void;
}

/** The state kept in `localStorage`, or `null`. */
function keptState(key: string): FixtureInput | null {
  const text = globalThis.localStorage?.getItem(key);
  if (!text) return null;
  try {
    return JSON.parse(text) as FixtureInput;
  } catch {
    return null;
  }
}

/**
 * Keeps every change in `localStorage`. Past its quota the change is refused with 507 (and undone),
 * as a full disk is on the server, never a 500 with a stack trace.
 */
function keepIn(storageKey: string): ChangeListener {
  return (_changes, state) => {
    try {
      globalThis.localStorage.setItem(storageKey, JSON.stringify(state.snapshot()));
    } catch (error) {
      const quota = error instanceof DOMException && (error.name === 'QuotaExceededError' || error.code === 22);
      if (!quota) throw error;
      throw new Refusal(
        'storage_full',
        `Insufficient Storage: localStorage is full, the change was not kept; reset the fake (POST /_fakehands/reset) or clear the "${storageKey}" item`,
      );
    }
  };
}

/** Whether the page was opened at the inspector's address under the base URL (`/_fakehands/`), on the base URL's own origin. */
function inspectorAsked(baseUrl: string): boolean {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, '');
  return (
    base.origin === globalThis.location?.origin && [`${prefix}/_fakehands`, `${prefix}/_fakehands/`].includes(globalThis.location.pathname)
  );
}

/**
 * Starts the fake behind msw's service worker; resolves once requests are intercepted.
 * @example
 * const { fake } = await startFakeWorker({ baseUrl: 'http://localhost:3000', fixture: 'default', persist: 'localStorage' })
 * fake.clock.advance(2000)
 */
export async function startFakeWorker(options: StartFakeWorkerOptions = {}): Promise<FakeWorker> {
  const {
    persist = false,
    storageKey = 'fakehands-state',
    serviceWorkerUrl = '/mockServiceWorker.js',
    quiet = true,
    ...fakeOptions
  } = options;
  const kept = persist === 'localStorage' ? keptState(storageKey) : null;
  let fake: FakeCore;
  try {
    fake = await createCore({ ...fakeOptions, ...(kept ? { fixture: kept } : {}) }, BROWSER_ENVIRONMENT);
  } catch (error) {
    // A kept state that no longer loads (edited by hand, from another version) must not stop the
    // app from starting: it is dropped, said so once, and the configured fixture is loaded.
    if (!kept || !(error instanceof FakehandsError) || error.code !== 'invalid_fixture') throw error;
    console.warn(
      `fakehands: the state kept in localStorage["${storageKey}"] does not load (${error.message}); it was dropped and the fixture loaded instead`,
    );
    globalThis.localStorage.removeItem(storageKey);
    fake = await createCore(fakeOptions, BROWSER_ENVIRONMENT);
  }
  if (persist === 'localStorage') fake.onChange(keepIn(storageKey));
  // The page's own scripts and lazily loaded chunks (fakehands' own among them) go to the network.
  const worker = setupWorker(...createHandlers(fake.mounts, { pageOrigin: globalThis.location?.origin }));
  await worker.start({ serviceWorker: { url: serviceWorkerUrl }, onUnhandledRequest: 'bypass', quiet });
  if (inspectorAsked(fake.options.baseUrl)) {
    // The page was opened at /_fakehands/: it becomes the inspector, whose requests the worker
    // answers. The promise never resolves there, so the app does not mount over it.
    const page = await fake.fetch(
      new Request(new URL(`${new URL(fake.options.baseUrl).pathname.replace(/\/+$/, '')}/_fakehands/`, fake.options.baseUrl)),
    );
    document.open();
    document.write(await page.text());
    document.close();
    return new Promise<never>(() => undefined);
  }
  return { fake, worker, stop: () => worker.stop() };
}

export type { Fake } from './index.js';
export type { FakeOptionsInput } from './options.js';
