/**
 * The head of an answer of the standalone server: what the connection's persistence adds to the
 * route's headers (`Connection: close` once the server is closing, else the `Keep-Alive` hint on a
 * persistent HTTP/1.1 connection), given to `writeHead` as one object. These were set with
 * `setHeader` when the request arrived, which sent every `writeHead` down node:http's slow path
 * (each of the answer's headers set and validated again, one by one, before the head was written);
 * the head is the same, in the same order.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** What `Keep-Alive` advertises (a minimum, RFC 9112 leaves it a hint): undici and Node's agent let go 1 to 2 s before it, minutes before the server does. */
export const KEEP_ALIVE_HINT = 'timeout=60';

/** How an answer's connection goes on: closed by the server, kept with the hint, or left to node:http (HTTP/1.0, a client asking to close). */
type Persistence = 'close' | 'hint' | null;

const persistenceOf = new WeakMap<ServerResponse, Persistence>();

/** Notes, when the request arrives, how its answer's connection goes on (`closing`: the server is closing). */
export function notePersistence(request: IncomingMessage, response: ServerResponse, closing: boolean): void {
  // Once closing, every answer closes its connection; until then, a persistent one says how long it may idle.
  if (closing) persistenceOf.set(response, 'close');
  else if (request.httpVersion === '1.1' && !/\bclose\b/i.test(request.headers.connection ?? '')) persistenceOf.set(response, 'hint');
}

/** Writes the head of `response`: `headers` after what the connection's persistence adds (no hint on an answer that closes it). */
export function writeAnswerHead(response: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  const persistence = persistenceOf.get(response);
  if (persistence === 'close') response.writeHead(status, { connection: 'close', ...headers });
  else if (persistence === 'hint' && headers.connection !== 'close')
    response.writeHead(status, { 'keep-alive': KEEP_ALIVE_HINT, ...headers });
  else response.writeHead(status, headers);
}
