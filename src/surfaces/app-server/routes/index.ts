/**
 * The app server's route table: every endpoint of the real service the fake serves, by area. A new
 * app-server route goes in its area's file here; the OpenAPI document and the README tables are
 * made from this list.
 */
import type { Route } from '../../../http/route.js';
import { appConversationRoutes } from './app-conversations.js';
import { conversationOpRoutes } from './conversation-ops.js';
import { eventRoutes } from './events.js';
import { legacyRoutes } from './legacy.js';
import { sandboxRoutes } from './sandboxes.js';

/** Every endpoint of the API (what the real service serves). */
export const apiRoutes: readonly Route[] = Object.freeze([...legacyRoutes, ...appConversationRoutes, ...conversationOpRoutes, ...eventRoutes, ...sandboxRoutes]);
