/**
 * Routes of the agent server that act on the host as a whole (settings, profiles, catalogues, the
 * shell, the host's files) rather than on one conversation: any RUNNING sandbox's key opens them,
 * and under `--auth none` (a local agent server started without session keys, as Agent Canvas's
 * `--backend-only` one) no key is needed. The surface's auth rule asks `isHostWide`. This module is
 * the marker only (the surface imports it before any route is loaded): what settings routes run
 * is `on-settings.ts`'s.
 */
import type { Route } from '../../http/route.js';

const marked = new WeakSet<Route>();

/** Marks `routes` as host-wide and returns them. */
export function hostWide(routes: readonly Route[]): readonly Route[] {
  for (const route of routes) marked.add(route);
  return Object.freeze([...routes]);
}

/** Whether `route` acts on the host as a whole. */
export const isHostWide = (route: Route): boolean => marked.has(route);
