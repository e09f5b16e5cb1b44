/**
 * One recorded session, good and bad requests, that every transport must answer identically
 * (setupServer, per-route handlers, fake.fetch, the standalone server, the browser worker).
 */

import { setupServer } from 'msw/node';
import { createFake } from '../../src/index.js';

/** The key of the fakes that play it. */
export const KEY = 'differential-key';
/** The options of the fakes that play it. */
export const OPTIONS = { apiKey: KEY, seed: 77, fixture: 'default', checkResponses: true, auth: 'all', clock: 'manual' } as const;

/** One request of the session, and how far the clock moves before it. */
export type Step = { method: string; path: string; body?: string; headers?: Record<string, string>; advance?: number };

/** A session a UI might have, with mistakes in it. `{sandbox}` is the first sandbox of the search. */
export const SEQUENCE: Step[] = [
  { method: 'GET', path: '/api/v1/sandbox-specs/search?limit=2' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=3' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=3&page_id=3' },
  { method: 'POST', path: '/api/v1/sandboxes' },
  { method: 'POST', path: '/api/v1/sandboxes?sandbox_spec_id=nope' },
  { method: 'GET', path: '/api/v1/sandboxes/search?limit=1', advance: 2500 },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/pause' },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/pause' },
  { method: 'POST', path: '/api/v1/sandboxes/{sandbox}/resume' },
  { method: 'POST', path: '/api/v1/sandboxes/nope/resume' },
  { method: 'DELETE', path: '/api/v1/sandboxes/nope' },
  {
    method: 'POST',
    path: '/api/v1/app-conversations',
    body: '{"selected_repository": "a/b", "initial_message": {"content": [{"type": "text", "text": "hi"}]}}',
  },
  { method: 'GET', path: '/api/v1/app-conversations/start-tasks/search?limit=2', advance: 6000 },
  { method: 'GET', path: '/api/v1/app-conversations/search?limit=2' },
  { method: 'GET', path: '/api/v1/app-conversations/count?title__contains=a' },
  { method: 'GET', path: '/api/v1/app-conversations?ids=not-a-uuid' },
  { method: 'GET', path: '/api/v1/app-conversations/search?limit=500&sort_order=X' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": "a/b", "git_provider": "github"}' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": 1, "extra": true}' },
  { method: 'POST', path: '/api/conversations', body: '{"repository": ' },
  { method: 'POST', path: '/api/conversations', body: 'plain text', headers: { 'content-type': 'text/plain' } },
  { method: 'POST', path: '/api/conversations' },
  { method: 'GET', path: '/api/conversations?limit=3' },
  { method: 'GET', path: `/api/conversations/${'x'.repeat(101)}` },
  { method: 'PATCH', path: '/api/conversations/nope', body: '{"title": "x"}' },
  { method: 'DELETE', path: '/api/v1/sandboxes/nope?sandbox_id=nope' },
  { method: 'POST', path: '/api/add-git-providers', body: '{"provider_tokens": {"github": {"token": "ghp_x"}, "nope": {}}}' },
  { method: 'POST', path: '/api/add-git-providers', body: '{"provider_tokens": {"github": {"token": "ghp_x"}}}' },
  { method: 'GET', path: '/api/v1/sandboxes/search', headers: { 'x-session-api-key': 'wrong' } },
  { method: 'PUT', path: '/api/v1/sandboxes/search' },
  { method: 'GET', path: '/api/v1/nothing/here' },
  { method: 'GET', path: '/api/v1/sandboxes?id=a&id=b' },
  // The control API and the OpenAPI document are routes of the same pipeline.
  { method: 'GET', path: '/_fakehands/health', headers: { 'x-session-api-key': '' } },
  { method: 'GET', path: '/_fakehands/clock' },
  { method: 'GET', path: '/_fakehands/faults', headers: { 'x-session-api-key': 'wrong' } },
  { method: 'POST', path: '/_fakehands/faults', body: '{"kind": "status", "path": "/api/v1/sandboxes/search", "status": 503}' },
  { method: 'GET', path: '/api/v1/sandboxes/search' },
  { method: 'POST', path: '/_fakehands/faults', body: '{"kind": "teleport", "path": "/"}' },
  { method: 'POST', path: '/_fakehands/clock', body: '{"advance_ms": 1000}' },
  { method: 'POST', path: '/_fakehands/clock', body: '{"advance_ms": ' },
  { method: 'PATCH', path: '/_fakehands/clock' },
  { method: 'POST', path: '/_fakehands/reset', body: '{"fixture": "/etc/passwd"}' },
  { method: 'GET', path: '/_fakehands/requests?limit=0' },
  { method: 'GET', path: '/openapi.json', headers: { 'x-session-api-key': '' } },
  { method: 'POST', path: '/_fakehands/reset', body: '{"fixture": "empty", "seed": 3}' },
  { method: 'GET', path: '/_fakehands/state' },
];

/** Plays the sequence through `send`, moving the fake's clock where a step says so. */
export async function play(
  send: (step: Step) => Promise<Response>,
  advance: (ms: number) => void,
): Promise<{ status: number; body: string }[]> {
  const results: { status: number; body: string }[] = [];
  let sandbox = '';
  for (const step of SEQUENCE) {
    if (step.advance) advance(step.advance);
    const response = await send({ ...step, path: step.path.replace('{sandbox}', sandbox) });
    const body = await response.text();
    if (!sandbox && step.path.startsWith('/api/v1/sandboxes/search'))
      sandbox = (JSON.parse(body) as { items: { id: string }[] }).items[0]!.id;
    results.push({ status: response.status, body });
  }
  return results;
}

export const init = (step: Step, base: string): [string, RequestInit] => [
  `${base}${step.path}`,
  {
    method: step.method,
    headers: { 'x-session-api-key': KEY, ...(step.body ? { 'content-type': 'application/json' } : {}), ...step.headers },
    body: step.body,
  },
];

/** The session's answers through msw's `setupServer`: the reference every other transport is compared with. */
export async function playThroughSetupServer(): Promise<{ status: number; body: string }[]> {
  const fake = await createFake({ ...OPTIONS, baseUrl: 'http://fake.test' });
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    return await play(
      (step) => fetch(...init(step, 'http://fake.test')),
      (ms) => fake.clock.advance(ms),
    );
  } finally {
    server.close();
  }
}
