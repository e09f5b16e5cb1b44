/**
 * OpenAI's Responses API, as the scripted LLM answers it (the SDK sends it for some model names,
 * openhands-sdk `llm/options/`): the history is `input`'s items (messages, `function_call`,
 * `function_call_output`); a turn is a `response` whose `output` is an assistant `message` with
 * `output_text`, or a `function_call`; streamed as `response.created` … `response.completed` events.
 */
import type { HistoryView, LlmTurn } from '../../domain/llm/turns.js';
import type { ResponsesRequest } from '../../schemas/llm.js';
import { contentText, pieces, tokensOf, type Stamp } from './openai-chat.js';

/** What a Responses request's history says. */
export function responsesView(request: ResponsesRequest): HistoryView {
  const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
  let lastUser = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]!.role === 'user') {
      lastUser = i;
      break;
    }
  }
  const after = items.slice(lastUser + 1);
  const turnsSinceUser = after.filter(
    (item) => item.type === 'function_call' || (item.role === 'assistant' && item.type !== 'reasoning'),
  ).length;
  const tools = request.tools ? new Map(request.tools.filter((t) => t.name !== undefined).map((t) => [t.name!, t.parameters ?? {}])) : null;
  return {
    lastUserText: lastUser < 0 ? '' : contentText(items[lastUser]!.content),
    turnsSinceUser,
    tools,
    allText: [request.instructions ?? '', ...items.map((item) => contentText(item.content))].join('\n'),
  };
}

/** The output items of a turn. */
function outputOf(turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  const message = (text: string) => ({
    type: 'message',
    id: `msg_${stamp.id}`,
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  });
  if (turn.kind === 'text') return [message(turn.text)];
  const call = {
    type: 'function_call',
    id: `fc_${stamp.id}`,
    call_id: stamp.callId,
    name: turn.name,
    arguments: JSON.stringify(turn.arguments),
    status: 'completed',
  };
  return turn.text ? [message(turn.text), call] : [call];
}

/** A `response` answering `turn`. */
export function responsesAnswer(request: ResponsesRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp) {
  const input = tokensOf(JSON.stringify(request.input) + (request.instructions ?? ''));
  const output = tokensOf(turn.kind === 'tool' ? JSON.stringify(turn.arguments) : turn.text);
  return {
    id: `resp_${stamp.id}`,
    object: 'response',
    created_at: stamp.created,
    status: 'completed',
    model: request.model,
    output: outputOf(turn, stamp),
    usage: { input_tokens: input, output_tokens: output, total_tokens: input + output },
  };
}

/** The server-sent events of a streamed answer of `turn`. */
export function responsesEvents(request: ResponsesRequest, turn: Exclude<LlmTurn, { kind: 'failure' }>, stamp: Stamp): string[] {
  const done = responsesAnswer(request, turn, stamp);
  const event = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  const events = [event('response.created', { response: { ...done, status: 'in_progress', output: [] } })];
  done.output.forEach((item, index) => {
    events.push(event('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } }));
    if (item.type === 'message') {
      const text = (item as { content: { text: string }[] }).content[0]!.text;
      for (const piece of pieces(text))
        events.push(event('response.output_text.delta', { output_index: index, content_index: 0, delta: piece }));
    } else {
      for (const piece of pieces((item as { arguments: string }).arguments)) {
        events.push(
          event('response.function_call_arguments.delta', { output_index: index, item_id: (item as { id: string }).id, delta: piece }),
        );
      }
    }
    events.push(event('response.output_item.done', { output_index: index, item }));
  });
  events.push(event('response.completed', { response: done }));
  return events;
}
