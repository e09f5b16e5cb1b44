/**
 * A legacy conversation's own routes (`/api/conversations/{id}/...`): config for both versions,
 * start and stop, and the workspace, events, microagents, trajectory and feedback of a running V0
 * conversation (openhands `server/routes/conversation.py`, `files.py`, `manage_conversations.py`,
 * `feedback.py`, `trajectory.py`). A V0 conversation in the fake has no agent of its own: its events
 * and trajectory are those a `replay_json` replay published (`v0-events.ts`), else none.
 */
import * as z from 'zod/mini';
import {
  attach,
  conversationMicroagents,
  type Attached,
  listFiles,
  runtimeConfig,
  selectFile,
  startConversation,
  stopConversation,
  uploadFiles,
  zipWorkspace,
} from '../../../domain/legacy/conversation-ops.js';
import { badRequest, isRefusal } from '../../../domain/store/refusal.js';
import { v0EventPage, v0Trajectory } from '../../../domain/legacy/v0-events.js';
import { gitChanges, gitDiff, type ReadyContext } from '../../../domain/conversations/conversation-ops.js';
import type { DomainState } from '../../../domain/store/state.js';
import { LaxBool, laxInt } from '../../../schemas/helpers.js';
import { ConversationResponse } from '../../../schemas/legacy.js';
import { raw } from '../../../http/responses.js';
import { defineRoute, type Route, type RouteContext, type UploadedFile } from '../../../http/route.js';

const BASE = '/api/conversations/:conversation_id';
const Param = z.object({ conversation_id: z.string() });

/** Runs `body` on the attached (running V0) conversation, or answers its 404. */
function onAttached<T>(id: string, context: RouteContext, body: (attached: Attached, state: DomainState) => T | Promise<T>) {
  return context.runner.run(async (state) => {
    const attached = attach(state, id);
    return isRefusal(attached) ? attached : body(attached, state);
  });
}

/** An attached conversation as the agent-server helpers take it. */
const ready = (attached: Attached): ReadyContext => ({
  kind: 'ready',
  conversation: attached.conversation,
  sandbox: attached.sandbox,
  workingDir: attached.workspace.projectDir,
  workspace: attached.workspace,
});

