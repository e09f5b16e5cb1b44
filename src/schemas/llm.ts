/**
 * What the scripted LLM accepts: the request bodies of the three APIs an agent's LLM layer
 * (LiteLLM, under openhands-sdk `llm/llm.py`) sends — OpenAI's Chat Completions and Responses, and
 * Anthropic's Messages — as loose objects: the fields the LLM reads are checked, every other field a
 * client sends (temperature, metadata, reasoning settings, ...) is accepted and ignored, as the real
 * providers accept them.
 */
import * as z from 'zod/mini';

/** A content part of a message (`{type: 'text', text}`, an image, a tool result ...). */
const ContentPart = z.looseObject({ type: z.string(), text: z.optional(z.nullable(z.string())) });

/** A message's content: a string, parts, or none (an assistant message of tool calls only). */
const Content = z.optional(z.nullable(z.union([z.string(), z.array(ContentPart)])));

/** A tool call an assistant message carries (Chat Completions). */
const ChatToolCall = z.looseObject({
  id: z.string(),
  type: z.optional(z.string()),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

/** A message of a chat completion's `messages`. */
export const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: Content,
  tool_calls: z.optional(z.nullable(z.array(ChatToolCall))),
  tool_call_id: z.optional(z.nullable(z.string())),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A tool as Chat Completions lists it (`{type: 'function', function: {name, parameters}}`). */
export const ChatTool = z.looseObject({
  type: z.optional(z.string()),
  function: z.looseObject({
    name: z.string().check(z.minLength(1)),
    description: z.optional(z.nullable(z.string())),
    parameters: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  }),
});
export type ChatTool = z.infer<typeof ChatTool>;

/** `POST /v1/chat/completions`. */
export const ChatCompletionRequest = z.looseObject({
  model: z.string().check(z.minLength(1)),
  messages: z.array(ChatMessage).check(z.minLength(1)),
  tools: z.optional(z.nullable(z.array(ChatTool))),
  stream: z.optional(z.nullable(z.boolean())),
  stream_options: z.optional(z.nullable(z.looseObject({ include_usage: z.optional(z.nullable(z.boolean())) }))),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

/** An item of a Responses request's `input`: a message, a function call, a call's output, reasoning ... */
export const ResponsesInputItem = z.looseObject({
  type: z.optional(z.string()),
  role: z.optional(z.string()),
  content: Content,
  name: z.optional(z.string()),
  call_id: z.optional(z.string()),
  output: z.optional(z.unknown()),
});
export type ResponsesInputItem = z.infer<typeof ResponsesInputItem>;

/** A tool as the Responses API lists it (`{type: 'function', name, parameters}`). */
export const ResponsesTool = z.looseObject({
  type: z.string(),
  name: z.optional(z.string()),
  parameters: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});

/** `POST /v1/responses`. */
export const ResponsesRequest = z.looseObject({
  model: z.string().check(z.minLength(1)),
  input: z.union([z.string(), z.array(ResponsesInputItem)]),
  instructions: z.optional(z.nullable(z.string())),
  tools: z.optional(z.nullable(z.array(ResponsesTool))),
  stream: z.optional(z.nullable(z.boolean())),
});
export type ResponsesRequest = z.infer<typeof ResponsesRequest>;

/** A content block of an Anthropic message (`text`, `tool_use`, `tool_result`, `image` ...). */
const AnthropicBlock = z.looseObject({
  type: z.string(),
  text: z.optional(z.string()),
  name: z.optional(z.string()),
  id: z.optional(z.string()),
  tool_use_id: z.optional(z.string()),
});

/** A message of Anthropic's `messages`: user or assistant, text or blocks. */
export const AnthropicMessage = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(AnthropicBlock)]),
});
export type AnthropicMessage = z.infer<typeof AnthropicMessage>;

/** A tool as Anthropic lists it (`{name, description, input_schema}`). */
export const AnthropicTool = z.looseObject({
  name: z.string().check(z.minLength(1)),
  input_schema: z.optional(z.record(z.string(), z.unknown())),
});

/** `POST /v1/messages`. */
export const AnthropicMessagesRequest = z.looseObject({
  model: z.string().check(z.minLength(1)),
  max_tokens: z.int().check(z.gte(1)),
  messages: z.array(AnthropicMessage).check(z.minLength(1)),
  system: z.optional(z.union([z.string(), z.array(AnthropicBlock)])),
  tools: z.optional(z.array(AnthropicTool)),
  stream: z.optional(z.boolean()),
});
export type AnthropicMessagesRequest = z.infer<typeof AnthropicMessagesRequest>;
