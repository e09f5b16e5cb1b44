/**
 * The agent server's OpenAI-compatible routes, at the host's root (not under `/api`): copies
 * `openhands-agent-server`'s `openai/router.py` (`get_openai_models`, `create_chat_completion`,
 * `create_response` of 1.58.2),
 * mounted by `api.py` with `check_openai_api_key` (`X-Session-API-Key` or `Authorization: Bearer`,
 * `request-keys.ts`). A chat completion waits for the scripted agent's run, as the real gateway
 * polls its conversation (`_wait_for_completion`), up to 120 s (504 after); the wait reads the
 * fake's clock, so a manual clock's run ends when the clock is moved past it.
 */
import * as z from 'zod/mini';
import { agentHostFor } from '../../domain/agent/host.js';
import {
  completionChunks,
  completionOutcome,
  GATEWAY_TIMEOUT_MS,
  openAiModels,
  startChatCompletion,
  type PendingCompletion,
} from '../../domain/agent/openai-gateway.js';
import { chatRequestOf, responseOutcome } from '../../domain/agent/openai-responses.js';
import { isRefusal, Refusal, refuse } from '../../domain/store/refusal.js';
import { Uuid } from '../../schemas/common.js';
import { OpenAIChatCompletion, OpenAIChatCompletionRequest, OpenAIModelList } from '../../schemas/openai-gateway.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route, type RouteContext } from '../../http/route.js';
import { toValidationErrors } from '../../http/validation.js';
import { anyKey } from './host.js';
import { requestKey, takingKeyAs } from './request-keys.js';

/** The header naming a conversation to reuse, and the answer's header naming the one used. */
const CONVERSATION_HEADER = 'X-OpenHands-ServerConversation-ID';
/** How often the gateway looks at the agent's run (the real one: every 2 s). */
const POLL_MS = 100;
const ReuseHeader = z.object({ [CONVERSATION_HEADER]: z.optional(Uuid) });

/** A wait of `ms` that does not keep a process alive. */
const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms) as { unref?: () => void };
    timer.unref?.();
  });

/** The conversation header, validated as FastAPI validates a `UUID | None` header (422 at `["header", name]`). */
function reuseHeader(headers: { get(name: string): string | null }): string | null | Refusal {
  const value = headers.get(CONVERSATION_HEADER);
  if (value === null) return null;
  const parsed = ReuseHeader.safeParse({ [CONVERSATION_HEADER]: value }, { reportInput: true });
  if (parsed.success) return value;
  return new Refusal('invalid', 'Invalid header', {
    errors: toValidationErrors(parsed.error.issues, { [CONVERSATION_HEADER]: value }, 'header'),
  });
}

/** Waits for the run a chat completion started, reading it as one operation each time; 504 past the gateway's timeout. */
async function waitForCompletion(context: RouteContext, pending: PendingCompletion) {
  const deadline = Date.now() + GATEWAY_TIMEOUT_MS;
  for (;;) {
    const outcome = await context.runner.run(completionOutcome, pending);
    if (outcome !== null) return outcome;
    if (Date.now() >= deadline) return refuse('gateway_timeout', 'Agent run timed out');
    await pause(POLL_MS);
  }
}

/** The SSE chunks as a streamed body. */
async function* streamed(chunks: readonly string[]): AsyncIterable<string> {
  for (const chunk of chunks) yield chunk;
}

/** `OpenAIResponseRequest` (extra fields ignored). */
const OpenAIResponseRequest = z.looseObject({
  model: z.string(),
  input: z.union([
    z.string(),
    z.array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant']),
        content: z.union([
          z.string(),
          z.array(
            z.looseObject({ type: z.string(), text: z.optional(z.nullable(z.string())), image_url: z.optional(z.nullable(z.string())) }),
          ),
        ]),
      }),
    ),
  ]),
  instructions: z.optional(z.nullable(z.string())),
  previous_response_id: z.optional(z.nullable(z.string())),
  store: z._default(z.boolean(), false),
  stream: z._default(z.boolean(), false),
  metadata: z.optional(z.nullable(z.record(z.string(), z.string()))),
});

/** The OpenAI-compatible routes (registered in `routes.ts`). */
export const openAiRoutes: readonly Route[] = takingKeyAs('bearer', [
  defineRoute({
    method: 'GET',
    path: '/v1/models',
    summary: 'One model per LLM profile, openhands_<name> (openai/router.py, get_openai_models)',
    response: OpenAIModelList,
    handle: (_input, context) => context.runner.run(openAiModels),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/chat/completions',
    summary:
      "The agent's final response to the latest user message, run in a new or reused conversation; stream=true as SSE chunks (openai/router.py, create_chat_completion)",
    body: OpenAIChatCompletionRequest,
    response: OpenAIChatCompletion,
    errors: [400, 404, 409, 500, 504],
    handle: async (input, context) => {
      const reuse = reuseHeader(input.headers);
      if (isRefusal(reuse)) return reuse;
      const pending = await context.runner.run(async (state) => {
        const host = agentHostFor(state, requestKey(context, input.headers, 'bearer'), anyKey(context));
        return host ? startChatCompletion(state, host, input.body, reuse) : refuse('not_found', 'Not Found');
      });
      if (isRefusal(pending)) return pending;
      const outcome = await waitForCompletion(context, pending);
      if (isRefusal(outcome)) return outcome;
      const header = { [CONVERSATION_HEADER.toLowerCase()]: pending.conversationId };
      if (!input.body.stream) return raw(200, JSON.stringify(outcome), 'application/json', header);
      const chunks = completionChunks(outcome, input.body.stream_options?.include_usage === true);
      return raw(200, streamed(chunks), 'text/event-stream; charset=utf-8', header);
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/responses',
    summary:
      "The agent's final response to the input, run in a new conversation, as an OpenAI Response; no streaming, storage or chaining (openai/router.py, create_response)",
    body: OpenAIResponseRequest,
    response: z.looseObject({ id: z.string(), object: z.literal('response'), output: z.array(z.unknown()) }),
    errors: [400, 404, 409, 500, 504],
    handle: async (input, context) => {
      const chat = chatRequestOf(input.body);
      if (isRefusal(chat)) return chat;
      const pending = await context.runner.run(async (state) => {
        const host = agentHostFor(state, requestKey(context, input.headers, 'bearer'), anyKey(context));
        if (!host) return refuse('not_found', 'Not Found');
        const started = await startChatCompletion(state, host, chat, null);
        return isRefusal(started) ? started : { ...started, createdAt: state.clock.now() / 1000 };
      });
      if (isRefusal(pending)) return pending;
      const deadline = Date.now() + GATEWAY_TIMEOUT_MS;
      for (;;) {
        const outcome = await context.runner.run(responseOutcome, pending, input.body, pending.createdAt);
        if (outcome !== null) {
          if (isRefusal(outcome)) return outcome;
          return raw(200, JSON.stringify(outcome), 'application/json', { [CONVERSATION_HEADER.toLowerCase()]: pending.conversationId });
        }
        if (Date.now() >= deadline) return refuse('gateway_timeout', 'Agent run timed out');
        await pause(POLL_MS);
      }
    },
  }),
]);
