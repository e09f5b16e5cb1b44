/**
 * A conversation's runtime routes (openhands-agent-server 1.58.2 `runtime_router.py`,
 * `create_runtime_router`): the host's shell, file and git routes and its VS Code routes again
 * under `/api/conversations/{runtime_conversation_id}/…`, bound to that conversation
 * (`bind_local_conversation_runtime`: 404 for one the host does not hold; a `path` or
 * `workspace_dir` must lie in its workspace, 422; a trajectory must be its own, 422) and with its
 * workspace as the shell's and the editor's default folder. Each answers as the host's route it
 * repeats. The fake's shell keeps one history for the host, which these routes share (the real
 * keeps one per conversation). Also the conversation's runtime status (`conversation_router.py`:
 * `GET .../runtime`, `POST .../runtime/reprovision`; a local runtime is always available).
 */
import * as z from 'zod/mini';
import { hostConversationInfo } from '../../domain/agent/conversations.js';
import { RUNTIME_AVAILABLE } from '../../domain/agent/agent-server.js';
import { heldConversation } from '../../domain/agent/host.js';
import { isRefusal, Refusal, refuse } from '../../domain/store/refusal.js';
import { Uuid } from '../../schemas/common.js';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../../http/route.js';
import { onAgentHost, onHeldConversation } from './host.js';

const PREFIX = '/api/conversations/:runtime_conversation_id';
/** The host's routes a runtime repeats, by method and path (`bash_router`, `file_router`, `runtime_git_router`, `vscode_router`). */
const REPEATED: readonly (readonly [string, string])[] = [
  ['GET', '/api/bash/bash_events/search'],
  ['GET', '/api/bash/bash_events/:event_id'],
  ['GET', '/api/bash/bash_events/'],
  ['POST', '/api/bash/start_bash_command'],
  ['POST', '/api/bash/execute_bash_command'],
  ['DELETE', '/api/bash/bash_events'],
  ['POST', '/api/bash/bash_commands/:command_id/stop'],
  ['POST', '/api/file/upload'],
  ['GET', '/api/file/download'],
  ['POST', '/api/file/create_directory'],
  ['GET', '/api/file/download-trajectory/:conversation_id'],
  ['GET', '/api/file/archive'],
  ['GET', '/api/git/changes'],
  ['GET', '/api/git/diff'],
  ['GET', '/api/git/commits'],
  ['GET', '/api/git/commits/:sha/changes'],
  ['GET', '/api/vscode/url'],
  ['GET', '/api/vscode/status'],
];

/** A 422 whose detail is a sentence (an `HTTPException(422, ...)`), not a list of validation errors. */
const unprocessable = (detail: string) => new Refusal('invalid', detail, { body: { detail } });

/** `/a/./b/../c` → `/a/c`, as `Path.resolve` reads an absolute path. */
function resolved(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/**
 * `bind_local_conversation_runtime`: the conversation the runtime id names, held by the host the
 * request reaches (404 `Conversation not found: <id>`), with its paths checked; its workspace folder.
 */
function bindRuntime(input: RouteInput<unknown, unknown>, context: RouteContext) {
  const params = input.params as Record<string, string>;
  const runtimeId = params.runtime_conversation_id!;
  return onAgentHost(input, context, (state, host) => {
    const conversation = heldConversation(state, host, runtimeId);
    if (isRefusal(conversation)) return refuse('not_found', `Conversation not found: ${runtimeId}`);
    const workspace = resolved(hostConversationInfo(state, conversation).workspace.working_dir);
    const query = (input.query ?? {}) as Record<string, unknown>;
    for (const name of ['path', 'workspace_dir']) {
      const requested = params[name] ?? query[name];
      if (typeof requested !== 'string') continue;
      const target = resolved(requested);
      if (!requested.startsWith('/') || (target !== workspace && !target.startsWith(`${workspace}/`)))
        return unprocessable(`${name} must be inside the conversation workspace`);
    }
    if (params.conversation_id !== undefined && params.conversation_id.toLowerCase() !== conversation.id.toLowerCase())
      return unprocessable('Trajectory must belong to the selected conversation');
    return { workspace };
  });
}

/** A host route repeated under a runtime: bound first, its shell and editor defaulting to the conversation's workspace. */
function repeated(route: Route): Route {
  const shape = (route.params as z.ZodMiniObject | undefined)?.shape ?? {};
  return {
    ...route,
    path: `${PREFIX}${route.path.slice('/api'.length)}`,
    summary: `${route.summary}, bound to a conversation's runtime (runtime_router.py)`,
    params: z.object({ ...shape, runtime_conversation_id: Uuid }),
    errors: [...new Set([...(route.errors ?? []), 404 as const])],
    handle: async (input, context) => {
      const bound = await bindRuntime(input, context);
      if (isRefusal(bound)) return bound;
      const body = input.body as Record<string, unknown> | undefined;
      // The runtime's shell starts in the conversation's workspace (`BashEventService(default_cwd=…)`), its editor opens it.
      if (route.path.startsWith('/api/bash/') && body && typeof body === 'object' && body.cwd == null)
        return route.handle({ ...input, body: { ...body, cwd: bound.workspace } }, context);
      if (route.path === '/api/vscode/url' && (input.query as { workspace_dir?: string }).workspace_dir === 'workspace')
        return route.handle({ ...input, query: { ...(input.query as object), workspace_dir: bound.workspace } }, context);
      return route.handle(input, context);
    },
  };
}

/** `ConversationRuntimeInfo`. */
const RuntimeInfo = z.object({
  runtime_status: z.enum(['available', 'starting', 'missing', 'ownership_lost', 'error']),
  can_resume: z.boolean(),
  runtime_error: z.nullable(z.object({ code: z.string(), message: z.string() })),
});
const ConversationParam = z.object({ conversation_id: Uuid });

/** The runtime routes, made from the host's routes they repeat (`hostRoutes`: the agent server's table). */
export function runtimeRoutes(hostRoutes: readonly Route[]): Route[] {
  const repeats = REPEATED.map(([method, path]) => {
    const route = hostRoutes.find((r) => r.method === method && r.path === path);
    if (!route) throw new Error(`runtime-routes: the host serves no ${method} ${path}`);
    return repeated(route);
  });
  return [
    ...repeats,
    defineRoute({
      method: 'GET',
      path: '/api/conversations/:conversation_id/runtime',
      summary: "A conversation's runtime: a local one is available (conversation_router.py, get_local_conversation_runtime)",
      params: ConversationParam,
      response: RuntimeInfo,
      errors: [404],
      handle: (input, context) => onHeldConversation(input, context, () => RUNTIME_AVAILABLE),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/conversations/:conversation_id/runtime/reprovision',
      summary: 'Provision the runtime again: a local one is already there (conversation_router.py, reprovision_local_conversation_runtime)',
      params: ConversationParam,
      response: RuntimeInfo,
      errors: [404],
      handle: (input, context) => onHeldConversation(input, context, () => RUNTIME_AVAILABLE),
    }),
  ];
}
