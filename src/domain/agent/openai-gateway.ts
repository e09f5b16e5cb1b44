/**
 * The agent server's OpenAI-compatible gateway: each LLM profile is a model (`openhands_<name>`),
 * and a chat completion is a conversation run by the agent on the latest user message, answered
 * with the agent's final response. Copies `openhands-agent-server`'s `openai/service.py`
 * (`list_openai_models`, `run_chat_completion`, `_conversation_request`, `_content_to_sdk_parts`,
 * `_latest_user_message`, `_raise_for_terminal_error`, `_openai_usage_from_state`,
 * `iter_openai_chat_completion_sse`). The fake's scripted agent answers; nothing leaves the process.
 */
import type {
  OpenAIChatCompletion,
  OpenAIChatCompletionChunk,
  OpenAIChatCompletionRequest,
  OpenAIChatMessage,
} from '../../schemas/openai-gateway.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { sendToAgent } from './agent-server.js';
import { startHostConversation } from './conversations.js';
import { agentFinalResponse } from './history.js';
import { heldConversation, type AgentHost } from './host.js';
import { agentStatus } from './status.js';
import { seedDefaultProfile } from '../agent-world/settings.js';
import { metricsOf } from '../conversations/views.js';
import { messageText } from '../conversations/start-tasks.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { badRequest, isRefusal, type Refusal, refuse } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** The prefix of a profile's model id (`_MODEL_PREFIX`). */
export const MODEL_PREFIX = 'openhands_';
/** How long the gateway waits for the agent's run (`_GATEWAY_TIMEOUT_SECONDS`), in milliseconds. */
export const GATEWAY_TIMEOUT_MS = 120_000;

/** An SDK message content part. */
type Part = { type: 'text'; text: string; cache_prompt: boolean } | { type: 'image'; image_urls: string[]; cache_prompt: boolean };

/** `GET /v1/models` (`list_openai_models`): one model per saved LLM profile, sorted by id. */
export async function openAiModels(state: DomainState) {
  await seedDefaultProfile(state);
  const names = Object.keys(state.store.settings?.llm_profiles ?? {});
  const ids = names.map((name) => `${MODEL_PREFIX}${name}`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { object: 'list' as const, data: ids.map((id) => ({ id, object: 'model' as const, created: 0, owned_by: 'openhands' })) };
}

/** `_content_to_sdk_parts`: text and image parts; 400 for another type or an image without a url. */
function partsOf(message: OpenAIChatMessage): Part[] | Refusal {
  const content = message.content;
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content, cache_prompt: false }];
  const parts: Part[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text) parts.push({ type: 'text', text: part.text, cache_prompt: false });
    } else if (part.type === 'image_url') {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
      if (url === undefined) return badRequest('image_url content part is missing a url');
      parts.push({ type: 'image', image_urls: [url], cache_prompt: false });
    } else return badRequest(`Unsupported content part type: ${part.type}`);
  }
  return parts;
}

/** `_latest_user_message`: the last user message's parts; 400 without one. */
function latestUserParts(messages: readonly OpenAIChatMessage[]): Part[] | Refusal {
  const message = messages.findLast((m) => m.role === 'user');
  return message ? partsOf(message) : badRequest('At least one user message is required');
}

/** What a started chat completion waits on: its conversation, and the turn whose end answers it. */
export interface PendingCompletion {
  /** The conversation the agent works in (`X-OpenHands-ServerConversation-ID`). */
  conversationId: string;
  /** The model the client named. */
  model: string;
}

/**
 * `run_chat_completion`, its first half: the model names a saved profile (404 otherwise); the
 * system and developer messages' parts and the latest user message are read (400s); the message
 * goes to the conversation `reuseId` names when the host holds it, else to a new conversation (with
 * that id, if given) whose agent uses the profile's LLM, run at once.
 */
