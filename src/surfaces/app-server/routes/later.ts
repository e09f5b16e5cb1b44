/**
 * The app server's routes a page needs later, if at all: a V1 conversation's operations and
 * events, what a sandbox's agent asks for, the legacy (V0) conversations, the web app's settings,
 * secrets, git world and server configuration. Loaded by the app-server surface
 * with a dynamic `import()` (a chunk of its own in a page's bundle).
 */
import type { Route } from '../../../http/route.js';
import { conversationOpRoutes } from './conversation-ops.js';
import { eventRoutes } from './events.js';
import { legacyRoutes } from './legacy.js';
import { legacyConversationRoutes } from './legacy-conversation.js';
import { sandboxSecretRoutes } from './sandbox-secrets.js';
import { secretRoutes } from './secrets.js';
import { serverConfigRoutes } from './server-config.js';
import { settingsRoutes } from './settings.js';
import { userGitRoutes } from './user-git.js';
import { conversationFileRoutes } from './conversation-files.js';
import { saasRoutes } from './saas.js';

/** A V1 conversation's own operations (update, delete, download, stream-start...) and events, the sandbox-scoped secrets, the legacy routes and the web app's world. */
export const laterRoutes: readonly Route[] = Object.freeze([
  ...conversationOpRoutes,
  ...eventRoutes,
  ...sandboxSecretRoutes,
  ...legacyRoutes,
  ...legacyConversationRoutes,
  ...serverConfigRoutes,
  ...settingsRoutes,
  ...secretRoutes,
  ...userGitRoutes,
  ...conversationFileRoutes,
  ...saasRoutes,
]);
