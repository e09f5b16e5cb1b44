/**
 * What the agent server's routes act on: the conversation the request's key opens, or the RUNNING
 * sandbox whose agent server it is; each run as one operation of the instance's runner.
 */
import { conversationFor, keyHolder } from '../../domain/agent/agent-server.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import type { DomainState } from '../../domain/store/state.js';
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import type { RouteContext, RouteInput } from '../../http/route.js';

/** Runs `body` on the conversation the request's key opens (404 when it does not), as one operation. */
export function onConversation<T>(input: Pick<RouteInput<unknown, unknown, '/:conversation_id'>, 'params' | 'headers'>, context: RouteContext, body: (state: DomainState, conversation: ConversationRecord) => T | Promise<T>) {
  return context.runner.run(async (state) => {
    const conversation = conversationFor(state, input.params.conversation_id, input.headers.get(SESSION_API_KEY_HEADER));
    return isRefusal(conversation) ? conversation : body(state, conversation);
  });
}

/** Runs `body` on the RUNNING sandbox whose agent server the request's key opens (404 otherwise), as one operation. */
export function onHostSandbox<T>(input: Pick<RouteInput<unknown, unknown>, 'headers'>, context: RouteContext, body: (state: DomainState, sandbox: SandboxRecord, key: string) => T | Promise<T>) {
  return context.runner.run(async (state) => {
    const key = input.headers.get(SESSION_API_KEY_HEADER) ?? '';
    const holder = keyHolder(state, key);
    return holder.kind === 'running' ? body(state, holder.sandbox, key) : refuse('not_found', 'Not Found');
  });
}

