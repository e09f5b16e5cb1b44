/**
 * Test support: a fresh fake per test, installed with msw's setupServer, and a small
 * `call()` that returns status, parsed body and headers. Every answer is checked against
 * its route's response schema (`checkResponses`), so a drifting answer fails the test.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createFake, type Fake, type FakeOptionsInput } from '../../src/index.js';

/** Base URL of the fakes under test. */
export const BASE = 'http://localhost:3000';
/** The key the fakes under test expect. */
export const KEY = 'test-session-key';

/** What `call()` sends. */
export interface CallOptions {
  /** A JSON value (stringified) or a raw string body. */
  body?: unknown;
  /** The session key; `null` sends none. Defaults to the right key. */
  key?: string | null;
  /** Extra headers; `content-type` defaults to application/json when there is a body. */
  headers?: Record<string, string>;
}

/** An answer, parsed. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** Sends a request to the fake through the global fetch (intercepted by msw). */
export async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? KEY : options.key;
  if (key !== null) headers['x-session-api-key'] = key;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${BASE}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** Installs a fresh fake (default: the default fixture, manual clock) before each test of the file. */
export function useFake(options: FakeOptionsInput = {}): { readonly fake: Fake } {
  const server = setupServer();
  let current: Fake | undefined;
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(async () => {
    current = await createFake({ apiKey: KEY, checkResponses: true, ...options });
    server.resetHandlers(...current.handlers);
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return {
    get fake() {
      if (!current) throw new Error('useFake: the fake is created in beforeEach; use it inside a test');
      return current;
    },
  };
}
