/**
 * The settings routes' way into the domain (`settings-routes.ts`, `profile-routes.ts`): loaded with
 * those later routes, never with the surface (it reaches the user's settings and their @msw/data
 * collections).
 */
import { seedDefaultProfile } from '../../domain/agent-world/settings.js';
import type { DomainState } from '../../domain/store/state.js';
import type { RouteContext } from '../../http/route.js';

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
