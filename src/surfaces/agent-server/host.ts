/**
 * What the agent server's routes act on: the conversation the request's key opens, or the RUNNING
 * sandbox whose agent server it is; each run as one operation of the instance's runner.
 */
import { isRefusal, refuse, type Refusal } from '../../domain/store/refusal.js';
import { agentHostFor, heldConversation, hostMachine, type AgentHost } from '../../domain/agent/host.js';
import type { DomainState } from '../../domain/store/state.js';
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import type { RouteContext, RouteInput } from '../../http/route.js';

/** Runs `body` on the conversation the request's key opens (404 when it does not), as one operation. */
export function onConversation<T>(
  input: Pick<RouteInput<unknown, unknown, '/:conversation_id'>, 'params' | 'headers'>,
  context: RouteContext,
  body: (state: DomainState, conversation: ConversationRecord) => T | Promise<T>,
) {
  return context.runner.run((state) => {
    // The key is looked up once: a sandbox's agent server holds its own V1 conversations (`hostHolds`), none without a RUNNING sandbox's key.
    const host = agentHostFor(state, input.headers.get(SESSION_API_KEY_HEADER), anyKey(context));
    const conversation = host ? heldConversation(state, host, input.params.conversation_id) : refuse('not_found', 'Not Found');
    return isRefusal(conversation) ? conversation : body(state, conversation);
  });
}

/** How `onHostSandbox` finds the local agent server's machine. */
export interface MachineOptions {
  /** Make one (a new RUNNING sandbox) when none runs: a write, or the editor. */
  create?: boolean;
  /** What answers when none runs and none is made (default 404 `Not Found`). */
  missing?: () => Refusal;
}

/**
 * Runs `body` on the machine of the agent server the request reaches (`hostMachine`): a RUNNING
 * sandbox's, by its key; under `--auth none` without one, the local agent server's (`create`
 * makes one when none runs; else `missing` answers); 404 otherwise. One operation.
 */
export function onHostSandbox<T>(
  input: Pick<RouteInput<unknown, unknown>, 'headers'>,
  context: RouteContext,
  body: (state: DomainState, sandbox: SandboxRecord, host: AgentHost) => T | Promise<T>,
  { create = false, missing }: MachineOptions = {},
) {
  return context.runner.run(async (state) => {
    const host = agentHostFor(state, input.headers.get(SESSION_API_KEY_HEADER), anyKey(context));
    if (!host) return refuse('not_found', 'Not Found');
    const sandbox = await hostMachine(state, host, create, missing);
    return isRefusal(sandbox) ? sandbox : body(state, sandbox, host);
  });
}

/** Whether the agent host takes any or no key (the fake runs with `--auth none`): then a request without a sandbox's key reaches the local agent server. */
export const anyKey = (context: RouteContext) => context.options.auth === 'none';

/** Runs `body` on the agent server the request reaches (`agent-host.ts`: a sandbox's, or the local one under `--auth none`); 404 when none. */
export function onAgentHost<T>(
  input: Pick<RouteInput<unknown, unknown>, 'headers'>,
  context: RouteContext,
  body: (state: DomainState, host: AgentHost) => T | Promise<T>,
) {
  return context.runner.run((state) => {
    const host = agentHostFor(state, input.headers.get(SESSION_API_KEY_HEADER), anyKey(context));
    return host ? body(state, host) : refuse('not_found', 'Not Found');
  });
}

/** Runs `body` on the conversation the host the request reaches holds; `missing` answers one it does not hold (default: 404 `Not Found`). */
export function onHeldConversation<T>(
  input: Pick<RouteInput<unknown, unknown, '/:conversation_id'>, 'params' | 'headers'>,
  context: RouteContext,
  body: (state: DomainState, conversation: ConversationRecord, host: AgentHost) => T | Promise<T>,
  missing: () => Refusal = () => refuse('not_found', 'Not Found'),
) {
  return onAgentHost(input, context, (state, host) => {
    const conversation = heldConversation(state, host, input.params.conversation_id);
    return isRefusal(conversation) ? missing() : body(state, conversation, host);
  });
}
