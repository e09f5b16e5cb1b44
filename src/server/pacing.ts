/**
 * Pacing of the standalone server's work per turn of the event loop (#29 finding 11): requests
 * arriving together start in slices (`RequestGate`), new connections are handed over a batch per
 * turn (`paceConnections`), and the liveness probe is told apart (`isHealthProbe`). Node's HTTP
 * server has no such knobs, hence this module.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Longest the requests arriving in one turn of the event loop are started in it, and the waiting ones started in a later turn, in ms. */
const REQUEST_SLICE_MS = 5;
/** How many waiting requests a turn may start at most (each in a callback of its own, its promise jobs run before the next). */
const REQUEST_BATCH = 64;

/**
 * Starts requests at once while the turn they arrive in has run for less than `REQUEST_SLICE_MS`
 * (counted from the first request of the turn, so the work each started request did before its
 * first wait counts too); the rest wait, in order, and are started on later turns, as many a turn
 * as fit in the same slice, with the event loop (other sockets, health) served between turns. A
 * thousand requests arriving together (stream starts, new tenants) each did a fraction of a
 * millisecond of work before reaching the operation queue, all in the turn they arrived in:
 * 170 ms (#29 finding 11).
 */
export class RequestGate {
  readonly #waiting: (() => void)[] = [];
  #head = 0;
  #sliceStarted = -1;
  /** Callbacks of the current batch not run yet, and when the first of them ran (-1: none yet). */
  #batchLeft = 0;
  #batchStarted = -1;

  /** Whether a request arriving now starts at once (no request waits, the slice has room): then it is started without `admit`. */
  startsNow(): boolean {
    return this.#head === this.#waiting.length && this.#inSlice();
  }

  /** Starts `start` now, or after the requests that wait before it. */
  admit(start: () => void): void {
    if (this.startsNow()) {
      start();
      return;
    }
    this.#waiting.push(start);
    if (this.#batchLeft === 0) this.#batch();
  }

  /** Whether this turn's slice has room; the first request of a turn opens it, the next turn closes it. */
  #inSlice(): boolean {
    const now = performance.now();
    if (this.#sliceStarted < 0) {
      this.#sliceStarted = now;
      setImmediate(() => {
        this.#sliceStarted = -1;
      });
    }
    return now - this.#sliceStarted < REQUEST_SLICE_MS;
  }

  /** Queues callbacks that all run in the next turn's check phase, each starting one waiting request while the slice has room. */
  #batch(): void {
    this.#batchStarted = -1;
    this.#batchLeft = Math.min(REQUEST_BATCH, this.#waiting.length - this.#head);
    for (let i = 0; i < this.#batchLeft; i++) setImmediate(this.#one);
  }

