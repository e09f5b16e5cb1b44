/**
 * A surface: what answers on one kind of host. Its route table, its auth rule, its error bodies,
 * whether faults and the journal apply. The app server (`app-server/`) and the control API
 * (`control/`) are surfaces; a new kind of host (the agent server a RUNNING sandbox exposes) is a
 * new folder here with its own `defineSurface`, mounted by `mounts/`.
 *
 * A surface's routes come in two parts: the routes a page needs first, and the routes it loads
 * later (`later`), with a dynamic `import()`, the first time a request finds no route among those
 * loaded. A page's bundler makes the later ones separate chunks, so a page that only calls the V1
 * API never downloads the settings, the git world, the control API or the agent host (issue 23).
 *
 * A surface's socket routes (`sockets`) are declared beside its HTTP routes, each loading what
 * serves it with its first connection; every transport reaches them through one dispatcher
 * (`mounts/sockets.ts`), handing each connection over as a `SocketPeer`.
 *
 * The shapes (`Surface`, `SurfaceSpec`, the socket types) are declared in `http/surface-types.ts`,
 * where the pipeline that answers through a surface reads them; this module builds one.
 */
import type { Route } from '../http/route.js';
import type { ParseHelpers } from '../http/parse.js';
import type { checkAnswer } from '../http/check.js';
import { Router, type Routing } from '../http/router.js';
import type { Surface, SurfaceSpec } from '../http/surface-types.js';

export type { OpenSocket, ServedSocket, SocketConnection, SocketPeer, SocketRoute, Surface, SurfaceSpec } from '../http/surface-types.js';

/**
 * What parsing a request loads on first need, each a module a page's bundler makes a chunk of its
 * own (issue 23): the 422 mapping with the first bad request, Python's JSON errors with the first
 * body that is not JSON, the form reader with the first form (only later routes read one).
 */
const parseHelpers: ParseHelpers = {
  toValidationErrors: async (...args) => (await import('../http/validation.js')).toValidationErrors(...args),
  findPythonJsonError: async (...args) => (await import('../http/python-json.js')).findPythonJsonError(...args),
  readForm: async (...args) => (await import('../http/form.js')).readForm(...args),
};

/** `http/check.ts` (with the schema of every error body), loaded with the first answer checked: with the service facade's module (`http/facade-module.ts`). */
const checkAnswerLater = async (...args: Parameters<typeof checkAnswer>): Promise<void> =>
  (await import('../http/facade-module.js')).checkAnswer(...args);

/**
 * Declares a surface.
 * @example
 * export const controlSurface = defineSurface({ name: 'control', routes: [], later: () => import('./routes.js').then((m) => m.controlRoutes), authorize, refusalAnswer, faultable: false, journaled: false })
 */
export function defineSurface(spec: SurfaceSpec): Surface {
  const { routes: first, later, paths, ...rest } = spec;
  let routes: readonly Route[] = first;
  let router = new Router(first);
  let loaded = !later;
  let loading: Promise<readonly Route[]> | null = later ? null : Promise.resolve(first);
  const allRoutes = (): Promise<readonly Route[]> => {
    loading ??= later!()
      .then((more) => {
        routes = Object.freeze([...first, ...more]);
        router = new Router(routes);
        loaded = true;
        return routes;
      })
      .catch((error: unknown) => {
        loading = null; // a chunk that failed to load (a dropped connection) is asked for again next time
        throw error;
      });
    return loading;
  };
  return Object.freeze({
    ...rest,
    parseHelpers,
    checkAnswer: checkAnswerLater,
    misses: () => import('../http/misses.js'),
    get routes() {
      return routes;
    },
    route(method: string, path: string): Routing | Promise<Routing> {
      const found = router.find(method, path);
      if (found.kind === 'match' || loaded) return found;
      return allRoutes().then(() => router.find(method, path));
    },
    allRoutes,
    owns: (path: string) => !paths || paths.some((owned) => path === owned || path.startsWith(`${owned}/`)),
  });
}
