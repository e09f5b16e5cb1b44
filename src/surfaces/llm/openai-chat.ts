/**
 * OpenAI's Chat Completions, as the scripted LLM answers it: a request's history read into a
 * `HistoryView`, a turn written as a `chat.completion` (JSON) or as `chat.completion.chunk` server-sent
 * events ending in `data: [DONE]` (with a usage chunk when `stream_options.include_usage`), the
 * shapes LiteLLM's OpenAI client parses.
 */
import type { HistoryView, LlmTurn } from '../../domain/llm/turns.js';
import type { ChatCompletionRequest, ChatMessage } from '../../schemas/llm.js';

/** A completion's token counts. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What one answer is stamped with: its id, its time (epoch seconds) and its tool call ids. */
export interface Stamp {
  readonly id: string;
  readonly created: number;
  readonly callId: string;
}

/** The text of a message's content (its text parts joined). */
export function contentText(content: ChatMessage['content']): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** A rough token count (four characters a token), the same for every API. */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** What a chat completion request's history says. */
export function chatView(request: ChatCompletionRequest): HistoryView {
  const { messages } = request;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const turnsSinceUser = messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
  const tools = request.tools ? new Map(request.tools.map((t) => [t.function.name, t.function.parameters ?? {}])) : null;
  return {
    lastUserText: lastUser < 0 ? '' : contentText(messages[lastUser]!.content),
    turnsSinceUser,
    tools,
    allText: messages.map((m) => contentText(m.content)).join('\n'),
  };
}

/** The usage of an answer of `turn` to `request`. */
export function chatUsage(request: ChatCompletionRequest, turn: LlmTurn): Usage {
  const prompt = tokensOf(JSON.stringify(request.messages));
  const completion =
    turn.kind === 'tool' ? tokensOf(JSON.stringify(turn.arguments) + (turn.text ?? '')) : tokensOf(turn.kind === 'text' ? turn.text : '');
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

/** The assistant message of a turn (a failure has none). */
function messageOf(turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  if (turn.kind === 'text') return { role: 'assistant' as const, content: turn.text };
  return {
    role: 'assistant' as const,
    content: turn.text,
    tool_calls: [{ id: stamp.callId, type: 'function' as const, function: { name: turn.name, arguments: JSON.stringify(turn.arguments) } }],
  };
}

/** A `chat.completion` answering `turn`. */
export function chatCompletion(request: ChatCompletionRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  return {
    id: stamp.id,
    object: 'chat.completion',
    created: stamp.created,
    model: request.model,
    choices: [{ index: 0, message: messageOf(turn, stamp), logprobs: null, finish_reason: turn.kind === 'tool' ? 'tool_calls' : 'stop' }],
    usage: chatUsage(request, turn),
    system_fingerprint: 'fakehands',
  };
}

/** Most characters of text one streamed chunk carries. */
const CHUNK_CHARS = 16;

/** Pieces of `text` of at most `CHUNK_CHARS` characters. */
export function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += CHUNK_CHARS) out.push(text.slice(i, i + CHUNK_CHARS));
  return out;
}

/** The server-sent events of a streamed answer of `turn`, `[DONE]` last. */
export function chatChunks(request: ChatCompletionRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp): string[] {
  const base = {
    id: stamp.id,
    object: 'chat.completion.chunk',
    created: stamp.created,
    model: request.model,
    system_fingerprint: 'fakehands',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const events = [chunk({ role: 'assistant', content: '' })];
  const text = turn.text ?? '';
  for (const piece of pieces(text)) events.push(chunk({ content: piece }));
  if (turn.kind === 'tool') {
    const args = JSON.stringify(turn.arguments);
    events.push(chunk({ tool_calls: [{ index: 0, id: stamp.callId, type: 'function', function: { name: turn.name, arguments: '' } }] }));
    for (const piece of pieces(args)) events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
  }
  events.push(chunk({}, turn.kind === 'tool' ? 'tool_calls' : 'stop'));
  if (request.stream_options?.include_usage)
    events.push(`data: ${JSON.stringify({ ...base, choices: [], usage: chatUsage(request, turn) })}\n\n`);
  events.push('data: [DONE]\n\n');
  return events;
}
