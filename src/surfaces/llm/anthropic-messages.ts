/**
 * Anthropic's Messages API, as the scripted LLM answers it (the SDK sends it for Claude model names
 * through LiteLLM's Anthropic client): the history is `messages` whose assistant turns are text or
 * `tool_use` blocks and whose tool results come back as user `tool_result` blocks; a turn is a
 * `message` with `stop_reason` `end_turn` or `tool_use`, streamed as `message_start` …
 * `message_stop` events.
 */
import type { HistoryView, LlmTurn } from '../../domain/llm/turns.js';
import type { AnthropicMessage, AnthropicMessagesRequest } from '../../schemas/llm.js';
import { pieces, tokensOf, type Stamp } from './openai-chat.js';

/** The text of a message's content (its text blocks joined). */
function blocksText(content: AnthropicMessage['content'] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('\n');
}

/** Whether a user message is one the user wrote (not only tool results). */
const writtenByUser = (m: AnthropicMessage) =>
  m.role === 'user' && (typeof m.content === 'string' || m.content.some((b) => b.type !== 'tool_result'));

/** What a Messages request's history says. */
export function messagesView(request: AnthropicMessagesRequest): HistoryView {
  const { messages } = request;
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (writtenByUser(messages[i]!)) {
      lastUser = i;
      break;
    }
  }
  const turnsSinceUser = messages.slice(lastUser + 1).filter((m) => m.role === 'assistant').length;
  const tools = request.tools ? new Map(request.tools.map((t) => [t.name, t.input_schema ?? {}])) : null;
  return {
    lastUserText: lastUser < 0 ? '' : blocksText(messages[lastUser]!.content),
    turnsSinceUser,
    tools,
    allText: [blocksText(request.system), ...messages.map((m) => blocksText(m.content))].join('\n'),
  };
}

/** The content blocks of a turn. */
function blocksOf(turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  if (turn.kind === 'text') return [{ type: 'text', text: turn.text }];
  const use = { type: 'tool_use', id: `toolu_${stamp.callId}`, name: turn.name, input: turn.arguments };
  return turn.text ? [{ type: 'text', text: turn.text }, use] : [use];
}

/** A `message` answering `turn`. */
export function messagesAnswer(request: AnthropicMessagesRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  const input = tokensOf(JSON.stringify(request.messages) + blocksText(request.system));
  const output = tokensOf(turn.kind === 'tool' ? JSON.stringify(turn.arguments) : turn.text);
  return {
    id: `msg_${stamp.id}`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: blocksOf(turn, stamp),
    stop_reason: turn.kind === 'tool' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: input, output_tokens: output },
  };
}

/** The server-sent events of a streamed answer of `turn`. */
export function messagesEvents(request: AnthropicMessagesRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp): string[] {
  const done = messagesAnswer(request, turn, stamp);
  const event = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  const events = [
    event('message_start', {
      message: { ...done, content: [], stop_reason: null, usage: { input_tokens: done.usage.input_tokens, output_tokens: 0 } },
    }),
  ];
  done.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const piece of pieces((block as { text: string }).text))
        events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    } else {
      const use = block as { id: string; name: string; input: unknown };
      events.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: use.id, name: use.name, input: {} } }));
      for (const piece of pieces(JSON.stringify(use.input))) {
        events.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
    }
    events.push(event('content_block_stop', { index }));
  });
  events.push(
    event('message_delta', {
      delta: { stop_reason: done.stop_reason, stop_sequence: null },
      usage: { output_tokens: done.usage.output_tokens },
    }),
  );
  events.push(event('message_stop', {}));
  return events;
}
