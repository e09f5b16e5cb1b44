/**
 * A surface: what answers on one kind of host. Its route table, its auth rule, its error bodies,
 * whether faults and the journal apply. The app server (`app-server/`) and the control API
 * (`control/`) are surfaces; a new kind of host (the agent server a RUNNING sandbox exposes) is a
 * new folder here with its own `defineSurface`, mounted by `mounts/`.
 */
import type { Refusal } from '../domain/refusal.js';
import type { Instance } from '../instance/instance.js';
import type { Answer, RequestLike } from '../http/responses.js';
import type { Route } from '../http/route.js';
import { Router } from '../http/router.js';

/** What a surface is made of. */
export interface SurfaceSpec {
  /** Its name (`app-server`, `control`), for errors and the docs. */
  name: string;
  /** Its routes, with paths relative to where it is mounted. */
  routes: readonly Route[];
  /** Its auth rule: the refusal when a request to `route` at `path` lacks what the surface requires, or `null`. */
  authorize(instance: Instance, route: Route, path: string, request: RequestLike): Refusal | null;
  /** Its error body: how a refusal is answered on this kind of host. */
  refusalAnswer(refusal: Refusal): Answer;
  /** Whether injected faults apply to it (never to the control API, so faults can never lock it). */
  faultable: boolean;
  /** Whether its requests are recorded in the journal. */
  journaled: boolean;
}

/** A surface with its router compiled. */
export interface Surface extends Readonly<SurfaceSpec> {
  /** The router over its routes. */
  readonly router: Router;
}

/**
 * Declares a surface.
 * @example
 * export const controlSurface = defineSurface({ name: 'control', routes: controlRoutes, authorize, refusalAnswer, faultable: false, journaled: false })
 */
export function defineSurface(spec: SurfaceSpec): Surface {
  return Object.freeze({ ...spec, router: new Router(spec.routes) });
}
