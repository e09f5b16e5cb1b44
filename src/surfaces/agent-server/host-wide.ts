/**
 * Routes of the agent server that act on the host as a whole (settings, profiles, catalogues, the
 * shell, the host's files) rather than on one conversation: any RUNNING sandbox's key opens them,
 * and under `--auth none` (a local agent server started without session keys, as Agent Canvas's
 * `--backend-only` one) no key is needed. The surface's auth rule asks `isHostWide`.
 */
import { seedDefaultProfile } from '../../domain/agent-world/settings.js';
import type { DomainState } from '../../domain/store/state.js';
import type { Route, RouteContext } from '../../http/route.js';

const marked = new WeakSet<Route>();

/** Marks `routes` as host-wide and returns them. */
export function hostWide(routes: readonly Route[]): readonly Route[] {
  for (const route of routes) marked.add(route);
  return Object.freeze([...routes]);
}

/** Whether `route` acts on the host as a whole. */
export const isHostWide = (route: Route): boolean => marked.has(route);

/**
 * Runs `body` as one operation on settings that exist: the fixture's defaults are saved, with the
 * live LLM mirrored into the `default` profile, before the first read or change.
 */
export function onSettings<T>(context: RouteContext, body: (state: DomainState) => T | Promise<T>) {
  return context.runner.run(async (state) => {
    await seedDefaultProfile(state);
    return body(state);
  });
}