export async function startChatCompletion(
  state: DomainState,
  host: AgentHost,
  request: OpenAIChatCompletionRequest,
  reuseId: string | null,
): Promise<PendingCompletion | Refusal> {
  const model = request.model;
  if (!model.startsWith(MODEL_PREFIX) || model.length === MODEL_PREFIX.length)
    return refuse('not_found', `Unknown OpenHands model '${model}'. Use GET /v1/models.`);
  const name = model.slice(MODEL_PREFIX.length);
  await seedDefaultProfile(state);
  const profile = state.store.settings?.llm_profiles[name];
  if (!profile) return refuse('not_found', `Profile '${name}' not found`);
  for (const message of request.messages.filter((m) => m.role === 'system' || m.role === 'developer')) {
    const parts = partsOf(message);
    if (isRefusal(parts)) return parts;
  }
  const parts = latestUserParts(request.messages);
  if (isRefusal(parts)) return parts;
  const held = reuseId ? heldConversation(state, host, reuseId) : null;
  if (held && !isRefusal(held)) {
    await sendToAgent(state, held, messageText(parts), true);
    return { conversationId: held.id, model };
  }
  const started = await startHostConversation(state, host, {
    agent: { kind: 'Agent', ...(profile.model ? { llm: { model: profile.model } } : {}) },
    workspace: { working_dir: 'workspace/project' },
    conversation_id: reuseId ? toHyphenatedUuid(reuseId) : null,
    initial_message: { role: 'user', content: parts, run: true },
    max_iterations: 500,
    stuck_detection: true,
    secrets: {},
    tags: {},
  });
  if (isRefusal(started)) return started;
  return { conversationId: started.info.id, model };
}

/** `_wait_for_completion` and `_raise_for_terminal_error`: `null` while the agent runs; its end, or the 500/409 of one that did not finish. */
export function completionOutcome(state: DomainState, pending: PendingCompletion): OpenAIChatCompletion | Refusal | null {
  const conversation = state.store.conversations.get(pending.conversationId);
  if (!conversation) return refuse('internal', 'Conversation did not start');
  const status = agentStatus(conversation);
  if (status === 'running') return null;
  if (status === 'error' || status === 'stuck') return refuse('internal', `Agent run ended with status: ${status}`);
  if (status === 'paused' || status === 'waiting_for_confirmation') return refuse('conflict', `Agent run ended with status: ${status}`);
  return completion(state, conversation, pending.model);
}

/** The `ChatCompletion` of a finished run: the agent's final response, the conversation's token usage. */
function completion(state: DomainState, conversation: ConversationRecord, model: string): OpenAIChatCompletion {
  const usage = metricsOf(state, conversation).accumulated_token_usage;
  const prompt = usage?.prompt_tokens ?? 0;
  const completionTokens = usage?.completion_tokens ?? 0;
  return {
    id: `chatcmpl-${toHex(state.random.uuid())}`,
    choices: [{ finish_reason: 'stop', index: 0, message: { content: agentFinalResponse(state, conversation), role: 'assistant' } }],
    created: Math.floor(state.clock.now() / 1000),
    model,
    object: 'chat.completion',
    usage: { completion_tokens: completionTokens, prompt_tokens: prompt, total_tokens: prompt + completionTokens },
  };
}

/** `iter_openai_chat_completion_sse`: the role, the content, the finish reason, the usage if asked, then `[DONE]`, as SSE `data:` lines. */
export function completionChunks(response: OpenAIChatCompletion, includeUsage: boolean): string[] {
  const { id, created, model } = response;
  const chunk = (choices: OpenAIChatCompletionChunk['choices'], usage?: OpenAIChatCompletionChunk['usage']): OpenAIChatCompletionChunk => ({
    id,
    choices,
    created,
    model,
    object: 'chat.completion.chunk',
    ...(usage ? { usage } : {}),
  });
  const choice = response.choices[0]!;
  const chunks = [
    chunk([{ delta: { role: 'assistant' }, index: 0 }]),
    chunk([{ delta: { content: choice.message.content }, index: 0 }]),
    chunk([{ delta: {}, finish_reason: choice.finish_reason, index: 0 }]),
    ...(includeUsage ? [chunk([], response.usage)] : []),
  ];
  return [...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'];
}
