/**
 * A forwarding proxy in front of one server: every request is sent on as it came (method, path,
 * query, headers but the hop-by-hop ones, body streamed) and its answer streamed back as it came;
 * every WebSocket upgrade is opened to the target first (with the client's headers and
 * subprotocols) and then accepted, its frames passed both ways unchanged (text stays text, binary
 * binary; close codes and reasons too). A refused upgrade answers the client as the target did.
 * Each exchange and socket is handed to the caller with its bodies (up to `CAPTURE_BYTES` each);
 * a target that cannot be reached answers 502 `{"detail": ...}` (FastAPI's error body), and what
 * is never sent on is refused first (`forward.ts`).
 */
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { REWRITE_BYTES } from './handed-out.js';
import { HOP_BY_HOP, badGateway, forwardUrl, forwardable, isHandshake, pairsOf, rawAnswer, refusal } from './forward.js';

/** Most bytes of one body handed to the caller; a longer body is forwarded whole and handed on without its bytes. */
export const CAPTURE_BYTES = 8 * 1024 * 1024;

/** One exchange, forwarded. */
export interface ProxiedExchange {
  method: string;
  /** The path and query the client asked for. */
  path: string;
  requestHeaders: [string, string][];
  /** The body (`null`: longer than `CAPTURE_BYTES`); its size either way. */
  requestBody: Buffer | null;
  requestSize: number;
  status: number;
  statusText: string;
  responseHeaders: [string, string][];
  responseBody: Buffer | null;
  responseSize: number;
  startedAt: number;
  durationMs: number;
  /** Why the target did not answer (then the status is the proxy's 502). */
  error?: string;
}

/** One WebSocket frame, as it passed. */
export interface ProxiedFrame {
  type: 'send' | 'receive';
  time: number;
  binary: boolean;
  data: Buffer;
}

/** One socket, forwarded (or refused). */
export interface ProxiedSocket {
  path: string;
  requestHeaders: [string, string][];
  status: number;
  responseHeaders: [string, string][];
  frames: ProxiedFrame[];
  startedAt: number;
  /** Whether it was closed already when handed on (else the recorder stopped first). */
  closed: boolean;
  error?: string;
}

/** What the proxy tells its caller. */
export interface ProxyHooks {
  /** An exchange ended (its answer sent). */
  exchange(exchange: ProxiedExchange): void;
  /** A socket was opened both ways (its frames follow). */
  opened?(socket: ProxiedSocket): void;
  /** A socket ended, or was refused. */
  socket(socket: ProxiedSocket): void;
  /** A frame passed on an open socket: what to keep of it in the socket's record (`null`: nothing). */
  frame(socket: ProxiedSocket, frame: ProxiedFrame): ProxiedFrame | null;
  /** The target could not be reached. */
  unreachable(error: string): void;
  /** The target answered. */
  reachable(): void;
  /**
   * A JSON answer (up to `REWRITE_BYTES`), before it is sent on: the body the client gets instead
   * (decoded: the answer loses its `content-encoding`), or `null` to send it on as it came. `host`
   * is the Host the client asked for. The exchange handed on keeps the target's own body.
   */
  rewrite?(body: Buffer, headers: readonly [string, string][], host: string | undefined): Promise<Buffer | null>;
}

/** A JSON document's media type (`application/json`, `application/problem+json`), not a stream of them. */
const JSON_DOCUMENT = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** A close code a peer may send (1005, 1006 and 1015 only ever describe a close). */
const sendable = (code: number) => (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);

/** A body collected up to `CAPTURE_BYTES` while it streams. */
class Capture {
  private chunks: Buffer[] = [];
  size = 0;
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= CAPTURE_BYTES) this.chunks.push(chunk);
    else this.chunks = [];
  }
  get body(): Buffer | null {
    return this.size <= CAPTURE_BYTES ? Buffer.concat(this.chunks) : null;
  }
}

/** A running proxy. */
export interface Proxy {
  /** Where it listens (`http://HOST:PORT`). */
  url: string;
  /** Stops listening and closes every connection and socket; resolves with the sockets that were still open, as recorded so far. */
  close(): Promise<ProxiedSocket[]>;
}

