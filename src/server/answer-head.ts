/**
 * The head of an answer of the standalone server: what the connection's persistence adds to the
 * route's headers (`Connection: close` once the server is closing, else the `Keep-Alive` hint on a
 * persistent HTTP/1.1 connection), given to `writeHead` at once. These were set with `setHeader`
 * when the request arrived, which sent every `writeHead` down node:http's slow path (each of the
 * answer's headers set and validated again, one by one, before the head was written); the head is
 * the same, in the same order. The persistence is a plain value the server hands along (no
 * per-answer `WeakMap` entry: each one cost V8's ephemeron write barrier and scavenger work, issue 31).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** What `Keep-Alive` advertises (a minimum, RFC 9112 leaves it a hint): undici and Node's agent let go 1 to 2 s before it, minutes before the server does. */
export const KEEP_ALIVE_HINT = 'timeout=60';

/** How an answer's connection goes on: closed by the server, kept with the hint, or left to node:http (HTTP/1.0, a client asking to close). */
export type Persistence = 'close' | 'hint' | null;

/** A client's `Connection: close` (a token of the header's list). */
const CLOSE_TOKEN = /\bclose\b/i;

/** How the answer to `request` goes on, decided when it arrives (`closing`: the server is closing). */
export function persistenceOf(request: IncomingMessage, closing: boolean): Persistence {
  // Once closing, every answer closes its connection; until then, a persistent one says how long it may idle.
  if (closing) return 'close';
  const connection = request.headers.connection;
  return request.httpVersion === '1.1' && (connection === undefined || !CLOSE_TOKEN.test(connection)) ? 'hint' : null;
}

/** Writes the head of `response`: `headers` after what the connection's `persistence` adds (no hint on an answer that closes it). */
export function writeAnswerHead(response: ServerResponse, status: number, headers: OutgoingHttpHeaders, persistence: Persistence): void {
  if (persistence === 'close') response.writeHead(status, { connection: 'close', ...headers });
  else if (persistence === 'hint' && headers.connection !== 'close')
    response.writeHead(status, { 'keep-alive': KEEP_ALIVE_HINT, ...headers });
  else response.writeHead(status, headers);
}

/**
 * Writes the head of the usual answer (a kept connection, no CORS, a whole body of `length` bytes):
 * the same head as `writeAnswerHead` with `content-length` last, given to `writeHead` as a flat
 * list, with no object spread or copy made; `false` (nothing written) for any other answer.
 */
export function writeKeptHead(response: ServerResponse, status: number, headers: Record<string, string>, length: number): boolean {
  const head: string[] = ['keep-alive', KEEP_ALIVE_HINT];
  for (const name in headers) {
    if (!Object.hasOwn(headers, name)) continue;
    // A header the persistence or the length decide (or one a route set itself) goes the general way.
    if (name === 'keep-alive' || name === 'connection' || name === 'content-length' || name === 'transfer-encoding') return false;
    head.push(name, headers[name]!);
  }
  head.push('content-length', String(length));
  response.writeHead(status, head);
  return true;
}
