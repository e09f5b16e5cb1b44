/**
 * The standalone server, a pure adapter: each `node:http` request goes to the same pipeline the
 * msw handlers use (API, control API and OpenAPI document alike); the server adds only what a
 * socket needs: CORS, a body size limit, a request log, the state file and a clean shutdown.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeCore as Fake } from '../fake.js';
import { isStreamed, type AnswerBody, type RequestLike } from '../http/responses.js';
import { type CorsPolicy, corsHeaders, originAllowed, preflightHeaders } from './cors.js';
import type { StateFileWriter } from './state-file.js';

/** Largest request body accepted: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;
const TOO_LARGE_BODY = JSON.stringify({ detail: 'Request body too large' });

/** One line of the request log. Never holds a header, so never a key or token. */
export interface RequestLogLine {
  method: string;
  path: string;
  status: number;
  duration_ms: number;
}

/** Options of the standalone server. */
export interface FakeServerOptions {
  /** Which browser origins may call it (default: any localhost origin). */
  cors?: CorsPolicy;
  /** Called once per answered request. */
  log?: (line: RequestLogLine) => void;
  /** Where to write the state after every change (before the change is answered). */
  stateFile?: StateFileWriter;
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

/** A light request over a node:http message and its body, read by the same pipeline as a Fetch `Request`. */
function toRequestLike(message: IncomingMessage, url: string, body: Buffer): RequestLike {
  return {
    method: (message.method ?? 'GET').toUpperCase(),
    url,
    headers: {
      get(name) {
        const value = message.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    text: async () => body.toString('utf8'),
  };
}

/** Reads the body, or `null` (after answering 413) when it is larger than the limit. */
function readBody(request: IncomingMessage, response: ServerResponse, reject: () => void): Promise<Buffer | null> {
  return new Promise((resolve, fail) => {
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      reject();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let stopped = false;
    request.on('data', (chunk: Buffer) => {
      if (stopped) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        stopped = true;
        request.pause();
        reject();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!stopped) resolve(Buffer.concat(chunks));
    });
    request.on('error', (error) => {
      if (!stopped) fail(error);
    });
    response.on('close', () => {
      if (!stopped && !request.complete) fail(new Error('client went away'));
    });
  });
}

/**
 * Creates the standalone server over a fake.
 * @example
 * const fake = await createFake({ clock: 'system' })
 * const server = createFakeServer(fake)
 * const url = await server.listen(0, '127.0.0.1')
 */
export function createFakeServer(fake: Fake, options: FakeServerOptions = {}): FakeServer {
  const cors = options.cors ?? 'localhost';
  const base = new URL(fake.options.baseUrl);
  const stateFile = options.stateFile;
  if (stateFile) fake.onChange((_changes, state) => stateFile.write(state.snapshot()));

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const started = performance.now();
    const method = (request.method ?? 'GET').toUpperCase();
    const rawUrl = request.url ?? '/';
    const origin = request.headers.origin;
    const allowedOrigin = typeof origin === 'string' && originAllowed(cors, origin) ? origin : null;
    const pathname = rawUrl.split('?')[0]!;
    const logAnswer = (status: number) => options.log?.({ method, path: pathname, status, duration_ms: Math.round((performance.now() - started) * 1000) / 1000 });
    const finish = (status: number, headers: Record<string, string>, body: AnswerBody | null) => {
      response.writeHead(status, { ...headers, ...(allowedOrigin ? corsHeaders(allowedOrigin) : {}) });
      if (!isStreamed(body)) {
        response.end(body ?? undefined);
        logAnswer(status);
        return;
      }
      // A streamed body: each piece is written (and flushed) as it is produced.
      void (async () => {
        try {
          for await (const piece of body) {
            if (response.destroyed) break;
            response.write(piece);
          }
        } finally {
          response.end();
          logAnswer(status);
        }
      })();
    };

    if (method === 'OPTIONS' && request.headers['access-control-request-method']) {
      if (!allowedOrigin) return finish(400, { 'content-type': 'text/plain' }, 'Disallowed CORS origin');
      response.writeHead(204, preflightHeaders(allowedOrigin));
      response.end();
      logAnswer(204);
      return;
    }

    const body = await readBody(request, response, () => {
      response.writeHead(413, { 'content-type': 'application/json', connection: 'close', ...(allowedOrigin ? corsHeaders(allowedOrigin) : {}) });
      response.end(TOO_LARGE_BODY, () => request.socket.destroy());
      logAnswer(413);
    });
    if (body === null) return;

    let absolute = `${base.origin}${rawUrl}`;
    if (!rawUrl.startsWith('/') || !URL.canParse(absolute)) {
      // An absolute-form or odd request target: resolve it the slow way, or answer 404.
      if (!URL.canParse(rawUrl, base.origin)) return finish(404, { 'content-type': 'application/json' }, '{"detail":"Not Found"}');
      absolute = new URL(rawUrl, base.origin).href;
    }
    const answer = await fake.answer(toRequestLike(request, absolute, body));
    if (answer.networkError) {
      // An injected network error: drop the connection without an answer.
      logAnswer(0);
      request.socket.destroy();
      return;
    }
    finish(answer.status, answer.headers, answer.body);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent || response.destroyed) return;
      const aborted = error instanceof Error && error.message === 'client went away';
      if (aborted) return;
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ detail: 'Internal Server Error' }));
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  return {
    server,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
          resolve(`http://${shownHost}:${address.port}`);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => {
          void (options.stateFile?.flush() ?? Promise.resolve()).then(() => resolve());
        });
        server.closeIdleConnections();
      });
    },
  };
}
