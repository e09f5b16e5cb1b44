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
import { legacyConversationRoutes } from './legacy-conversation.js';
import { sandboxRoutes } from './sandboxes.js';
import { secretRoutes } from './secrets.js';
import { serverConfigRoutes } from './server-config.js';
import { settingsRoutes } from './settings.js';
import { userGitRoutes } from './user-git.js';

/** Every endpoint of the API (what the real service serves). */
export const apiRoutes: readonly Route[] = Object.freeze([
  ...legacyRoutes, ...appConversationRoutes, ...conversationOpRoutes, ...eventRoutes, ...sandboxRoutes,
  ...legacyConversationRoutes, ...serverConfigRoutes, ...settingsRoutes, ...secretRoutes, ...userGitRoutes,
]);
