/**
 * The gateway's Responses API (`POST /v1/responses`, openhands-agent-server 1.58.2
 * `openai/service.py`, run_response): the input is one user turn for a new conversation run by the
 * profile's agent — as a chat completion is (`openai-gateway.ts`) — answered as an OpenAI
 * `Response` whose one output message is the agent's final response. No streaming, no stored
 * responses, no chaining (400 each, as the real one).
 */
import type { OpenAIChatCompletionRequest } from '../../schemas/openai-gateway.js';
import { metricsOf } from '../conversations/views.js';
import { toHex } from '../store/ids.js';
import { badRequest, isRefusal, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { completionOutcome, type PendingCompletion } from './openai-gateway.js';

/** `OpenAIResponseInputMessage`, as validated. */
export interface ResponseInputMessage {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string | { type: string; text?: string | null | undefined; image_url?: string | null | undefined }[];
}

/** `OpenAIResponseRequest`, as validated. */
export interface ResponseRequest {
  model: string;
  input: string | ResponseInputMessage[];
  instructions?: string | null | undefined;
  previous_response_id?: string | null | undefined;
  store: boolean;
  stream: boolean;
  metadata?: Record<string, string> | null | undefined;
}

/** A chat content part. */
type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** `_response_content_to_sdk_parts`: text parts (input or output text) and images; 400 for another part or an image without its url. */
function partsOf(message: ResponseInputMessage): ChatPart[] | Refusal {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  const parts: ChatPart[] = [];
  for (const part of message.content) {
    if (part.type === 'input_text' || part.type === 'output_text') {
      if (part.text) parts.push({ type: 'text', text: part.text });
    } else if (part.type === 'input_image') {
      if (!part.image_url) return badRequest('input_image content part is missing an image_url');
      parts.push({ type: 'image_url', image_url: { url: part.image_url } });
    } else return badRequest(`Unsupported Responses content part type: ${part.type}`);
  }
  return parts;
}

/**
 * The chat completion a Responses request runs as (`run_response` up to the run): the instructions
 * and system or developer messages as the system text (`_response_system_text`), the rest as one
 * user turn (`_response_user_content`: a lone user message as it is, several each wrapped in
 * `<message role="…">`); 400 for what the real one refuses.
 */
export function chatRequestOf(request: ResponseRequest): OpenAIChatCompletionRequest | Refusal {
  if (request.stream) return badRequest('Streaming responses are not supported yet');
  if (request.store) return badRequest('Persistent response storage (store=True) is not supported yet');
  if (request.previous_response_id) return badRequest('previous_response_id is not supported; replay input items instead');
  const system: string[] = request.instructions?.trim() ? [request.instructions.trim()] : [];
  let user: ChatPart[];
  if (typeof request.input === 'string') {
    if (!request.input) return badRequest('Responses input must not be empty');
    user = [{ type: 'text', text: request.input }];
  } else {
    for (const message of request.input.filter((m) => m.role === 'system' || m.role === 'developer')) {
      const parts = partsOf(message);
      if (isRefusal(parts)) return parts;
      const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      if (text) system.push(text);
    }
    const turns = request.input.filter((m) => m.role !== 'system' && m.role !== 'developer');
    if (!turns.some((m) => m.role === 'user')) return badRequest('Responses input must include a user message');
    user = [];
    for (const message of turns) {
      const parts = partsOf(message);
      if (isRefusal(parts)) return parts;
      if (turns.length === 1) user = parts;
      else user.push({ type: 'text', text: `<message role="${message.role}">` }, ...parts, { type: 'text', text: '</message>' });
    }
  }
  return {
    model: request.model,
    messages: [...(system.length > 0 ? [{ role: 'system' as const, content: system.join('\n\n') }] : []), { role: 'user', content: user }],
    stream: false,
  };
}

/** `null` while the agent runs; then the `Response` (`OpenAIResponse`, `None` fields left out), or the refusal of a run that did not finish. */
export function responseOutcome(state: DomainState, pending: PendingCompletion, request: ResponseRequest, createdAt: number) {
  const outcome = completionOutcome(state, pending);
  if (outcome === null || isRefusal(outcome)) return outcome;
  const conversation = state.store.conversations.get(pending.conversationId)!;
  const usage = metricsOf(state, conversation).accumulated_token_usage;
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    id: `resp_${toHex(state.random.uuid())}`,
    created_at: createdAt,
    completed_at: state.clock.now() / 1000,
    ...(request.instructions == null ? {} : { instructions: request.instructions }),
    ...(request.metadata == null ? {} : { metadata: request.metadata }),
    model: request.model,
    object: 'response' as const,
    output: [
      {
        id: `msg_${toHex(state.random.uuid())}`,
        content: [{ annotations: [], text: outcome.choices[0]!.message.content, type: 'output_text' as const }],
        role: 'assistant' as const,
        status: 'completed' as const,
        type: 'message' as const,
      },
    ],
    parallel_tool_calls: false,
    status: 'completed' as const,
    tool_choice: 'none' as const,
    tools: [],
    usage: {
      input_tokens: input,
      input_tokens_details: { cached_tokens: usage?.cache_read_tokens ?? 0 },
      output_tokens: output,
      output_tokens_details: { reasoning_tokens: usage?.reasoning_tokens ?? 0 },
      total_tokens: input + output,
    },
  };
}
