/**
 * Test support for the agent server: a real `fakehands serve` (its app server and its agent host),
 * a conversation whose sandbox runs, and sockets read frame by frame.
 */
import WebSocket from 'ws';
import { startCli, type RunningCli } from '../support/cli.js';

/** A V1 conversation on a running sandbox, as the app server describes it. */
export interface LiveConversation {
  id: string;
  sandbox_id: string;
  session_api_key: string;
  conversation_url: string;
}

/** Starts the fake (auth none, empty fixture) with `extra` flags. */
export const serve = (extra: string[] = []): Promise<RunningCli> => startCli(['--quiet', '--auth', 'none', '--fixture', 'empty', ...extra]);

/**
 * Starts a conversation with `message` and waits until it is READY; returns it. With `advanceMs`,
 * each wait moves the fake's clock that far (`POST /_fakehands/clock`) instead of letting real
 * time pass: realistic timings take seconds of the server's clock, none of the test's.
 */
export async function startConversation(
  cli: RunningCli,
  message: string | null = 'Fix the flaky test',
  { advanceMs = 0 } = {},
): Promise<LiveConversation> {
  const body = message === null ? {} : { initial_message: { role: 'user', content: [{ type: 'text', text: message }] } };
  const task = (await (
    await fetch(`${cli.url}/api/v1/app-conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).json()) as { id: string };
  for (let i = 0; i < 200; i++) {
    const [current] = (await (await fetch(`${cli.url}/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json()) as {
      status: string;
      app_conversation_id: string;
    }[];
    if (current!.status === 'READY') {
      const [conversation] = (await (
        await fetch(`${cli.url}/api/v1/app-conversations?ids=${current!.app_conversation_id}`)
      ).json()) as LiveConversation[];
      return conversation!;
    }
    if (advanceMs > 0) {
      const moved = await fetch(`${cli.url}/_fakehands/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advance_ms: advanceMs }),
      });
      if (!moved.ok) throw new Error(`the fake's clock did not move: ${moved.status} ${await moved.text()}`);
    } else await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the start task never became READY');
}

/** A socket and the frames it received, parsed. */
export interface OpenSocket {
  ws: WebSocket;
  frames: Record<string, unknown>[];
  /** Resolves once `count` frames have arrived. */
  received(count: number, ms?: number): Promise<Record<string, unknown>[]>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens `ws://agent/sockets/events/{id}?query` with `headers`. */
export function openSocket(agentUrl: string, conversationId: string, query: string, headers: Record<string, string> = {}): OpenSocket {
  const ws = new WebSocket(`${agentUrl.replace(/^http/, 'ws')}/sockets/events/${conversationId}${query ? `?${query}` : ''}`, { headers });
  const frames: Record<string, unknown>[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Record<string, unknown>));
  ws.on('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  return {
    ws,
    frames,
    closed,
    async received(count, ms = 5000) {
      const deadline = Date.now() + ms;
      while (frames.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} frames, got ${frames.length}: ${frames.map((f) => f.kind).join(', ')}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return frames.slice(0, count);
    },
  };
}

/**
 * What a frame is, in a few words: its kind, and the key and value of a state update (the key alone
 * for `last_user_message_id`, whose value is the id of the user message before it, new each run).
 */
export function describe(frame: Record<string, unknown>): string {
  if (frame.kind === 'ConversationStateUpdateEvent' && frame.key === 'last_user_message_id') return 'last_user_message_id';
  if (frame.kind === 'ConversationStateUpdateEvent')
    return `${frame.key}=${frame.key === 'full_state' ? (frame.value as { execution_status: string }).execution_status : String(frame.value)}`;
  const inner = (frame.action ?? frame.observation) as { kind?: string } | undefined;
  const role = (frame.llm_message as { role?: string } | undefined)?.role;
  return [frame.kind, inner?.kind ?? role].filter(Boolean).join(':');
}

/** One run of the built-in script, as its frames read (the message's id kept as the state's `last_user_message_id`: local_conversation.py, `_track_last_user_message`). */
export const ONE_RUN = [
  'MessageEvent:user',
  'last_user_message_id',
  'execution_status=running',
  'ActionEvent:TerminalAction',
  'ObservationEvent:TerminalObservation',
  'ActionEvent:FileEditorAction',
  'ObservationEvent:FileEditorObservation',
  'execution_status=finished',
  'MessageEvent:assistant',
];
