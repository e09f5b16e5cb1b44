/**
 * A conversation's workspace as a static web server, relative to the agent host: copies
 * `openhands-agent-server`'s `workspace_router.py` (`serve_workspace_root`,
 * `serve_workspace_file`), mounted under `/api` with its own auth group (`api.py`,
 * `check_workspace_session`): the `X-Session-API-Key` header or the workspace session cookie, so that
 * an `<iframe>` or `<img>` can load a workspace's page (`request-keys.ts`).
 */
import * as z from 'zod/mini';
import { agentHostFor, heldConversation } from '../../domain/agent/host.js';
import { conversationNotFound, serveWorkspacePath } from '../../domain/agent/workspace-files.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import { Uuid } from '../../schemas/common.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../http/route.js';
import { anyKey } from './host.js';
import { requestKey, takingKeyAs } from './request-keys.js';

const BASE = '/api/conversations/:conversation_id/workspace';
const ConversationParam = z.object({ conversation_id: Uuid });

/** The file at `filePath` in the workspace of the conversation the request's key (or cookie) reaches, as `FileResponse` sends it. */
function serve(input: RouteInput<unknown, unknown>, context: RouteContext, filePath: string) {
  const id = (input.params as { conversation_id: string }).conversation_id;
  return context.runner.run((state) => {
    const host = agentHostFor(state, requestKey(context, input.headers, 'workspace-cookie'), anyKey(context));
    if (!host) return refuse('not_found', 'Not Found');
    const conversation = heldConversation(state, host, id);
    if (isRefusal(conversation)) return conversationNotFound(id);
    const file = serveWorkspacePath(state, conversation, filePath);
    return isRefusal(file) ? file : raw(200, file.bytes, file.contentType);
  });
}

/** The workspace routes (registered in `routes.ts`). */
export const conversationWorkspaceRoutes: readonly Route[] = takingKeyAs('workspace-cookie', [
  defineRoute({
    method: 'GET',
    path: BASE,
    summary: "The workspace root's index.html (workspace_router.py, serve_workspace_root)",
    params: ConversationParam,
    response: z.unknown(),
    untypedInDocument: true,
    errors: [404],
    handle: (input, context) => serve(input, context, ''),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/`,
    summary: "The workspace root's index.html (workspace_router.py, serve_workspace_file with an empty path)",
    internal: true,
    params: ConversationParam,
    response: z.unknown(),
    errors: [404],
    handle: (input, context) => serve(input, context, ''),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/:file_path*`,
    summary: "A workspace file, or a directory's index.html; 400 outside the workspace (workspace_router.py, serve_workspace_file)",
    params: z.object({ conversation_id: Uuid, file_path: z.string() }),
    response: z.unknown(),
    untypedInDocument: true,
    errors: [400, 404],
    handle: (input, context) => serve(input, context, input.params.file_path),
  }),
]);