  readonly #one = () => {
    this.#batchLeft--;
    const now = performance.now();
    if (this.#batchStarted < 0) this.#batchStarted = now;
    if (this.#head < this.#waiting.length && now - this.#batchStarted < REQUEST_SLICE_MS) {
      const start = this.#waiting[this.#head++]!;
      if (this.#head === this.#waiting.length) {
        this.#waiting.length = 0;
        this.#head = 0;
      }
      start();
    }
    if (this.#batchLeft === 0 && this.#head < this.#waiting.length) this.#batch();
  };
}

/** Most connections accepted together that are handed to the server in one turn; the rest on later turns. */
const ACCEPT_BATCH = 16;

/**
 * Paces new connections: the kernel's accept queue is emptied in one turn by libuv, and each
 * connection costs the turn a socket, its first read and its request's parsing; 2,000 clients
 * connecting at once held the loop about 40 ms with nothing of fakehands' own in it (#29 finding
 * 11). Connections past `ACCEPT_BATCH` in a turn wait, in order, for the next turns (their bytes
 * wait in the kernel): counted, not timed, as their cost comes on the next turn, with their first read. Node has no public hook between accept and a connection's first
 * read: this wraps the listening handle's `onconnection` (node:net's own), and leaves a server
 * without one (another runtime) as it is.
 */
export function paceConnections(server: Server): void {
  type Handle = { onconnection?: (error: number, client: { close?: () => void }) => void };
  const handle = (server as unknown as { _handle?: Handle | null })._handle;
  const accept = handle?.onconnection;
  if (!handle || typeof accept !== 'function') return;
  let waiting: [number, { close?: () => void }][] = [];
  let head = 0;
  let handed = -1;
  const inSlice = () => {
    if (handed < 0) {
      handed = 0;
      setImmediate(() => {
        handed = -1;
      });
    }
    return handed++ < ACCEPT_BATCH;
  };
  const drain = () => {
    while (head < waiting.length && inSlice()) {
      const [error, client] = waiting[head++]!;
      if (server.listening) accept.call(handle, error, client);
      else client.close?.();
    }
    if (head < waiting.length) setImmediate(drain);
    else {
      waiting = [];
      head = 0;
    }
  };
  handle.onconnection = (error, client) => {
    if (head === waiting.length && inSlice()) return accept.call(handle, error, client);
    waiting.push([error, client]);
    if (waiting.length - head === 1) setImmediate(drain);
  };
}

/** Most new connections read at once before their first request has arrived. */
const FIRST_READS = 16;
/** How long a new connection that sends nothing keeps its place among them, in ms (a browser's preconnect, a slow client). */
const FIRST_READ_HOLD_MS = 250;

/**
 * Paces the first reads of new connections: accepted paused (`pauseOnConnect`), a connection starts
 * reading when fewer than `FIRST_READS` others are waiting for their first request, and holds its
 * place until that request (or upgrade) arrives, it closes, or `FIRST_READ_HOLD_MS` passes. Pacing
 * accepts was not enough: 2,000 clients connecting at once are accepted over many short turns
 * before they send anything, then their upgrade requests arrive together and libuv read them all
 * in one turn, 919 parsed and upgraded in it: 274 ms (#29 finding 11). Node has no public knob for
 * this; `pauseOnConnect` is `net.Server`'s own option, set on the instance. Returns what the
 * server's request listener calls with each request's socket (not a second `request` listener:
 * node:http then copies its listener list for every request).
 */
export function paceFirstReads(server: Server): (socket: Socket) => void {
  (server as unknown as { pauseOnConnect: boolean }).pauseOnConnect = true;
  /** Connections reading, waiting for their first request, with when they started (oldest first). */
  const reading = new Map<Socket, number>();
  let waiting: Socket[] = [];
  let head = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const startNext = () => {
    const now = performance.now();
    for (const [socket, since] of reading) {
      if (now - since < FIRST_READ_HOLD_MS) break;
      reading.delete(socket);
    }
    while (head < waiting.length && reading.size < FIRST_READS) {
      const socket = waiting[head++]!;
      if (socket.destroyed) continue;
      reading.set(socket, now);
      socket.resume();
    }
    if (head === waiting.length) {
      waiting = [];
      head = 0;
    } else if (!timer) {
      const oldest = reading.values().next().value ?? now;
      timer = setTimeout(
        () => {
          timer = null;
          startNext();
        },
        Math.max(1, FIRST_READ_HOLD_MS - (now - oldest)),
      );
    }
  };
  const arrived = (socket: Socket) => {
    if (reading.size > 0 && reading.delete(socket) && head < waiting.length) startNext();
  };
  server.on('connection', (socket: Socket) => {
    waiting.push(socket);
    socket.once('close', () => arrived(socket));
    startNext();
  });
  server.prependListener('upgrade', (request: IncomingMessage) => arrived(request.socket));
  return arrived;
}

/** The liveness probe: it reads nothing from the domain, so it is answered in the turn it arrives in, never behind requests waiting to start. */
export const isHealthProbe = (request: IncomingMessage) =>
  (request.method === 'GET' || request.method === 'HEAD') && request.url === '/_fakehands/health';
