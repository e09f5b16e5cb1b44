/**
 * The app server's route table: every endpoint of the real service the fake serves, by area. A new
 * app-server route goes in its area's file here, and in `firstRoutes` (the V1 conversations
 * and sandboxes a page calls first) or `later.ts` (the rest, loaded by the surface on the
 * first request that needs them). `apiRoutes` (`all.ts`) is the whole list, for the OpenAPI
 * document and the README tables.
 */
import type { Route } from '../../../http/route.js';
import { appConversationRoutes } from './app-conversations.js';
import { sandboxRoutes } from './sandboxes.js';

/** The routes a page calls first: V1 app conversations and their start tasks, sandboxes and sandbox specs. */
export const firstRoutes: readonly Route[] = Object.freeze([...appConversationRoutes, ...sandboxRoutes]);
