/**
 * The route table: every endpoint the fake serves, by area. Transports, the OpenAPI document
 * and the README tables are made from it.
 */
import type { Route } from '../route.js';
import { appConversationRoutes } from './app-conversations.js';
import { controlRoutes } from './control.js';
import { conversationOpRoutes } from './conversation-ops.js';
import { legacyRoutes } from './legacy.js';
import { sandboxRoutes } from './sandboxes.js';

/** Every endpoint of the API (what the real service serves), without the control API. */
export const apiRoutes: readonly Route[] = [...legacyRoutes, ...appConversationRoutes, ...conversationOpRoutes, ...sandboxRoutes];

/** Every route the fake answers: the API, the control API and the OpenAPI document. */
export const allRoutes: readonly Route[] = [...apiRoutes, ...controlRoutes];

export { CONTROL_PREFIX, OPENAPI_PATH } from './control.js';
