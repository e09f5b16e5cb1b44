/**
 * A small ingress for Agent Canvas's pre-built page: serves its `build/` folder (the page for any
 * path that names no file) and forwards the local backend's prefixes (`/api`, `/sockets`,
 * `/server_info`, …) to an agent server, HTTP and WebSocket alike, as Canvas's own static server
 * does. Hand-written (node:http and node:net, about a hundred lines) rather than Canvas's script,
 * which needs its own dependencies installed, or a proxy library the fake does not otherwise need.
 * Its index.html registers the backends: the agent host as local backend and, when given, the app
 * server as a cloud backend.
 *
 * Only loopback Host names on its own port (and names given with `--allowed-host`) are served; any
 * other Host gets 421, as the fake's listeners answer it, so a page reached through DNS rebinding
 * never reads the keys in index.html. Forwarded requests keep the browser's Host header, so the
 * agent host's own Host check sees it too.
 */
import { readFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

/** Where the page's own agent server answers: the prefixes Canvas's static server forwards to it. */
export const LOCAL_BACKEND_PREFIXES = [
  '/api',
  '/sockets',
  '/server_info',
  '/health',
  '/ready',
  '/alive',
  '/docs',
  '/redoc',
  '/openapi.json',
] as const;
/** The automation service's prefix: a separate service the fake does not serve (answered 404 here). */
export const AUTOMATION_PREFIX = '/api/automation';
/** The automation service's list (`AutomationsResponse`), which Agent Canvas's home page reads on a local backend. */
const AUTOMATION_LIST = `${AUTOMATION_PREFIX}/v1`;
/** An empty `AutomationsResponse`. */
const EMPTY_AUTOMATIONS = JSON.stringify({ automations: [], total: 0 });
/** The id of the cloud backend the ingress registers. */
export const CLOUD_BACKEND_ID = 'fakehands-cloud';

/** Options of the ingress. */
export interface CanvasIngressOptions {
  /** Agent Canvas's `build/` folder. */
  buildDir: string;
  /** The agent server the local backend's prefixes go to, e.g. `http://127.0.0.1:8000`. */
  agentUrl: string;
  /** The key the page sends to the agent server (`X-Session-API-Key`). */
  sessionApiKey: string;
  /** The app server registered as a cloud backend (absent: none is registered). */
  cloud?: { url: string; apiKey: string; name?: string };
  /** Port (default 0: a free one). */
  port?: number;
  /** Interface (default 127.0.0.1). */
  host?: string;
  /** Host names served besides the loopback ones (`--allowed-host`; `*`: any); others get 421. */
  allowedHosts?: readonly string[];
  /**
   * Keep the page offline (default true): a Content-Security-Policy lets it reach its own origin and
   * loopback hosts only (the fake), so the fonts, icons, telemetry and version checks it would fetch
   * from other hosts are never requested, and its style sheets' imports of web fonts are left out.
   */
  offline?: boolean;
}

/** Loopback sources, any port: the fake's listeners (the app server, the agent host), whatever their ports. */
const LOOPBACK_SOURCES = ['127.0.0.1', 'localhost', '[::1]'].flatMap((host) => [`http://${host}:*`, `ws://${host}:*`]);

/**
 * The Content-Security-Policy of an offline page: its own origin, loopback hosts and `allowed` names
 * only, for every kind of request (inline and evaluated scripts stay allowed: the page's own need them).
 */
export function offlinePolicy(allowed: readonly string[] = []): string {
  const named = allowed.filter((host) => host !== '*').flatMap((host) => [`http://${host}:*`, `ws://${host}:*`]);
  const local = ["'self'", ...LOOPBACK_SOURCES, ...named].join(' ');
  return [
    `default-src ${local}`,
    `script-src ${local} 'unsafe-inline' 'unsafe-eval' blob:`,
    `style-src ${local} 'unsafe-inline'`,
    `img-src ${local} data: blob:`,
    `font-src ${local} data:`,
    `connect-src ${local}`,
    `worker-src ${local} blob:`,
    `frame-src ${local}`,
    `media-src ${local} data: blob:`,
  ].join('; ');
}

/** A style sheet without its imports of other hosts' style sheets (web fonts): the page falls back to local fonts. */
export function withoutRemoteImports(css: string): string {
  // A quoted address may hold ";" (Google Fonts' `wght@0,100;0,200`): it ends at its closing quote.
  return css.replace(/@import\s+(?:url\(\s*)?(?:(["'])https?:\/\/.*?\1|https?:\/\/[^)\s;]*)\s*\)?[^;]*;/g, '');
}

/** A running ingress. */
export interface CanvasIngress {
  /** The page's origin, e.g. `http://127.0.0.1:3001`. */
  url: string;
  server: Server;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** Whether `path` falls under `prefix` (the prefix itself or below it). */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

/** Whether a request path goes to the agent server. */
export function isLocalBackendPath(path: string): boolean {
  return LOCAL_BACKEND_PREFIXES.some((prefix) => under(path, prefix));
}

/** The script index.html starts with: the session key, and both backends registered on a browser profile's first visit (a list already there is kept). */
function bootstrapScript(options: CanvasIngressOptions): string {
  const cloud = options.cloud
    ? {
        id: CLOUD_BACKEND_ID,
        name: options.cloud.name ?? 'fakehands (app server)',
        host: options.cloud.url,
        apiKey: options.cloud.apiKey,
        kind: 'cloud',
      }
    : null;
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  return (
    `<script>(function(){var key=${json(options.sessionApiKey)};window.__AGENT_CANVAS_SESSION_API_KEY__=key;` +
    `var cloud=${json(cloud)};try{if(localStorage.getItem('openhands-backends')===null){var list=[{id:'default-local',name:'Local',host:location.origin,apiKey:key,kind:'local'}];` +
    `if(cloud)list.push(cloud);localStorage.setItem('openhands-backends',JSON.stringify(list));}}catch(e){}})();</script>`
  );
}

/** Loopback names the ingress serves (with its own port). */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;
/** The 421 answer's body: the fake's listeners' wording. */
const MISDIRECTED = 'Misdirected Request: this host name is not served (fakehands serves loopback names; add others with --allowed-host)';

/**
 * Whether the ingress on `port` serves a request with this Host header: `127.0.0.1:PORT`,
 * `localhost:PORT` or `[::1]:PORT` (the port may be left out on port 80), or a name in `allowed`
 * (any port; `*` allows any Host).
 * @example
 * ingressHostServed('localhost:3001', 3001, []) // true
 * ingressHostServed('evil.example:3001', 3001, []) // false
 */
export function ingressHostServed(header: string | undefined, port: number, allowed: readonly string[]): boolean {
  if (header === undefined || header === '') return false;
  if (allowed.includes('*')) return true;
  const value = header.trim().toLowerCase();
  const colon = value.startsWith('[') ? value.indexOf(':', value.indexOf(']')) : value.lastIndexOf(':');
  const name = colon < 0 ? value : value.slice(0, colon);
  const portText = colon < 0 ? '' : value.slice(colon + 1);
  if (allowed.some((host) => host.toLowerCase() === name)) return true;
  const samePort = portText === '' ? port === 80 : /^\d{1,5}$/.test(portText) && Number(portText) === port;
  return samePort && (LOOPBACK_NAMES as readonly string[]).includes(name);
}

/** A request path with its %-escapes decoded, or `null` for a malformed one (`decodeURIComponent` throws a URIError). */
export function decodedPath(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** Starts the ingress; resolves once it listens. */
export async function startCanvasIngress(options: CanvasIngressOptions): Promise<CanvasIngress> {
  const root = normalize(options.buildDir);
  const agent = new URL(options.agentUrl);
  const index = (await readFile(join(root, 'index.html'), 'utf8')).replace('<head>', `<head>${bootstrapScript(options)}`);

  const allowedHosts = options.allowedHosts ?? [];
  const offline = options.offline ?? true;
  /** Headers of every answer of the page's own (index.html and its files). */
  const pageHeaders: Record<string, string> = offline ? { 'content-security-policy': offlinePolicy(allowedHosts) } : {};
  /** The port listened on, known once listening (no request comes before). */
  let port = 0;
  const server = createServer((req, res) => {
    if (!ingressHostServed(req.headers.host, port, allowedHosts)) {
      res.writeHead(421, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: MISDIRECTED }));
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (under(path, AUTOMATION_PREFIX)) {
      // The home page lists automations on a local backend and toasts a failure ("Request failed with status code 404",
      // after three retries): the list of Canvas's own automation service stands in, empty. Its health stays 404, so the
      // panels that need the service stay off.
      if (req.method === 'GET' && (path === AUTOMATION_LIST || path === `${AUTOMATION_LIST}/`)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(EMPTY_AUTOMATIONS);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'No automation service behind fakehands (out of scope)' }));
      return;
    }
    if (isLocalBackendPath(path)) return forward(req, res);
    const decoded = decodedPath(path);
    if (decoded === null) {
      // A malformed %-escape (`/%ZZ`): a 400 for this request, never an exception that ends the process.
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('Bad Request: malformed percent-encoding in the path');
      return;
    }
    const file = normalize(join(root, decoded));
    // Only files inside build/ (its own path and below): `/../build-secret.txt` also starts with the folder's name.
    if ((file !== root && !file.startsWith(`${root}${sep}`)) || path === '/' || !extname(path)) return sendIndex(res);
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-cache',
          ...pageHeaders,
        });
        res.end(offline && extname(file) === '.css' ? withoutRemoteImports(body.toString('utf8')) : body);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('Not Found');
      },
    );
  });

  function sendIndex(res: import('node:http').ServerResponse) {
    res.writeHead(200, { 'content-type': TYPES['.html']!, 'cache-control': 'no-cache', ...pageHeaders });
    res.end(index);
  }

  function forward(req: IncomingMessage, res: import('node:http').ServerResponse) {
    const upstream = httpRequest(
      {
        host: agent.hostname,
        port: agent.port,
        method: req.method,
        path: req.url,
        // The browser's Host is kept: the agent host checks it as it checks its own clients'.
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'The agent server did not answer' }));
    });
    req.pipe(upstream);
  }

  // WebSocket upgrades under the local prefixes: the raw connection is piped to the agent server.
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!ingressHostServed(req.headers.host, port, allowedHosts)) {
      const body = JSON.stringify({ detail: MISDIRECTED });
      socket.end(
        `HTTP/1.1 421 Misdirected Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    if (!isLocalBackendPath(path)) return socket.destroy();
    const upstream = connect(Number(agent.port || 80), agent.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      // Every header as sent, the Host included (the agent host checks it).
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', end);
    socket.on('error', end);
    upstream.on('close', end);
    socket.on('close', end);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as { port: number };
  port = address.port;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
