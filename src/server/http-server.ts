/**
 * The standalone server, a pure adapter: each `node:http` request goes to the same pipeline the
 * msw handlers use (API, control API and OpenAPI document alike); the server adds only what a
 * socket needs: CORS, a body size limit, a request log, the state file and a clean shutdown.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FakeCore } from '../fake.js';
import { isStreamed, type AnswerBody } from '../http/responses.js';
import { type CorsPolicy, corsHeaders, originAllowed, originRefused, preflightHeaders } from './cors.js';
import { hostAllowed } from './host-check.js';
import { BodyReadError, Semaphore } from './request-body.js';
import { ServerRequest, requestUrl } from './server-request.js';
import type { StateFileWriter } from './state-file.js';
import { serveSocketUpgrades } from './socket-upgrades.js';
import { RequestGate, isHealthProbe, paceConnections, paceFirstReads } from './pacing.js';
import { type Persistence, persistenceOf, writeAnswerHead, writeKeptHead } from './answer-head.js';

import { MAX_SOCKET_FRAME_BYTES } from '../surfaces/agent-server/socket-frames.js';

export { MAX_SOCKET_FRAME_BYTES };
/** Largest request body accepted by default: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Longest a body may take to arrive by default, in milliseconds. */
export const BODY_TIMEOUT_MS = 10_000;
/** Longest the headers of a request may take to arrive by default, in milliseconds. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How many bodies are read at once by default. */
export const BODY_CONCURRENCY = 4;
/**
 * How many connections may wait to be accepted (the kernel caps it at `net.core.somaxconn`, 4096 on
 * Linux since 5.4). Node's default, 511, was too few: 3,000 clients connecting at once to a server
 * busy on two loaded cores overflowed it, the kernel dropped their handshakes, and after its SYN-ACK
 * retries (about 30 s) reset them: `ECONNRESET` in the client (#29 finding 17).
 */
export const LISTEN_BACKLOG = 4096;
/**
 * How long an idle keep-alive connection is kept, in milliseconds (Node adds a second): longer than
 * clients keep theirs (browsers up to 5 min, undici and Node's agent what the server advertises), so
 * the server never closes a connection a client is about to reuse. At Node's default (5 s advertised,
 * 6 s held) a starved client that read an answer 3 s late still thought the connection alive when it
 * closed, and its next request failed: `other side closed` (#29 finding 17).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 300_000;
export { KEEP_ALIVE_HINT } from './answer-head.js';

/** One line of the request log. Never holds a header, so never a key or token. */
export interface RequestLogLine {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  /** Why it missed (a 404 no route has, a 405, a 422), in one line: the nearest routes, the methods allowed, the fields refused. */
  miss?: string;
}

/** Options of the standalone server. */
export interface FakeServerOptions {
  /** Which browser origins may call it (default: any localhost origin). */
  cors?: CorsPolicy;
  /** Called once per answered request. */
  log?: (line: RequestLogLine) => void;
  /** Where to write the state after every change (before the change is answered). */
  stateFile?: StateFileWriter;
  /** Host names served besides the loopback ones (`*`: any); others get 421. */
  allowedHosts?: readonly string[];
  /** Largest request body, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Longest a body may take to arrive, in milliseconds (default 10 s); slower clients get 408 and are closed. */
  bodyTimeoutMs?: number;
  /** Longest the headers may take, in milliseconds (default 10 s). */
  headersTimeoutMs?: number;
  /** How many bodies are read at once (default 4). */
  bodyConcurrency?: number;
  /**
   * Which mounted origin this listener serves (default: the base URL's): the standalone server runs
   * one listener for the app server and one for the agent host (`agentUrl`).
   */
  origin?: string;
  /** Where a 5xx is reported (with its request id), besides the request log and the journal. */
  onError?: (line: { request_id: string; method: string; path: string; error: string }) => void;
}