/**
 * Starts a proxy to `target` on `host:port` (0: a free port).
 * @example
 * const proxy = await startProxy({ target: new URL('http://127.0.0.1:8000'), host: '127.0.0.1', port: 0, hooks })
 */
export async function startProxy(options: {
  target: URL;
  host: string;
  port: number;
  hooks: ProxyHooks;
  /** Host names served besides loopback ones (`*`: any); others get 421, against DNS rebinding. */
  allowedHosts?: readonly string[];
}): Promise<Proxy> {
  const { target, hooks } = options;
  const allowedHosts = options.allowedHosts ?? [];
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const sockets = new Map<ProxiedSocket, { client?: WebSocket; upstream: WebSocket }>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });

  const server: Server = createServer((req, res) => {
    const refused = refusal(req, target, allowedHosts);
    if (refused) {
      req.resume();
      res.writeHead(refused.status, refused.reason, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(refused.body),
        connection: 'close',
      });
      res.end(refused.body);
      return;
    }
    const startedAt = Date.now();
    const requestHeaders = pairsOf(req.rawHeaders);
    const sent = new Capture();
    const got = new Capture();
    let done = false;
    const finish = (status: number, statusText: string, responseHeaders: [string, string][], error?: string) => {
      if (done) return;
      done = true;
      hooks.exchange({
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        requestHeaders,
        requestBody: sent.body,
        requestSize: sent.size,
        status,
        statusText,
        responseHeaders,
        responseBody: got.body,
        responseSize: got.size,
        startedAt,
        durationMs: Date.now() - startedAt,
        ...(error ? { error } : {}),
      });
    };
    const upstream = send(
      forwardUrl(target, req.url ?? '/')!,
      { method: req.method, headers: { ...forwardable(requestHeaders), host: target.host } },
      (answer) => {
        hooks.reachable();
        const responseHeaders = pairsOf(answer.rawHeaders);
        const headers: [string, string][] = responseHeaders.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()));
        const status = answer.statusCode ?? 502;
        // A JSON document is held until it ends, to be rewritten (a stream of them, NDJSON, is not); a longer one goes on as it came from there.
        let held: Buffer[] | null = hooks.rewrite && JSON_DOCUMENT.test(answer.headers['content-type'] ?? '') ? [] : null;
        let heldSize = 0;
        if (held === null) res.writeHead(status, answer.statusMessage, headers.flat());
        answer.on('data', (chunk: Buffer) => {
          got.add(chunk);
          if (held === null) {
            res.write(chunk);
            return;
          }
          held.push(chunk);
          heldSize += chunk.length;
          if (heldSize > REWRITE_BYTES) {
            res.writeHead(status, answer.statusMessage, headers.flat());
            res.write(Buffer.concat(held));
            held = null;
          }
        });
        answer.on('end', async () => {
          if (held !== null) {
            const body = Buffer.concat(held);
            const rewritten = await hooks.rewrite!(body, responseHeaders, req.headers.host).catch(() => null);
            if (rewritten === null) {
              res.writeHead(status, answer.statusMessage, headers.flat());
              res.end(body);
            } else {
              const kept = headers.filter(([name]) => !/^content-(length|encoding)$/i.test(name));
              res.writeHead(status, answer.statusMessage, [...kept, ['content-length', String(rewritten.length)]].flat());
              res.end(rewritten);
            }
          } else res.end();
          finish(status, answer.statusMessage ?? '', responseHeaders);
        });
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code ?? error.message;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      hooks.unreachable(reason);
      const body = badGateway(target.origin, reason);
      got.add(Buffer.from(body));
      const headers: [string, string][] = [
        ['content-type', 'application/json'],
        ['content-length', String(Buffer.byteLength(body))],
      ];
      res.writeHead(502, 'Bad Gateway', headers.flat());
      res.end(body);
      finish(502, 'Bad Gateway', headers, reason);
    });
    req.on('data', (chunk: Buffer) => {
      sent.add(chunk);
      upstream.write(chunk);
    });
    req.on('end', () => upstream.end());
    req.on('error', () => upstream.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const refused =
      refusal(req, target, allowedHosts) ??
      (isHandshake(req)
        ? null
        : { status: 400, reason: 'Bad Request', body: JSON.stringify({ detail: 'Bad Request: not a WebSocket handshake' }) });
    if (refused) {
      socket.end(rawAnswer(refused.status, refused.reason, refused.body));
      return;
    }
    const requestHeaders = pairsOf(req.rawHeaders);
    const record: ProxiedSocket = {
      path: req.url ?? '/',
      requestHeaders,
      status: 0,
      responseHeaders: [],
      frames: [],
      startedAt: Date.now(),
      closed: false,
    };
    const protocols = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const wsTarget = forwardUrl(target, req.url ?? '/')!;
    wsTarget.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
    const upstream = new WebSocket(wsTarget, protocols, {
      headers: forwardable(requestHeaders, (name) => name.startsWith('sec-websocket-')) as Record<string, string>,
      perMessageDeflate: false,
      maxPayload: 64 * 1024 * 1024,
    });
    const entry: { client?: WebSocket; upstream: WebSocket } = { upstream };
    sockets.set(record, entry);
    const ended = () => {
      if (!sockets.has(record)) return;
      sockets.delete(record);
      record.closed = true;
      hooks.socket(record);
    };
    socket.on('error', () => upstream.terminate());
    // A client gone before the target answered: the target's socket is closed too.
    socket.on('close', () => {
      if (!entry.client) upstream.terminate();
    });
    upstream.on('upgrade', (answer) => {
      record.status = answer.statusCode ?? 101;
      record.responseHeaders = pairsOf(answer.rawHeaders);
    });
    upstream.on('unexpected-response', (_request, answer) => {
      hooks.reachable();
      record.status = answer.statusCode ?? 502;
      record.responseHeaders = pairsOf(answer.rawHeaders);
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers = record.responseHeaders.filter(
          ([name]) => !HOP_BY_HOP.has(name.toLowerCase()) && name.toLowerCase() !== 'content-length',
        );
        socket.write(
          `HTTP/1.1 ${record.status} ${answer.statusMessage ?? ''}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}content-length: ${body.length}\r\nconnection: close\r\n\r\n`,
        );
        socket.end(body);
        ended();
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (entry.client) return entry.client.terminate();
      const reason = error.code ?? error.message;
      hooks.unreachable(reason);
      const body = badGateway(target.origin, reason);
      record.status = 502;
      record.error = reason;
      record.responseHeaders = [['content-type', 'application/json']];
      if (socket.writable) socket.end(rawAnswer(502, 'Bad Gateway', body));
      ended();
    });
    upstream.on('open', () => {
      hooks.reachable();
      wss.handleUpgrade(req, socket, head, (client) => {
        entry.client = client;
        hooks.opened?.(record);
        const pass = (type: 'send' | 'receive', to: WebSocket) => (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => {
          const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
          const frame: ProxiedFrame = { type, time: Date.now() / 1000, binary, data: bytes };
          const kept = hooks.frame(record, frame);
          if (kept) record.frames.push(kept);
          if (to.readyState === WebSocket.OPEN) to.send(bytes, { binary });
        };
        client.on('message', pass('send', upstream));
        upstream.on('message', pass('receive', client));
        const closeOther = (other: WebSocket) => (code: number, reason: Buffer) => {
          if (other.readyState === WebSocket.OPEN) other.close(sendable(code) ? code : undefined, sendable(code) ? reason : undefined);
          else if (other.readyState === WebSocket.CONNECTING) other.terminate();
          ended();
        };
        client.on('close', closeOther(upstream));
        upstream.on('close', closeOther(client));
        client.on('error', () => upstream.terminate());
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as { port: number };
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: async () => {
      const open = [...sockets];
      sockets.clear();
      for (const [, { client, upstream }] of open) {
        client?.terminate();
        upstream.terminate();
      }
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      wss.close();
      return open.map(([record]) => record);
    },
  };
}
