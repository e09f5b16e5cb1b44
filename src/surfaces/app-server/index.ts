/**
 * The app-server surface: the Conversation and Sandbox Service as the real app server answers it.
 * Its routes (`routes/`), its auth rule (the `X-Session-API-Key` policy: `legacy`, `all` or
 * `none`), its error bodies (FastAPI's, `errors.ts`), and its own OpenAPI document at
 * `/openapi.json`. Faults apply to it and its requests are journaled.
 */
import { refuse } from '../../domain/store/refusal.js';
import { SESSION_API_KEY_HEADER, keyMatches } from '../../http/auth.js';
import type { Route } from '../../http/route.js';
import type { Instance } from '../../instance/instance.js';
import { defineSurface } from '../surface.js';
import { fastApiRefusal } from '../../http/fastapi-refusal.js';
import { OPENAPI_PATH } from './paths.js';
import { firstRoutes } from './routes/index.js';

export { OPENAPI_PATH } from './paths.js';

/** The later routes and the OpenAPI document, a chunk of their own (`later.ts`). */
async function laterRoutes(): Promise<readonly Route[]> {
  return (await import('./later.js')).laterAndDocument;
}

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
  routes: firstRoutes,
  later: laterRoutes,
  // Everything the real app server answers lives under these (a test checks every route).
  paths: ['/api', '/alive', '/health', '/ready', '/server_info', OPENAPI_PATH],
  authorize: (instance, route, path, request) =>
    needsKey(instance, route, path) && !keyMatches(instance.options.apiKey, request.headers.get(SESSION_API_KEY_HEADER))
      ? refuse('unauthorized', 'Unauthorized')
      : null,
  refusalAnswer: fastApiRefusal,
  faultable: true,
  journaled: true,
});