/** A running standalone server. */
export interface FakeServer {
  /** The node:http server. */
  readonly server: Server;
  /** Starts listening; resolves with the URL actually bound (the real port when 0 was asked). */
  listen(port: number, host: string): Promise<string>;
  /** Stops accepting, lets in-flight requests finish, then writes the state file one last time. */
  close(): Promise<void>;
}

/** Largest unread body (of a declared length) that is drained rather than answered with a closed connection. */
const DRAINED_BODY_BYTES = 64 * 1024;

/** The id a 5xx is reported with: the process and the request's number, made only when one is reported. */
const requestIdOf = (n: number) => `req-${process.pid.toString(36)}-${n.toString(36)}`;

/** A JSON error answer in the documented shape. */
const detailBody = (detail: string) => JSON.stringify({ detail });
/** The head of an error answer, and of one that closes its connection. */
const ERROR_HEAD: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
const CLOSING_ERROR_HEAD: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json', connection: 'close' });

/**
 * The last answer each connection started, kept on its socket: a parse error after it waits for it
 * to be written. Pipelined requests are answered in order (node:http writes an answer only after the
 * ones before it), so the last one finishing means every one has. A property, not a `WeakMap`
 * entry per request (V8's ephemeron write barrier, issue 31).
 */
const LAST_ANSWER = Symbol('fakehands.lastAnswer');

/**
 * Creates the standalone server over a fake.
 * @example
 * const fake = await createFake({ clock: 'system' })
 * const server = createFakeServer(fake)
 * const url = await server.listen(0, '127.0.0.1')
 */
