/**
 * What a surface is, as the pipeline (`http/pipeline.ts`) and the mounts see it: its routes, its
 * auth rule, its error bodies, its socket routes. `surfaces/surface.ts` builds one (`defineSurface`);
 * the shapes live here, in the layer below the surfaces, so the pipeline reads them without
 * importing upwards.
 */
import type { Refusal } from '../domain/store/refusal.js';
import type { Instance } from '../instance/instance.js';
import type { Answer, RequestLike } from './responses.js';
import type { Route } from './route.js';
import type { ParseHelpers } from './parse.js';
import type * as Misses from './misses.js';
import type { checkAnswer } from './check.js';
import type { Routing } from './router.js';

/** What a surface is made of. */
export interface SurfaceSpec {
  /** Its name (`app-server`, `control`), for errors and the docs. */
  name: string;
  /** The routes it serves from the start, with paths relative to where it is mounted. */
  routes: readonly Route[];
  /** Loads the rest of its routes (a dynamic import): asked the first time a request matches no route loaded. */
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
  /** Loads what serves it (a dynamic import: a chunk of its own in a page, loaded with the first socket). */
  load(): Promise<OpenSocket>;
}
