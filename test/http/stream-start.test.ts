/**
 * `POST /api/v1/app-conversations/stream-start`, as the real route streams it
 * (app_conversation_router.py, `_stream_app_conversation_start`): `application/json`, a JSON
 * array written item by item, one start task per step, ending with READY or ERROR; through
 * `fake.fetch`, msw's `setupServer` and the standalone server alike.
 */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startCli } from '../support/cli.js';

const STEPS = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
];
const init = (body: object): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Reads a streamed answer piece by piece, moving the clock after each piece; returns the pieces. */
async function readIncrementally(response: Response, onPiece: () => void): Promise<string[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return pieces;
    pieces.push(decoder.decode(value));
    onPiece();
  }
}

describe('POST /api/v1/app-conversations/stream-start', () => {
  it('in-process: a reader sees each step as the clock moves, then the array closes at READY', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty', clock: 'manual' });
    const response = await fake.fetch(
      new Request('http://localhost:3000/api/v1/app-conversations/stream-start', init({ selected_repository: 'a/b' })),
    );
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'application/json']);
    const pieces = await readIncrementally(response, () => fake.clock.advance(1000));
    expect(pieces[0]).toBe('[\n');
    expect(pieces.at(-1)).toBe(']');
    const tasks = JSON.parse(pieces.join('')) as { id: string; status: string; app_conversation_id: string | null }[];
    expect(tasks.map((t) => t.status)).toEqual(STEPS);
    expect(new Set(tasks.map((t) => t.id)).size).toBe(1);
    expect(tasks.at(-1)!.app_conversation_id).toMatch(/^[0-9a-f]{32}$/);
    // Each piece after the first item is one step: the stream is incremental, not one blob.
    expect(pieces.filter((p) => p.startsWith(',\n{')).length).toBe(STEPS.length - 1);
  });

  it('through setupServer: the same steps, and an unknown sandbox ends the stream at ERROR', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty', timings: 'instant', baseUrl: 'http://stream.test' });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const ok = (await (await fetch('http://stream.test/api/v1/app-conversations/stream-start', init({}))).json()) as { status: string }[];
      expect(ok.at(-1)!.status).toBe('READY');
      const failed = (await (
        await fetch('http://stream.test/api/v1/app-conversations/stream-start', init({ sandbox_id: 'oh-agent-server-gone' }))
      ).json()) as { status: string; detail: string }[];
      expect(failed.map((t) => t.status)).toEqual(['WORKING', 'WAITING_FOR_SANDBOX', 'ERROR']);
      expect(failed.at(-1)!.detail).toBe('Sandbox not found: oh-agent-server-gone');
    } finally {
      server.close();
    }
  });

  it('over a real socket: chunks arrive as the steps happen, with realistic timings', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty']);
    const started = Date.now();
    const response = await fetch(`${cli.url}/api/v1/app-conversations/stream-start`, init({ selected_repository: 'a/b' }));
    const arrivals: number[] = [];
    const pieces = await readIncrementally(response, () => arrivals.push(Date.now() - started));
    const tasks = JSON.parse(pieces.join('')) as { status: string }[];
    expect(tasks.map((t) => t.status)).toEqual(STEPS);
    // The sandbox takes 2 s to start: the steps after it arrive later than the first.
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThan(1500);
  }, 30_000);

  it('rejects a bad request with 422 before streaming anything', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty' });
    const response = await fake.fetch(
      new Request('http://localhost:3000/api/v1/app-conversations/stream-start', init({ agent_type: 'x' })),
    );
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'agent_type']);
  });
});
