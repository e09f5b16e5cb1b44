/**
 * Node helpers: a fake installed with msw's `setupServer` in one call.
 * @example
 * import { startFake } from 'fakehands/node'
 * const { fake, server } = await startFake({ timings: 'instant' })
 * // ... fetch('http://localhost:3000/api/v1/sandboxes/search') ...
 * server.close()
 */
import { setupServer, type SetupServer } from 'msw/node';
import { createFake, type Fake } from './index.js';
import type { FakeOptionsInput } from './options.js';

/** A fake and the msw server that intercepts requests to it. */
export interface StartedFake {
  /** The fake. */
  fake: Fake;
  /** The msw server, already listening; close it when done. */
  server: SetupServer;
}

/** Creates a fake and starts intercepting requests to its base URL (unhandled requests elsewhere are an error). */
export async function startFake(options: FakeOptionsInput = {}): Promise<StartedFake> {
  const fake = await createFake(options);
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return { fake, server };
}

export * from './index.js';
