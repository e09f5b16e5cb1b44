/**
 * The agent server's socket `/sockets/bash-events`: every bash event as it is published (a
 * command, each line of its output when the clock reaches it), and a client frame that is an
 * `ExecuteBashRequest` starts that command. Copies openhands-agent-server `sockets.py`
 * (`bash_events_socket`, `_accept_authenticated_websocket`, `_is_auth_control_message`): the key
 * from `session_api_key`, the `X-Session-API-Key` header or a first `{"type": "auth"}` frame (4001
 * when wrong; none needed under `--auth none`); `resend_mode=all` (and the deprecated `resend_all`)
 * sends the history first; 1013 past the subscriber cap; a bad frame gets a `BashError`.
 */
import { settleBash, shellOf, startBashCommand, type BashEvent } from '../../domain/agent-world/bash.js';
import { keyHolder } from '../../domain/sandboxes/session-keys.js';
import type { DomainState } from '../../domain/store/state.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import type { Instance } from '../../instance/instance.js';
import { ExecuteBashRequest } from './bash-routes.js';
import { MAX_FRAME_ERRORS, bounded, readJsonFrame } from './socket-frames.js';
import { SLOW_READER_CLOSE_CODE, SLOW_READER_CLOSE_REASON, SocketOutbox } from './socket-outbox.js';
import type { ServedSocket, SocketPeer } from '../surface.js';
import { AUTH_FRAME_TIMEOUT_MS } from './sockets.js';

/** The socket's path on the agent host. */
export const BASH_SOCKET_PATH = '/sockets/bash-events';
/** Most bash sockets on one host; the next is closed with 1013. */
export const MAX_BASH_SUBSCRIBERS = 100;
/** How often open sockets publish output lines that came due, in real milliseconds. */
const TICK_MS = 25;

/** Per instance: the timer that publishes due output while sockets listen. */
const tickers = new WeakMap<Instance, { count: number; timer: ReturnType<typeof setInterval> }>();

function listen(instance: Instance): () => void {
  const ticker = tickers.get(instance) ?? {
    count: 0,
    timer: setInterval(() => void instance.runner.run(settleBash).catch(() => undefined), TICK_MS),
  };
  ticker.count++;
  tickers.set(instance, ticker);
  return () => {
    if (--ticker.count > 0) return;
    clearInterval(ticker.timer);
    tickers.delete(instance);
  };
}

/** The frame of the event published last, made once for every socket that sends it (a one-entry cache: nothing is kept beyond it). */
let lastFrame: { event: BashEvent; text: string } | null = null;
const frameOf = (event: BashEvent): string => {
  if (lastFrame?.event !== event) lastFrame = { event, text: JSON.stringify(event) };
  return lastFrame.text;
};

/**
 * The history kept when the socket subscribed, one frame at a time as the socket takes them (its
 * place counted from the list's start, so events dropped meanwhile are skipped; a cleared history
 * ends it). Events published after it come as live frames.
 */
function historyFrames(state: DomainState) {
  const shell = state.store.shell;
  const history = shell.events;
  let next = shell.dropped;
  const end = shell.dropped + history.length;
  return (): string | undefined => {
    if (shell.events !== history) return undefined;
    next = Math.max(next, shell.dropped);
    if (next >= end) return undefined;
    return JSON.stringify(history[next++ - shell.dropped]);
  };
}

/**
 * Serves one connection to `/sockets/bash-events` over `peer`.
 * @example
 * const socket = openBashSocket(instance, url, headers, peer); ws.on('message', (d) => socket.receive(String(d)))
 */
export function openBashSocket(
  instance: Instance,
  url: URL,
  headers: { get(name: string): string | null },
  peer: SocketPeer,
): ServedSocket {
  const given = url.searchParams.get('session_api_key') ?? headers.get(SESSION_API_KEY_HEADER);
  const open = instance.options.auth === 'none';
  let ended = false;
  let subscribed: { state: DomainState; listener: (event: BashEvent) => void; stop: () => void } | null = null;
  let authTimer: ReturnType<typeof setTimeout> | null = null;
  const end = (code: number, reason: string) => {
    ended = true;
    if (authTimer) clearTimeout(authTimer);
    outbox.close();
    peer.close(code, reason);
  };
  // A reader that falls too far behind is let go of (as the event socket does); the others keep their pace.
  const outbox: SocketOutbox = new SocketOutbox(
    (text, written) => peer.send(text, written),
    () => {
      if (subscribed) subscribed.state && shellOf(subscribed.state).bashListeners.delete(subscribed.listener);
      end(SLOW_READER_CLOSE_CODE, SLOW_READER_CLOSE_REASON);
    },
  );
  const bashError = (code: string, detail: string) =>
    JSON.stringify({
      kind: 'BashError',
      id: globalThis.crypto.randomUUID(),
      timestamp: new Date().toISOString().replace('Z', ''),
      code,
      detail,
    });

  const start = (key: string | null) =>
    instance.runner.run((state) => {
      if (ended) return;
      if (!open && keyHolder(state, key).kind !== 'running') return end(4001, 'Authentication failed');
      const world = shellOf(state);
      if (world.bashListeners.size >= MAX_BASH_SUBSCRIBERS) return end(1013, 'Too many bash event connections');
      settleBash(state);
      const mode = url.searchParams.get('resend_mode') ?? (url.searchParams.get('resend_all') === 'true' ? 'all' : null);
      if (mode === 'all') outbox.pushSource(historyFrames(state));
      const listener = (event: BashEvent) => outbox.push(frameOf(event));
      world.bashListeners.add(listener);
      subscribed = { state, listener, stop: listen(instance) };
    });

  if (given !== null || open) void start(given);
  else authTimer = setTimeout(() => end(4001, 'Authentication failed'), AUTH_FRAME_TIMEOUT_MS);

  return {
    receive(text) {
      if (ended) return;
      const frame = readJsonFrame(text);
      if (frame.kind === 'error') {
        if (!subscribed && !open && given === null) return end(4001, 'Authentication failed');
        return outbox.push(bashError(frame.code, frame.detail));
      }
      const data = frame.data;
      const auth = typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'auth';
      if (!subscribed && !open && given === null) {
        if (authTimer) clearTimeout(authTimer);
        authTimer = null;
        const key = auth ? (data as { session_api_key?: unknown }).session_api_key : undefined;
        if (typeof key !== 'string') return end(4001, 'Authentication failed');
        void start(key);
        return;
      }
      if (auth) return;
      const request = ExecuteBashRequest.safeParse(data);
      if (!request.success)
        return outbox.push(
          bashError(
            'ValidationError',
            bounded(
              request.error.issues
                .slice(0, MAX_FRAME_ERRORS)
                .map((i) => `${i.path.join('.') || 'frame'}: ${i.message}`)
                .join('; '),
            ),
          ),
        );
      void instance.runner
        .run((state) => {
          const started = startBashCommand(state, request.data);
          if ('reason' in started) outbox.push(bashError('TooManyCommands', started.detail));
        })
        .catch((error: unknown) => outbox.push(bashError((error as Error).name, bounded((error as Error).message))));
    },
    closed() {
      ended = true;
      if (authTimer) clearTimeout(authTimer);
      const current = subscribed as { state: DomainState; listener: (event: BashEvent) => void; stop: () => void } | null;
      if (current) {
        shellOf(current.state).bashListeners.delete(current.listener);
        current.stop();
      }
      subscribed = null;
    },
  };
}
