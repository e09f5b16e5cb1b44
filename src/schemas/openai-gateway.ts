/**
 * The OpenAI-compatible gateway of the agent server, as `openhands-agent-server`'s
 * `openai/models.py` declares it (Aug 2026): the request (`OpenAIChatCompletionRequest`, extra
 * fields ignored) and the OpenAI types it answers with (`ChatCompletion`, `ChatCompletionChunk`,
 * `Model`, `CompletionUsage`), fields in the OpenAI SDK's order, `None` fields left out
 * (`response_model_exclude_none`).
 */
import * as z from 'zod/mini';

/** `OpenAIContentPart`: a text part, an image part (`image_url` an object with `url` or a string), or another type (refused by the service). */
export const OpenAIContentPart = z.looseObject({
  type: z.string(),
  text: z.optional(z.nullable(z.string())),
  image_url: z.optional(z.nullable(z.union([z.looseObject({ url: z.string() }), z.string()]))),
});

/** `OpenAIChatMessage`: a role and its content (a string, parts, or none). */
export const OpenAIChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.optional(z.nullable(z.union([z.string(), z.array(OpenAIContentPart)]))),
});

/** `POST /v1/chat/completions` (`OpenAIChatCompletionRequest`). */
export const OpenAIChatCompletionRequest = z.looseObject({
  model: z.string(),
  messages: z.array(OpenAIChatMessage),
  stream: z._default(z.boolean(), false),
  stream_options: z.optional(z.nullable(z.looseObject({ include_usage: z._default(z.boolean(), false) }))),
});

/** `CompletionUsage`. */
export const OpenAIUsage = z.object({ completion_tokens: z.int(), prompt_tokens: z.int(), total_tokens: z.int() });

/** `ChatCompletion` as the gateway answers it: one choice, the agent's final response. */
export const OpenAIChatCompletion = z.object({
  id: z.string(),
  choices: z.array(
    z.object({
      finish_reason: z.literal('stop'),
      index: z.int(),
      message: z.object({ content: z.string(), role: z.literal('assistant') }),
    }),
  ),
  created: z.int(),
  model: z.string(),
  object: z.literal('chat.completion'),
  usage: OpenAIUsage,
});

/** `ChatCompletionChunk` as the gateway streams it. */
export const OpenAIChatCompletionChunk = z.object({
  id: z.string(),
  choices: z.array(
    z.object({
      delta: z.object({ content: z.optional(z.string()), role: z.optional(z.literal('assistant')) }),
      finish_reason: z.optional(z.literal('stop')),
      index: z.int(),
    }),
  ),
  created: z.int(),
  model: z.string(),
  object: z.literal('chat.completion.chunk'),
  usage: z.optional(OpenAIUsage),
});

/** `GET /v1/models` (`OpenAIModelListResponse`): one `Model` per LLM profile. */
export const OpenAIModelList = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ id: z.string(), created: z.int(), object: z.literal('model'), owned_by: z.string() })),
});

/** The chat completion request. */
export type OpenAIChatCompletionRequest = z.infer<typeof OpenAIChatCompletionRequest>;
/** A chat message. */
export type OpenAIChatMessage = z.infer<typeof OpenAIChatMessage>;
/** A chat completion. */
export type OpenAIChatCompletion = z.infer<typeof OpenAIChatCompletion>;
/** A streamed chunk. */
export type OpenAIChatCompletionChunk = z.infer<typeof OpenAIChatCompletionChunk>;
