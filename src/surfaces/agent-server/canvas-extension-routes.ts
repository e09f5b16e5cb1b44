/**
 * The agent server's Canvas Extensions API (`/api/canvas-extensions/…`), answered as a host with no
 * extension installed. Agent Canvas (1.20.0, `api/canvas-extensions-service.ts`) asks its local
 * backend for the installed extensions on every page; Canvas's own launcher forwards every `/api`
 * path but `/api/automation` to the agent server (`scripts/dev-with-automation.mjs`,
 * `AGENT_SERVER_ROUTE_PREFIXES`, `getLocalServiceRoutes`), so the agent server is where the route
 * lives. Its router is software-agent-sdk's `canvas_extensions_router.py` (commit 030b04c, Aug 2026,
 * pull request #4395, not yet in a release); each route below names the function it copies. The
 * fake fetches no source, so an install answers as a source that cannot be fetched does. The routes
 * of a Canvas App's backend (its lifecycle, logs, data, icon; 1.58.2) answer as for an app not installed.
 */
import * as z from 'zod/mini';
import { Refusal, refuse } from '../../domain/store/refusal.js';
import { laxInt } from '../../schemas/helpers.js';
import { defineRoute, type Route } from '../../http/route.js';
import { hostWide } from './host-wide.js';

/** `CanvasExtensionNamePath`: lowercase letters and digits in hyphenated words, 1-255 characters. */
const NameParam = z.object({
  extension_name: z.string().check(z.minLength(1), z.maxLength(255), z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)),
});
/** `InstalledCanvasExtensionResponse`. */
const InstalledCanvasExtension = z.object({
  name: z.string(),
  version: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  source: z.string(),
  resolved_ref: z.nullable(z.string()),
  repo_path: z.nullable(z.string()),
  installed_at: z.string(),
  install_path: z.string(),
});
const notInstalled = (name: string) => refuse('not_found', `Canvas extension '${name}' is not installed`);
/** `BackendStatus`. */
const BackendStatus = z.object({
  name: z.string(),
  state: z.string(),
  revision: z.nullable(z.string()),
  prepared_revision: z.nullable(z.string()),
  pid: z.nullable(z.int()),
  port: z.nullable(z.int()),
  detail: z.nullable(z.string()),
});
/** The backend of an extension that is not installed (`CanvasExtensionBackendManager`: state `missing`). */
const missingBackend = (name: string) => ({
  name,
  state: 'missing',
  revision: null,
  prepared_revision: null,
  pid: null,
  port: null,
  detail: 'Canvas App is not installed or its manifest is invalid',
});