/** The legacy conversation routes. */
export const legacyConversationRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: `${BASE}/config`,
    summary: 'The runtime of a conversation: its sandbox and session (V1 too)',
    params: Param,
    untypedInDocument: true,
    response: z.object({ runtime_id: z.nullable(z.string()), session_id: z.nullable(z.string()) }),
    errors: [404],
    handle: ({ params }, context) => context.runner.run(runtimeConfig, params.conversation_id),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/start`,
    summary: "Start a conversation's agent loop (its sandbox resumes)",
    params: Param,
    body: z.object({ providers_set: z._default(z.nullable(z.array(z.string())), null) }),
    bodyOptional: true,
    response: ConversationResponse,
    errors: [404],
    handle: ({ params }, context) => context.runner.run(startConversation, params.conversation_id),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/stop`,
    summary: "Stop a conversation's agent loop (its sandbox pauses)",
    params: Param,
    response: ConversationResponse,
    handle: ({ params }, context) => context.runner.run(stopConversation, params.conversation_id),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/list-files`,
    summary: 'The entries of a workspace directory (directories end in /)',
    params: Param,
    query: z.object({ path: z.optional(z.string()) }),
    response: z.array(z.string()),
    errors: [404],
    handle: ({ params, query }, context) => onAttached(params.conversation_id, context, (attached) => listFiles(attached, query.path)),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/select-file`,
    summary: 'One workspace file: {"code": ...}',
    params: Param,
    query: z.object({ file: z.string() }),
    response: z.record(z.string(), z.string()),
    errors: [404, 500],
    handle: ({ params, query }, context) => onAttached(params.conversation_id, context, (attached) => selectFile(attached, query.file)),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/zip-directory`,
    summary: 'The workspace as a ZIP',
    params: Param,
    response: z.unknown(),
    untypedInDocument: true,
    errors: [404],
    handle: ({ params }, context) =>
      onAttached(params.conversation_id, context, (attached, state) =>
        raw(200, zipWorkspace(state, attached), 'application/zip', { 'content-disposition': 'attachment; filename="workspace.zip"' }),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/git/changes`,
    summary: "The workspace's changed files",
    params: Param,
    response: z.array(z.record(z.string(), z.string())),
    errors: [404],
    handle: ({ params }, context) =>
      onAttached(params.conversation_id, context, (attached) => gitChanges(ready(attached), attached.workspace.projectDir)),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/git/diff`,
    summary: 'A changed file before and after',
    params: Param,
    query: z.object({ path: z.string() }),
    response: z.record(z.string(), z.unknown()),
    errors: [404],
    handle: ({ params, query }, context) => onAttached(params.conversation_id, context, (attached) => gitDiff(ready(attached), query.path)),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/upload-files`,
    summary: 'Files written into the workspace',
    params: Param,
    form: { files: 'files' },
    response: z.object({ uploaded_files: z.array(z.string()), skipped_files: z.array(z.object({ name: z.string(), reason: z.string() })) }),
    errors: [404],
    handle: ({ params, body }, context) =>
      onAttached(params.conversation_id, context, (attached, state) =>
        uploadFiles(state, attached, (body as unknown as { files: UploadedFile[] }).files),
      ),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/events`,
    summary: "A page of the V0 event stream: a replay_json replay's events (conversation.py, search_events)",
    params: Param,
    query: z.object({
      start_id: z._default(laxInt(z.int()), 0),
      end_id: z.optional(laxInt(z.int())),
      reverse: z._default(LaxBool, false),
      limit: z._default(laxInt(z.int()), 20),
    }),
    untypedInDocument: true,
    response: z.object({ events: z.array(z.unknown()), has_more: z.boolean() }),
    errors: [400, 404],
    handle: ({ params, query }, context) =>
      onAttached(params.conversation_id, context, (attached, state) =>
        query.limit < 0 || query.limit > 100 ? badRequest('Invalid limit') : v0EventPage(state, attached.conversation.id, query),
      ),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/events`,
    summary: 'Add an event to the V0 stream',
    params: Param,
    body: z.record(z.string(), z.unknown()),
    untypedInDocument: true,
    response: z.object({ success: z.boolean() }),
    errors: [404],
    handle: ({ params }, context) => onAttached(params.conversation_id, context, () => ({ success: true })),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/microagents`,
    summary: "The microagents the conversation's repository brings",
    params: Param,
    untypedInDocument: true,
    response: z.object({ microagents: z.array(z.record(z.string(), z.unknown())) }),
    errors: [404],
    handle: ({ params }, context) => onAttached(params.conversation_id, context, (attached) => conversationMicroagents(attached)),
  }),
  defineRoute({
    method: 'GET',
    path: `${BASE}/trajectory`,
    summary: "The V0 trajectory: a replay_json replay's events (trajectory.py, get_trajectory)",
    params: Param,
    untypedInDocument: true,
    response: z.object({ trajectory: z.array(z.unknown()) }),
    errors: [404],
    handle: ({ params }, context) =>
      onAttached(params.conversation_id, context, (attached, state) => ({ trajectory: v0Trajectory(state, attached.conversation.id) })),
  }),
  defineRoute({
    method: 'POST',
    path: `${BASE}/submit-feedback`,
    summary: 'Feedback on a conversation (kept on the machine: nothing is sent anywhere)',
    params: Param,
    body: z.record(z.string(), z.unknown()),
    untypedInDocument: true,
    response: z.record(z.string(), z.unknown()),
    errors: [404],
    handle: ({ params }, context) =>
      onAttached(params.conversation_id, context, (attached) => ({
        statusCode: 200,
        body: { message: 'Feedback submitted successfully', feedback_id: attached.conversation.id, password: '' },
      })),
  }),
]);
