/**
 * One scripted session, three transports: the standalone server (`ws` on a real socket), msw in
 * process (`setupServer` with the fake's `ws.link`, over a global WebSocket), and the browser worker
 * (test/browser/chromium.test.ts, "the agent server behind the browser worker"). The event
 * sequences they deliver are the same.
 */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createFake } from '../../src/index.js';
import { ONE_RUN, describe as name, openSocket, serve, startConversation } from './support.js';

/** Frames of a session: connect with the history, send one message, read its run and the state after it. */
async function session(open: () => { send(text: string): void; frames: Record<string, unknown>[]; close(): void }): Promise<string[]> {
  const socket = open();
  const until = async (count: number) => {
    for (let i = 0; i < 500 && socket.frames.length < count; i++) await new Promise((r) => setTimeout(r, 10));
    return socket.frames.length;
  };
  await until(10);
  socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'And a test' }] }));
  // The run's events, then the state the agent server sends once the run has ended (event_service.py, _publish_state_update).
  await until(10 + ONE_RUN.length + 1);
  socket.close();
  return socket.frames.map(name);
}

describe('one scripted session through every transport', () => {
  it('the standalone server and msw in process deliver the same event sequence', async () => {
    const cli = await serve(['--timings', 'instant']);
    const live = await startConversation(cli);
    const standalone = await session(() => {
      const socket = openSocket(cli.agentUrl, live.id, `resend_all=true&session_api_key=${live.session_api_key}`);
      return {
        send: (text) => {
          if (socket.ws.readyState === WebSocket.OPEN) socket.ws.send(text);
          else socket.ws.once('open', () => socket.ws.send(text));
        },
        frames: socket.frames,
        close: () => socket.ws.close(),
      };
    });

    const fake = await createFake({
      baseUrl: 'http://localhost:3000',
      agentUrl: 'http://localhost:3001',
      auth: 'none',
      fixture: 'empty',
      timings: 'instant',
    });
    const previous = (globalThis as { WebSocket?: unknown }).WebSocket;
    // Node 20 has no global WebSocket for msw to intercept: `ws`'s client stands in for it.
    Object.assign(globalThis, { WebSocket });
    const server = setupServer(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const inProcess = await startConversation(
        { url: 'http://localhost:3000', agentUrl: 'http://localhost:3001' } as never,
        'Fix the flaky test',
      );
      const viaMsw = await session(() => {
        const socket = new (globalThis as unknown as { WebSocket: typeof globalThis.WebSocket }).WebSocket(
          `ws://localhost:3001/sockets/events/${inProcess.id}?resend_all=true&session_api_key=${inProcess.session_api_key}`,
        );
        const frames: Record<string, unknown>[] = [];
        socket.addEventListener('message', (event) => frames.push(JSON.parse(String(event.data)) as Record<string, unknown>));
        return {
          send: (text) => (socket.readyState === 1 ? socket.send(text) : socket.addEventListener('open', () => socket.send(text))),
          frames,
          close: () => socket.close(),
        };
      });
      expect(viaMsw).toEqual(standalone);
      expect(standalone).toEqual(['full_state=finished', 'SystemPromptEvent', ...ONE_RUN, ...ONE_RUN, 'full_state=finished']);
    } finally {
      server.close();
      Object.assign(globalThis, { WebSocket: previous });
    }
  });
});
