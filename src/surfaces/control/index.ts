/**
 * The control surface: fakehands' own API under `/_fakehands` (health, reset, state, clock, faults,
 * journal, the inspector). Its auth rule: the key unless auth is `none` (health and the inspector
 * are public). Its errors are FastAPI's, like the app server's. Faults never apply to it, so no
 * fault can lock it, and its requests are never journaled, so polling it leaves the journal to the app.
 */
import { refuse } from '../../domain/store/refusal.js';
import { SESSION_API_KEY_HEADER, keyMatches } from '../../http/auth.js';
import { fastApiRefusal } from '../../http/fastapi-refusal.js';
import { defineSurface } from '../surface.js';

/** Path prefix the control surface is mounted at, under the base URL. */
export const CONTROL_PREFIX = '/_fakehands';

/** The control API. */
export const controlSurface = defineSurface({
  name: 'control',
  // Loaded on the first control request (a page rarely makes one: tests and the inspector do).
  routes: [],
  later: () => import('./routes.js').then((m) => m.controlRoutes),
  authorize: (instance, route, _path, request) =>
    !route.public && instance.options.auth !== 'none' && !keyMatches(instance.options.apiKey, request.headers.get(SESSION_API_KEY_HEADER))
      ? refuse('unauthorized', 'Unauthorized')
      : null,
  refusalAnswer: fastApiRefusal,
  faultable: false,
  journaled: false,
});
