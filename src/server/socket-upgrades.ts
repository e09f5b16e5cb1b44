/**
 * The standalone server's WebSocket upgrades: each surface's socket routes, placed and accepted by
 * the socket dispatcher every transport uses (`mounts/sockets.ts`), upgraded on `ws` (never a
 * hand-written frame parser). A bad host is 404, a refused origin 403, a refused tenant its
 * status, a tenant that could not be made 500: each a plain HTTP answer before any upgrade.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { isRefusal } from '../domain/store/refusal.js';
import type { FakeCore } from '../fake.js';
import { REFUSAL_STATUS } from '../http/refusal-status.js';
import { acceptSocket, placeSocket } from '../mounts/sockets.js';
import { MAX_SOCKET_FRAME_BYTES } from '../surfaces/agent-server/socket-frames.js';
import { type CorsPolicy, originAllowed, originRefused } from './cors.js';
import { hostAllowed } from './host-check.js';

/** Longest a queue of handshakes runs before the event loop gets a turn, in ms. */
const HANDSHAKE_SLICE_MS = 5;

/**
 * Runs admitted tasks one after another, giving the event loop a turn (after pending I/O) each
 * time they have run for `HANDSHAKE_SLICE_MS`: a burst of work arriving in one turn is spread
 * over many, so a health probe between them waits one slice, not the whole burst.
 */
class TurnTakingQueue {
  readonly #tasks: (() => Promise<void>)[] = [];
  #running = false;

  /** Queues `task`; it runs after the tasks before it. */
  admit(task: () => Promise<void>): void {
    this.#tasks.push(task);
    if (!this.#running) void this.#drain();
  }

  async #drain(): Promise<void> {
    this.#running = true;
    let sliceStarted = performance.now();
    while (this.#tasks.length > 0) {
      await this.#tasks.shift()!().catch(() => undefined);
      if (performance.now() - sliceStarted > HANDSHAKE_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
    }
    this.#running = false;
  }
}

/** What the upgrades check a request against: the listener's base URL, its CORS policy and its allowed hosts. */
export interface UpgradePolicy {
  /** The base URL the listener serves. */
  base: URL;
  /** Which page origins may open a socket. */
  cors: CorsPolicy;
  /** Host names allowed besides loopback ones. */
  allowedHosts: readonly string[];
}

/** Frames at least this long are encoded once for every socket they go to. */
const SHARED_FRAME_CHARS = 64 * 1024;
let lastFrame = { text: '', bytes: Buffer.alloc(0) };
/**
 * The UTF-8 bytes of a frame for `ws.send`: a big event sent to a hundred sockets one after another
 * is encoded once, not a hundred times (#29 finding 12); a small one is left to `ws`.
 */
function frameBytes(text: string): string | Buffer {
  if (text.length < SHARED_FRAME_CHARS) return text;
  if (text !== lastFrame.text) lastFrame = { text, bytes: Buffer.from(text, 'utf8') };
  return lastFrame.bytes;
}

/** Serves the socket upgrades of `server` over `fake`'s mounts; `terminateAll` drops every open socket (on close). */
export function serveSocketUpgrades(server: Server, fake: FakeCore, policy: UpgradePolicy): { terminateAll(): void } {
  const { base, cors, allowedHosts } = policy;
  // WebSockets (each surface's socket routes, through the dispatcher in `mounts/sockets.ts`) on `ws`: never a hand-written frame parser.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_SOCKET_FRAME_BYTES });
  // Handshakes are carried out one after another, the event loop served between slices of them: 2,000 at once held health 659 ms (#29 finding 11).
  const handshakes = new TurnTakingQueue();
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => handshakes.admit(() => upgrade(request, socket, head)));
  const upgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    if (socket.destroyed) return;
    const url = URL.canParse(request.url ?? '/', base.origin) ? new URL(request.url ?? '/', base.origin) : null;
    const placed = url && hostAllowed(request.headers.host, allowedHosts) ? placeSocket(fake.mounts, url) : null;
    if (!url || !placed) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"Not Found"}');
      return;
    }
    // A page on an origin the CORS policy does not allow may not listen to, or talk to, an agent.
    const origin = request.headers.origin;
    if (typeof origin === 'string' && !originAllowed(cors, origin) && originRefused(cors, origin, request.headers.host, 'POST', false)) {
      socket.end(
        'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"Forbidden: this origin may not open the agent server\'s socket (allow the origin with --cors ORIGIN)"}',
      );
      return;
    }
    const headers = {
      get: (name: string) => {
        const v = request.headers[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      },
    };
    // The socket of a tenant's agent: the tenant the upgrade names (header or cookie).
    await acceptSocket(fake.mounts, placed, url, headers).then(
      (accepted) => {
        if (isRefusal(accepted)) {
          socket.end(
            `HTTP/1.1 ${REFUSAL_STATUS[accepted.reason]} ${accepted.reason}\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify({ detail: accepted.detail })}`,
          );
          return;
        }
        sockets.handleUpgrade(request, socket, head, (ws) => {
          const served = accepted({
            // The callback says the frame was written out: the outbox paces a socket by it (a slow reader is closed, `socket-outbox.ts`).
            send: (text, written) => {
              if (ws.readyState === ws.OPEN) ws.send(frameBytes(text), { binary: false }, () => written());
              else written();
            },
            close: (code, reason) => ws.close(code, reason),
            drop: () => ws.terminate(),
          });
          ws.on('message', (data, isBinary) => served.receive(isBinary ? '' : String(data)));
          ws.on('close', () => served.closed());
          ws.on('error', () => served.closed());
        });
      },
      () => {
        // A tenant that could not be made: a clean 500 answer, never a hang-up.
        socket.end(
          'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"detail":"Internal Server Error"}',
        );
      },
    );
  };
  return {
    terminateAll: () => {
      for (const client of sockets.clients) client.terminate();
    },
  };
}
