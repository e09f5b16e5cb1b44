/**
 * `POST /api/v1/app-conversations/stream-start`: starts a conversation and streams its start task
 * as the real route does (`_stream_app_conversation_start`): `application/json`, a JSON array
 * written item by item (`[\n`, then each step of the task, separated by `,\n`, then `]`), ending
 * when the task is READY or ERROR. The steps move with the fake's clock, so a manual clock holds
 * the stream until the test advances it.
 */
import type { AppConversationStartRequest, AppConversationStartTask } from '../../../schemas/app-conversation.js';
import { raw, type Answer } from '../../../http/responses.js';
import type { RouteContext } from '../../../http/route.js';

/** How often the stream looks at the task for its next step, in real milliseconds. */
const POLL_MS = 20;
/** The longest a stream stays open, in real milliseconds. */
const MAX_STREAM_MS = 10 * 60 * 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function* steps(context: RouteContext, first: AppConversationStartTask): AsyncGenerator<string> {
  yield '[\n';
  yield JSON.stringify(first);
  let sent = 1;
  let last = first;
  const deadline = Date.now() + MAX_STREAM_MS;
  while (last.status !== 'READY' && last.status !== 'ERROR' && Date.now() < deadline) {
    await sleep(POLL_MS);
    const all = await context.service.startTaskSteps(first.id);
    if (!all) break;
    // Every step is streamed, also when the clock jumped over several at once.
    for (const task of all.slice(sent)) {
      yield `,\n${JSON.stringify(task)}`;
      last = task;
    }
    sent = all.length;
  }
  yield ']';
}

/** Starts the conversation (a bad request fails before anything is streamed) and streams its task. */
export async function streamStart(context: RouteContext, request: AppConversationStartRequest): Promise<Answer> {
  const first = await context.service.startAppConversation(request);
  return raw(200, steps(context, first), 'application/json');
}