export function createFakeServer(fake: FakeCore, options: FakeServerOptions = {}): FakeServer {
  const cors = options.cors ?? 'localhost';
  const base = new URL(options.origin ?? fake.options.baseUrl);
  const baseOrigin = base.origin;
  const stateFile = options.stateFile;
  const allowedHosts = options.allowedHosts ?? [];
  const limits = {
    maxBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    timeoutMs: options.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
    concurrency: options.bodyConcurrency ?? BODY_CONCURRENCY,
  };
  const bodies = new Semaphore(limits.concurrency);
  let requestCount = 0;
  if (stateFile) fake.onChange((changes, state) => stateFile.record(changes, state));

  /** The Host header last found served: a client sends the same one with every request, checked once. */
  let servedHost: string | undefined;
  const hostServed = (host: string | undefined): boolean => {
    if (host === undefined) return false;
    if (host === servedHost) return true;
    if (!hostAllowed(host, allowedHosts)) return false;
    servedHost = host;
    return true;
  };
  const log = options.log;
  /** The request log's line of an answer (only when a log is asked for). */
  const logAnswer = (request: ServerRequest, rawUrl: string, status: number) => {
    if (!log) return;
    const duration = Math.round((performance.now() - request.started) * 1000) / 1000;
    const line: RequestLogLine = { method: request.method, path: rawUrl.split('?')[0]!, status, duration_ms: duration };
    if (request.miss !== undefined) line.miss = request.miss;
    log(line);
  };
  /** Writes an answer: its head (with CORS and the connection's persistence) and its body, whole or streamed. */
  const finish = (request: ServerRequest, rawUrl: string, status: number, headers: Record<string, string>, body: AnswerBody | null) => {
    const { response, allowedOrigin, method } = request;
    const head = allowedOrigin ? { ...headers, ...corsHeaders(allowedOrigin, cors) } : headers;
    if (!isStreamed(body)) {
      // A whole body goes with its length: head and body leave in one write, not as chunks.
      if (
        body !== null &&
        method !== 'HEAD' &&
        status !== 204 &&
        status !== 304 &&
        !('content-length' in head || 'transfer-encoding' in head)
      ) {
        const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
        if (allowedOrigin || request.persistence !== 'hint' || !writeKeptHead(response, status, head, length))
          writeAnswerHead(response, status, { ...head, 'content-length': String(length) }, request.persistence);
      } else writeAnswerHead(response, status, head, request.persistence);
      response.end(body ?? undefined);
      logAnswer(request, rawUrl, status);
      return;
    }
    // A streamed body: each piece is written (and flushed) as it is produced.
    writeAnswerHead(response, status, head, request.persistence);
    void (async () => {
      try {
        for await (const piece of body) {
          if (response.destroyed) break;
          // A slow reader holds the next piece back rather than the server's memory (#29 finding 11: 82 MB downloads).
          if (!response.write(piece)) {
            await new Promise<void>((resolve) => {
              const done = () => {
                response.off('drain', done);
                response.off('close', done);
                resolve();
              };
              response.once('drain', done);
              response.once('close', done);
            });
          }
        }
      } finally {
        response.end();
        logAnswer(request, rawUrl, status);
      }
    })();
  };
  /** Answers with an error in the documented shape (closing the connection when `close`). */
  const refuse = (request: ServerRequest, rawUrl: string, status: number, detail: string, close = false) =>
    finish(request, rawUrl, status, close ? CLOSING_ERROR_HEAD : ERROR_HEAD, detailBody(detail));

  /** Answers one request; whatever it throws is a 500 with a request id (one async function, no closure made per request). */
  const handle = async (message: IncomingMessage, response: ServerResponse, persistence: Persistence): Promise<void> => {
    const requestNumber = ++requestCount;
    try {
      const method = (message.method ?? 'GET').toUpperCase();
      const rawUrl = message.url ?? '/';
      const headers = message.headers;
      const origin = headers.origin;
      const allowedOrigin = typeof origin === 'string' && originAllowed(cors, origin) ? origin : null;
      const request = new ServerRequest(message, response, persistence, method, allowedOrigin, log ? performance.now() : 0, limits, bodies);

      if (!hostServed(headers.host))
        return refuse(
          request,
          rawUrl,
          421,
          'Misdirected Request: this host name is not served (fakehands serves loopback names; add others with --allowed-host)',
        );

      // A browser asks every origin for its icon (the inspector's tab too): answered empty, so it is neither a 404 nor in the request journal.
      if ((method === 'GET' || method === 'HEAD') && rawUrl.startsWith('/favicon.ico') && rawUrl.split('?')[0] === '/favicon.ico') {
        writeAnswerHead(response, 204, { 'cache-control': 'public, max-age=86400' }, persistence);
        response.end();
        return;
      }

      if (method === 'OPTIONS' && headers['access-control-request-method']) {
        if (!allowedOrigin) return finish(request, rawUrl, 400, { 'content-type': 'text/plain' }, 'Disallowed CORS origin');
        writeAnswerHead(response, 204, preflightHeaders(allowedOrigin, headers['access-control-request-headers'], cors), persistence);
        response.end();
        logAnswer(request, rawUrl, 204);
        return;
      }

      // A body declared larger than the limit is refused (413) when the route reads it, after routing
      // and the key check (a route may take more: a recorded session's archive); one nobody reads is never buffered.
      const declared = Number(headers['content-length'] ?? 0);

      // Parsed once (a plain path without `URL`): the pipeline reads this URL rather than parsing its text again.
      const url = requestUrl(baseOrigin, rawUrl);
      if (url === null) return refuse(request, rawUrl, 404, 'Not Found');
      request.parsedUrl = url;
      if (typeof origin === 'string' && !allowedOrigin) {
        const control = fake.mounts.find(url)?.mount.surface.name === 'control';
        if (originRefused(cors, origin, headers.host, method, control)) {
          return refuse(
            request,
            rawUrl,
            403,
            'Forbidden: requests from this origin may not change the fake or reach its control API (allow the origin with --cors ORIGIN)',
            declared > 0,
          );
        }
      }
      let answer;
      try {
        answer = await fake.answer(request);
      } catch (error) {
        if (!(error instanceof BodyReadError)) throw Object.assign(error as Error, { requestId: requestIdOf(requestNumber) });
        if (error.status === 0) return;
        refuse(request, rawUrl, error.status, error.message, true);
        response.once('finish', () => message.socket.destroy());
        return;
      }
      request.miss = answer.miss;
      if (answer.networkError) {
        // An injected network error: drop the connection without an answer.
        logAnswer(request, rawUrl, 0);
        message.socket.destroy();
        return;
      }
      // A body nobody read (a 401, a 404) is not buffered: a small one of known length is drained and
      // discarded (the client, still sending it, keeps its connection), a big or chunked one closes it.
      const unread = !request.bodyAsked && (declared > 0 || headers['transfer-encoding'] !== undefined);
      if (unread && headers['transfer-encoding'] === undefined && declared <= DRAINED_BODY_BYTES) {
        message.resume();
        finish(request, rawUrl, answer.status, answer.headers, answer.body);
        return;
      }
      finish(request, rawUrl, answer.status, unread ? { ...answer.headers, connection: 'close' } : answer.headers, answer.body);
      if (unread) response.once('finish', () => message.socket.destroy());
    } catch (error) {
      // Any 5xx is logged and journaled with a request id, so it can be found and reported.
      const requestId = (error as { requestId?: string }).requestId ?? requestIdOf(++requestCount);
      const path = (message.url ?? '/').split('?')[0]!;
      const method = (message.method ?? 'GET').toUpperCase();
      options.onError?.({ request_id: requestId, method, path, error: (error as Error).message });
      fake.journal.record({ method, path, query: '', status: 500, duration_ms: 0 });
      if (response.headersSent || response.destroyed) return;
      writeAnswerHead(response, 500, { 'content-type': 'application/json', 'x-request-id': requestId }, persistence);
      response.end(JSON.stringify({ detail: `Internal Server Error (request id ${requestId})` }));
    }
  };

  let closing = false;
  /** Notes that a connection's first request arrived (`paceFirstReads`, once listening). */
  let firstRequest: ((socket: Socket) => void) | null = null;
  const server = createServer(
    {
      // An idle keep-alive connection is not waiting for headers: the headers timeout starts with a request's first byte.
      headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: 0,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    },
    (request, response) => {
      const socket = request.socket as Socket & { [LAST_ANSWER]?: ServerResponse };
      socket[LAST_ANSWER] = response;
      firstRequest?.(socket);
      const persistence = persistenceOf(request, closing);
      if (isHealthProbe(request) || requests.startsNow()) void handle(request, response, persistence);
      else
        requests.admit(() => {
          // A client that went away while its request waited its turn: nothing to answer.
          if (request.destroyed) response.destroy();
          else void handle(request, response, persistence);
        });
    },
  );
  const requests = new RequestGate();
  // Requests the HTTP parser refuses (headers too large, an unknown method) get the documented JSON shape, not Node's bare text.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, text] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
    const payload = detailBody(text as string);
    const refuse = () => {
      if (socket.writable)
        socket.end(
          `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
        );
      else socket.destroy();
    };
    // A request before the bad bytes on this connection was carried out: its answer goes first.
    const pending = (socket as Socket & { [LAST_ANSWER]?: ServerResponse })[LAST_ANSWER];
    if (pending && !pending.writableFinished && !pending.destroyed) {
      let refused = false;
      const once = () => {
        if (refused) return;
        refused = true;
        refuse();
      };
      pending.once('finish', once);
      pending.once('close', once);
    } else refuse();
  });

  // WebSockets: each surface's socket routes, upgraded on `ws` (`socket-upgrades.ts`).
  const upgrades = serveSocketUpgrades(server, fake, { base, cors, allowedHosts });

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
          server.off('error', reject);
          paceConnections(server);
          firstRequest = paceFirstReads(server);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(`http://${shownHost}:${address.port}`);
        });
      });
    },
    close() {
      closing = true;
      upgrades.terminateAll();
      return new Promise((resolve) => {
        // A connection whose answer was in flight becomes idle when it is written: idle ones are closed until the server is.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          void (options.stateFile?.close() ?? Promise.resolve()).then(() => resolve());
        });
        server.closeIdleConnections();
      });
    },
  };
}
