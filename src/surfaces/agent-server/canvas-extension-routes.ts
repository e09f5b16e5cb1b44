/**
 * The agent server's Canvas Extensions API (`/api/canvas-extensions/…`), answered as a host with no
 * extension installed. Agent Canvas (1.20.0, `api/canvas-extensions-service.ts`) asks its local
 * backend for the installed extensions on every page; Canvas's own launcher forwards every `/api`
 * path but `/api/automation` to the agent server (`scripts/dev-with-automation.mjs`,
 * `AGENT_SERVER_ROUTE_PREFIXES`, `getLocalServiceRoutes`), so the agent server is where the route
 * lives. Its router is software-agent-sdk's `canvas_extensions_router.py` (commit 030b04c, Aug 2026,
 * pull request #4395, not yet in a release); each route below names the function it copies. The
 * fake fetches no source, so an install answers as a source that cannot be fetched does.
 */
import * as z from 'zod/mini';
import { refuse } from '../../domain/store/refusal.js';
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
]);