/** The Canvas Extensions routes of the agent server. */
export const canvasExtensionRoutes: readonly Route[] = hostWide([
  defineRoute({
    method: 'POST',
    path: '/api/canvas-extensions/install',
    summary: 'Install a canvas extension: the fake fetches no source (canvas_extensions_router.py, install_canvas_extension_endpoint)',
    body: z.object({
      source: z.string().check(z.minLength(1)),
      ref: z.optional(z.nullable(z.string())),
      repo_path: z.optional(z.nullable(z.string())),
      force: z._default(z.boolean(), false),
    }),
    response: InstalledCanvasExtension,
    errors: [400],
    handle: async () => refuse('bad_request', 'Failed to fetch canvas extension source. Check that the source is valid.'),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/canvas-extensions/installed',
    summary: 'The installed canvas extensions: none (canvas_extensions_router.py, list_installed_canvas_extensions_endpoint)',
    response: z.object({ canvas_extensions: z.array(InstalledCanvasExtension) }),
    handle: async () => ({ canvas_extensions: [] }),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/canvas-extensions/installed/:extension_name',
    summary: 'One installed canvas extension (canvas_extensions_router.py, get_installed_canvas_extension_endpoint)',
    params: NameParam,
    response: InstalledCanvasExtension,
    errors: [404],
    handle: async ({ params }) => notInstalled(params.extension_name),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/api/canvas-extensions/installed/:extension_name',
    summary: 'Enable or disable a canvas extension (canvas_extensions_router.py, set_canvas_extension_enabled_endpoint)',
    params: NameParam,
    body: z.object({ enabled: z.boolean() }),
    response: z.object({ name: z.string(), enabled: z.boolean() }),
    errors: [404],
    handle: async ({ params }) => notInstalled(params.extension_name),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/canvas-extensions/installed/:extension_name',
    summary: 'Uninstall a canvas extension (canvas_extensions_router.py, uninstall_canvas_extension_endpoint)',
    params: NameParam,
    response: z.object({ message: z.string() }),
    errors: [404],
    handle: async ({ params }) => notInstalled(params.extension_name),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/canvas-extensions/installed/:extension_name/bundle',
    summary: "A canvas extension's entrypoint bundle (canvas_extensions_router.py, get_canvas_extension_bundle_endpoint)",
    params: NameParam,
    response: z.string(),
    errors: [404],
    handle: async ({ params }) => refuse('not_found', `Canvas extension '${params.extension_name}' bundle not found`),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/canvas-extensions/installed/:extension_name/icon',
    summary: "A canvas extension's SVG icon (canvas_extensions_router.py, get_canvas_extension_icon_endpoint)",
    params: NameParam,
    response: z.string(),
    errors: [404],
    handle: async ({ params }) => refuse('not_found', `Canvas extension '${params.extension_name}' icon not found`),
  }),
  // ── A Canvas App's backend (1.58.2): the lifecycle of an extension that is not installed is `missing` ──
  ...(
    [
      ['GET', '', 'get_canvas_extension_backend_status_endpoint', 'Its state'],
      ['POST', '/prepare', 'prepare_canvas_extension_backend_endpoint', 'Prepare a revision'],
      ['POST', '/start', 'start_canvas_extension_backend_endpoint', 'Start a prepared revision'],
      ['POST', '/stop', 'stop_canvas_extension_backend_endpoint', 'Stop it'],
      ['DELETE', '/data', 'delete_canvas_extension_backend_data_endpoint', 'Delete its data'],
    ] as const
  ).map(([method, path, real, what]) =>
    defineRoute({
      method,
      path: `/api/canvas-extensions/installed/:extension_name/backend${path}`,
      summary: `${what}: missing, as no extension is installed (canvas_extensions_router.py, ${real})`,
      params: NameParam,
      ...(path === '/prepare' || path === '/start' ? { body: z.object({ revision: z.string() }) } : {}),
      response: BackendStatus,
      handle: async ({ params }: { params: Record<string, string> }) => missingBackend(params.extension_name!),
    }),
  ),
  defineRoute({
    method: 'GET',
    path: '/api/canvas-extensions/installed/:extension_name/backend/logs',
    summary: "Its backend's latest log: none (canvas_extensions_router.py, get_canvas_extension_backend_logs_endpoint)",
    params: NameParam,
    query: z.object({ limit_bytes: z._default(laxInt(z.int().check(z.gte(1), z.lte(256 * 1024))), 64 * 1024) }),
    response: z.object({ name: z.string(), logs: z.string(), truncated: z.boolean() }),
    handle: async ({ params }) => ({ name: params.extension_name, logs: '', truncated: false }),
  }),
]);

/**
 * The browser session of a Canvas App's backend (`/app-backends/{name}/session`,
 * `canvas_extensions_bridge_router.py`): the fake has no app ingress configured, and answers as the
 * real one does without one (503, its error handler's body).
 */
export const appBackendRoutes: readonly Route[] = Object.freeze(
  (['POST', 'DELETE'] as const).map((method) =>
    defineRoute({
      method,
      path: '/app-backends/:extension_name/session',
      summary: `${method === 'POST' ? 'Open' : 'Revoke'} a Canvas App backend's browser session: no ingress is configured, 503 (canvas_extensions_bridge_router.py, ${method === 'POST' ? 'create' : 'delete'}_app_backend_session_endpoint)`,
      params: NameParam,
      response: z.object({ ingress_url: z.string(), expires_at: z.string(), iframe_sandbox: z.string() }),
      errors: [503],
      handle: async () =>
        new Refusal('unavailable', 'Canvas App backend ingress is not configured', {
          body: { detail: 'Internal Server Error', exception: '503: Canvas App backend ingress is not configured' },
        }),
    }),
  ),
);
