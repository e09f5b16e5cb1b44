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
import { startTaskSteps } from '../../../domain/conversations/start-tasks.js';
import { startAppConversation } from '../../../domain/conversations/start-conversation.js';

/** How often open streams look for their tasks' next steps, in real milliseconds. */
const POLL_MS = 25;
/** The longest a stream stays open, in real milliseconds. */
const MAX_STREAM_MS = 10 * 60 * 1000;

/**
 * One clock per instance for all its open streams: each tick settles the time-driven steps once
 * and wakes every stream, which then reads its task without another operation. A thousand open
 * streams cost one operation a tick, not a thousand.
 */
class StreamTicker {
  #waiting: (() => void)[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly context: RouteContext) {}

  /** Resolves after the next tick has settled the instance's steps. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#timer ??= setTimeout(() => void this.#tick(), POLL_MS);
    });
  }

  async #tick(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = [];
    try {
      await this.context.runner.settle();
    } finally {
      this.#timer = null;
      for (const wake of waiting) wake();
    }
  }
}

const tickers = new WeakMap<RouteContext, StreamTicker>();
const tickerOf = (context: RouteContext) => {
  let ticker = tickers.get(context);
  if (!ticker) tickers.set(context, (ticker = new StreamTicker(context)));
  return ticker;
};

async function* steps(context: RouteContext, first: AppConversationStartTask): AsyncGenerator<string> {
  yield '[\n';
  yield JSON.stringify(first);
  let sent = 1;
  let last = first;
  const deadline = Date.now() + MAX_STREAM_MS;
  const ticker = tickerOf(context);
  while (last.status !== 'READY' && last.status !== 'ERROR' && Date.now() < deadline) {
    await ticker.next();
    // Settled by the tick: read without another operation.
    const fresh = startTaskSteps(context.runner.state, first.id, sent);
    if (!fresh) break;
    // Every step is streamed, also when the clock jumped over several at once.
    for (const task of fresh) {
      yield `,\n${JSON.stringify(task)}`;
      last = task;
    }
    sent += fresh.length;
  }
  yield ']';
}

/** Starts the conversation (a bad request fails before anything is streamed) and streams its task. */
export async function streamStart(context: RouteContext, request: AppConversationStartRequest): Promise<Answer> {
  const first = await context.runner.run(startAppConversation, request);
  return raw(200, steps(context, first), 'application/json');
}
