/**
 * The app-server surface: the Conversation and Sandbox Service as the real app server answers it.
 * Its routes (`routes/`), its auth rule (the `X-Session-API-Key` policy: `legacy`, `all` or
 * `none`), its error bodies (FastAPI's, `errors.ts`), and its own OpenAPI document at
 * `/openapi.json`. Faults apply to it and its requests are journaled.
 */
import * as z from 'zod/mini';
import { refuse } from '../../domain/refusal.js';
import { SESSION_API_KEY_HEADER, keyMatches } from '../../http/auth.js';
import { openApiDocument } from '../../http/openapi.js';
import { defineRoute, type Route } from '../../http/route.js';
import type { Instance } from '../../instance/instance.js';
import { defineSurface } from '../surface.js';
import { fastApiRefusal } from './errors.js';
import { apiRoutes } from './routes/index.js';

/** Path of the OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json';

/** The document of each instance, made once (the routes never change). */
const documents = new WeakMap<Instance, unknown>();

/** `GET /openapi.json`: the document of the API routes, as FastAPI serves its own. */
const documentRoute = defineRoute({
  method: 'GET', path: OPENAPI_PATH, summary: 'The OpenAPI 3.1 document of the API', public: true, internal: true,
  response: z.record(z.string(), z.unknown()),
  handle: async (_input, instance) => {
    if (!documents.has(instance)) {
      const serverUrl = new URL(instance.options.baseUrl).pathname.replace(/\/+$/, '') || '/';
      documents.set(instance, openApiDocument(apiRoutes, { version: instance.version, serverUrl }));
    }
    return documents.get(instance) as Record<string, unknown>;
  },
});

/** Whether a request to `path` needs the key under the instance's policy: `legacy` checks only the non-`/api/v1` routes, as the real server does. */
function needsKey(instance: Instance, route: Route, path: string): boolean {
  if (route.public) return false;
  const policy = instance.options.auth;
  if (policy === 'none') return false;
  if (policy === 'all') return true;
  return !(path === '/api/v1' || path.startsWith('/api/v1/'));
}

/** The app server. */
export const appServerSurface = defineSurface({
  name: 'app-server',
  routes: [...apiRoutes, documentRoute],
  authorize: (instance, route, path, request) => (needsKey(instance, route, path) && !keyMatches(instance.options.apiKey, request.headers.get(SESSION_API_KEY_HEADER))
    ? refuse('unauthorized', 'Unauthorized') : null),
  refusalAnswer: fastApiRefusal,
  faultable: true,
  journaled: true,
});

export { apiRoutes } from './routes/index.js';
