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
 */
import type { Refusal } from '../domain/store/refusal.js';
import type { Instance } from '../instance/instance.js';
import type { Answer, RequestLike } from '../http/responses.js';
import type { Route } from '../http/route.js';
import type { ParseHelpers } from '../http/parse.js';
import type * as Misses from '../http/misses.js';
import type { checkAnswer } from '../http/check.js';
import { Router, type Routing } from '../http/router.js';

/** What a surface is made of. */
export interface SurfaceSpec {
  /** Its name (`app-server`, `control`), for errors and the docs. */
  name: string;
  /** The routes it serves from the start, with paths relative to where it is mounted. */
  routes: readonly Route[];
  /** Loads the rest of its routes (a dynamic `import()`): asked the first time a request matches no route loaded. */
  later?: () => Promise<readonly Route[]>;
  /**
   * The paths it answers (each with what is under it), relative to its mount; absent: every path.
   * A page's worker leaves any other path of the page's own origin to the page (its scripts, chunks, images).
   */
  paths?: readonly string[];
  /** Its WebSocket routes, relative to its mount (served by every transport through `mounts/sockets.ts`); absent: none. */
  sockets?: readonly SocketRoute[];
  /** Its auth rule: the refusal when a request to `route` at `path` lacks what the surface requires, or `null`. */
  authorize(instance: Instance, route: Route, path: string, request: RequestLike): Refusal | null;
  /** Its error body: how a refusal is answered on this kind of host. */
  refusalAnswer(refusal: Refusal): Answer;
  /** Whether injected faults apply to it (never to the control API, so faults can never lock it). */
  faultable: boolean;
  /** Whether its requests are recorded in the journal. */
  journaled: boolean;
  /**
   * How a required JSON body of `null` is read: as missing (`Field required`, FastAPI up to 0.14x:
   * `_validate_value_with_model_field` treats `None` as absent), or, with `validated`, as a value
   * its schema checks (FastAPI 0.165, the agent server's: only an absent body is missing, so `null`
   * is `model_attributes_type` for a model). Absent: missing.
   */
  jsonNullBody?: 'missing' | 'validated';
}

/** A surface with its router compiled. */
export interface Surface extends Readonly<Omit<SurfaceSpec, 'routes' | 'later'>> {
  /** The routes loaded so far (all of them once `allRoutes()` has resolved). */
  readonly routes: readonly Route[];
  /** Routes a request: at once among the routes loaded, or after loading the later ones when none matched. */
  route(method: string, path: string): Routing | Promise<Routing>;
  /** Every route of the surface, the later ones loaded first. */
  allRoutes(): Promise<readonly Route[]>;
  /** Whether `path` (relative to its mount) is one it answers (see `paths`). */
  owns(path: string): boolean;
  /** What parsing its requests loads on first need: the 422 mapping, Python's JSON errors, forms. */
  parseHelpers: ParseHelpers;
  /** The module that says why a request missed (`http/misses.ts`): a chunk of its own in a page, loaded with the first 404, 405 or 422. */
  misses(): Promise<typeof Misses>;
  /** The contract check of an answer (option `checkResponses`): `http/check.ts`, loaded the first time it is asked for. */
  checkAnswer(...args: Parameters<typeof checkAnswer>): Promise<void>;
}

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

/** One socket connection, as a transport gives it. */
export interface SocketPeer {
  /** Sends one text frame; calls `written` once it has left (written out, or dropped with a closed socket). */
  send(text: string, written: () => void): void;
  /** Closes with a code and reason. */
  close(code: number, reason: string): void;
  /** Drops the connection without a close frame (a container that went down). */
  drop(): void;
}

/** A connection being served: what the transport calls with the client's frames and its close. */
export interface ServedSocket {
  /** A text frame from the client. */
  receive(text: string): void;
  /** The client went away. */
  closed(): void;
}

/** What a socket route is opened with: the path relative to the mount, the whole URL (its query), the upgrade's headers. */
export interface SocketConnection {
  /** The path under the mount (`/sockets/events/abc`). */
  path: string;
  /** The URL the client opened. */
  url: URL;
  /** The upgrade request's headers (none in process: an in-process WebSocket has none). */
  headers: { get(name: string): string | null };
}

/** Opens one connection of a socket route on `instance`, over `peer`. */
export type OpenSocket = (instance: Instance, connection: SocketConnection, peer: SocketPeer) => ServedSocket;

/** One socket route of a surface. */
export interface SocketRoute {
  /** Its path, relative to the mount, in the routers' pattern syntax (`/sockets/events/:conversation_id`). */
  path: string;
  /** Loads what serves it (a dynamic `import()`: a chunk of its own in a page, loaded with the first socket). */
  load(): Promise<OpenSocket>;
}
