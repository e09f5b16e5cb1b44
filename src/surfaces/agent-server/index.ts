/**
 * The agent-server surface: what each RUNNING sandbox's agent server answers (the host behind
 * `conversation_url`). Its routes (`routes.ts`), its auth rule (the sandbox's own session key in
 * `X-Session-API-Key`: 401 without a key any sandbox holds; a key of a sandbox that is not running
 * opens a stopped container, whose connection is dropped), its error bodies (FastAPI's, like the app
 * server's). Its sockets (`/sockets/events/{id}` in `sockets.ts`, `/sockets/bash-events` in
 * `bash-socket.ts`) are declared here like its routes and served by every transport through
 * `mounts/sockets.ts`.
 */
import { keyHolder } from '../../domain/sandboxes/session-keys.js';
import { refuse } from '../../domain/store/refusal.js';
import { networkError } from '../../http/responses.js';
import { fastApiRefusal } from '../../http/fastapi-refusal.js';
import { defineSurface } from '../surface.js';
import { isHostWide } from './host-wide.js';
import { keyShapeOf, requestKey } from './request-keys.js';

/** The agent server. */
export const agentServerSurface = defineSurface({
  name: 'agent-server',
  // Every route is loaded on the first request to an agent host (a chunk of its own in a page).
  routes: [],
  later: () => import('./routes.js').then((m) => m.agentRoutes),
  // Its sockets, loaded with its first connection, with its routes (one chunk in a page: the first chunks split fewer ways).
  sockets: [
    {
      path: '/sockets/events/:conversation_id',
      load: () =>
        import('./routes.js').then(
          (m) =>
            (instance, { path, url, headers }, peer) =>
              m.openEventSocket(instance, path, url, headers, peer),
        ),
    },
    {
      path: '/sockets/bash-events',
      load: () =>
        import('./routes.js').then(
          (m) =>
            (instance, { url, headers }, peer) =>
              m.openBashSocket(instance, url, headers, peer),
        ),
    },
  ],
  authorize: (instance, route, _path, request) => {
    if (route.public || (instance.options.auth === 'none' && isHostWide(route))) return null;
    // The OpenAI-compatible routes also take a bearer key, a conversation's workspace files the workspace cookie (`request-keys.ts`).
    const holder = keyHolder(instance.runner.state, requestKey(instance, request.headers, keyShapeOf(route)));
    // Under `--auth none` the agent host takes any or no key (the local agent server answers: `agent-host.ts`).
    if (holder.kind === 'none') return instance.options.auth === 'none' ? null : refuse('unauthorized', 'Unauthorized');
    return holder.kind === 'stopped' ? refuse('unavailable', 'The sandbox of this agent server is not running') : null;
  },
  // A stopped sandbox's agent server is a container that is down: the connection drops (a 503 with a body of its own is the server's answer).
  refusalAnswer: (refusal) => (refusal.reason === 'unavailable' && refusal.body === undefined ? networkError() : fastApiRefusal(refusal)),
  faultable: true,
  journaled: true,
  // Its FastAPI (0.165, dependencies/utils.py `_validate_value_with_model_field`) reports only an absent body missing: JSON null is validated.
  jsonNullBody: 'validated',
});
