/**
 * The agent server's socket `/sockets/events/{conversation_id}`, independent of any transport: the
 * surface declares it (`index.ts`) and every transport reaches it through `mounts/sockets.ts`, as a
 * `SocketPeer`. Copies openhands-agent-server `sockets.py` (`events_socket`,
 * `_accept_authenticated_websocket`) and `event_service.py` (`subscribe_to_events`): the key from
 * the `session_api_key` query parameter, the `X-Session-API-Key` header or a first
 * `{"type": "auth"}` frame within 10 s (4001 when wrong; under `--auth none` any or no key opens the
 * local agent server, as the REST routes: `host.ts`); 4004 for an unknown conversation; 1013
 * past the subscriber cap; a `full_state` first; `resend_mode=all|since` (and the deprecated
 * `resend_all`); a client frame is a message that runs the agent; a bad frame gets a
 * `ServerErrorEvent`; every subscriber gets every event in order; a stopped sandbox drops them, and
 * its key then gets 1001 with the sandbox's status (and failure) as the reason.
 */
import { eventsOf, executionStatusOf, lastUserMessageIdOf, sendToAgent } from '../../domain/agent/agent-server.js';
import { agentHostFor, heldConversation } from '../../domain/agent/host.js';
import { keyHolder, stoppedReason } from '../../domain/sandboxes/session-keys.js';
import type { StateChange } from '../../domain/store/events.js';
import { isRefusal } from '../../domain/store/refusal.js';
import { fullState, type AgentEvent } from '../../domain/agent/scripted-agent.js';
import { hostConversationInfo } from '../../domain/agent/conversations.js';
import { naiveTimestamp } from '../../domain/fixtures/fixtures.js';
import { messageText } from '../../domain/conversations/start-tasks.js';
import type { DomainState } from '../../domain/store/state.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { formatDateTime } from '../../schemas/datetime.js';
import { MAX_ERROR_DETAIL_CHARS, readClientFrame } from './socket-frames.js';
import { SLOW_READER_CLOSE_CODE, SLOW_READER_CLOSE_REASON, SocketOutbox } from './socket-outbox.js';
import { SESSION_API_KEY_HEADER } from '../../http/auth.js';
import type { Instance } from '../../instance/instance.js';
import type { ServedSocket, SocketPeer } from '../surface.js';
import { deltaEvent, onTransientEvent, type TokenRun } from '../../domain/agent/streaming.js';
import { conversationStats, recordedNow } from '../../domain/agent/conversation-stats.js';
import { stateUpdate } from '../../domain/agent/vocabulary.js';

export type { SocketPeer } from '../surface.js';

/**
 * The close code of a socket opened with the key of a sandbox that is not running ("Going Away": its
 * agent server is down), with the sandbox's status and failure as the reason. The real container
 * refuses the connection, so a client learns nothing; the fake says why, where a client shows a
 * close reason (the Nov 2025 web app: "Connection lost: {reason}").
 */
export const SANDBOX_DOWN_CLOSE_CODE = 1001;
/** Most sockets on one conversation; the next is closed with 1013. */
export const MAX_SUBSCRIBERS = 100;
/** How long a socket without a key has to send its `auth` frame. */
export const AUTH_FRAME_TIMEOUT_MS = 10_000;
/** How often open sockets look for run steps that came due, in real milliseconds. */
const TICK_MS = 50;
/**
 * Most streamed tokens of one run whose frames are made at once and shared by every socket; a
 * longer run (a clock moved past thousands) is made by each socket as it has room: 110,000 frames
 * made in one turn held the loop 190 ms and closed every socket as a slow reader.
 */
const SHARED_RUN_TOKENS = 64;
/** The path of the socket, with its conversation id. */
const SOCKET_PATH = /^\/sockets\/events\/([^/]+)$/;

/** What a connection is, once it is subscribed. */
interface Subscriber {
  peer: SocketPeer;
  /** Its frames on their way out, paced by its reading. */
  outbox: SocketOutbox;
  conversationId: string;
  sandboxId: string;
}

const now = () => naiveTimestamp(formatDateTime(Date.now()));
/** Each stored event's frame text, made once and shared by every socket that sends it. */
const frames = new WeakMap<AgentEvent, string>();
const frameOf = (event: AgentEvent): string => {
  let text = frames.get(event);
  if (text === undefined) frames.set(event, (text = JSON.stringify(event)));
  return text;
};
const serverError = (code: string, detail: string) =>
  JSON.stringify({ kind: 'ServerErrorEvent', id: globalThis.crypto.randomUUID(), timestamp: now(), source: 'environment', code, detail });

/**
 * The conversation's whole state as a frame (`ConversationStateUpdateEvent.from_conversation_state`),
 * never stored; a served recording's conversation: the state its real server sent, while its log is the one it had then.
 */
const fullStateFrame = (state: DomainState, conversation: ConversationRecord) => {
  const recorded = recordedNow(state, conversation)?.full_state;
  return JSON.stringify({
    id: globalThis.crypto.randomUUID(),
    timestamp: now(),
    ...(recorded
      ? stateUpdate('full_state', recorded)
      : fullState(
          conversation,
          executionStatusOf(conversation),
          conversationStats(state, conversation),
          lastUserMessageIdOf(state, conversation.id),
          hostConversationInfo(state, conversation),
        )),
  });
};

/** The statuses a run stops at (its task ends) and the pause events: after them the agent server sends the state (event_service.py, `_publish_state_update`). */
const RUN_ENDS = new Set(['finished', 'error', 'stuck', 'paused', 'waiting_for_confirmation']);
const endsRun = (event: AgentEvent) =>
  event.kind === 'PauseEvent' ||
  event.kind === 'InterruptEvent' ||
  (event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' && RUN_ENDS.has(String(event.value)));

/** The sockets of one instance: who listens to which conversation, fed by the instance's changes. */
class SocketHub {
  /** The subscribers, by conversation: adding, counting and removing one is constant time (2,000 sockets closing together cost 96 ms of CPU in one turn when each close scanned them all). */
  readonly #byConversation = new Map<string, Set<Subscriber>>();
  #size = 0;
  #timer: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: (() => void) | null = null;
  #unhearTransient: (() => void) | null = null;
  /** Of each conversation with subscribers: how many of its stored events have been sent (so far as this hub knows). */
  readonly #stored = new Map<string, number>();
  /** Transient frames waiting for the stored events before them. */
  readonly #waiting = new Map<string, { frames: { run: TokenRun; storedBefore: number }[]; head: number }>();

  constructor(private readonly instance: Instance) {}

  /** Adds a subscriber; `false` past the cap. */
  add(subscriber: Subscriber): boolean {
    let listening = this.#byConversation.get(subscriber.conversationId);
    if ((listening?.size ?? 0) >= MAX_SUBSCRIBERS) return false;
    if (!listening) this.#byConversation.set(subscriber.conversationId, (listening = new Set()));
    if (!listening.has(subscriber)) this.#size += 1;
    listening.add(subscriber);
    this.#unsubscribe ??= this.instance.onChange((changes, state) =>
      this.#deliver(
        changes,
        state as unknown as { record(entity: 'event', id: string): { event?: AgentEvent; conversation_id?: string } | undefined },
      ),
    );
    // Transient frames (streamed tokens) go to the conversation's subscribers as they come, never stored (`streaming.ts`).
    // Each goes after the stored events that came before it: those are sent when their operation ends, so it may wait for them.
    if (!this.#stored.has(subscriber.conversationId))
      this.#stored.set(subscriber.conversationId, this.instance.runner.state.store.eventIdsOf(subscriber.conversationId).length);
    this.#unhearTransient ??= onTransientEvent(this.instance.clock, (conversationId, run, storedBefore) => {
      if (!this.#stored.has(conversationId)) return;
      let queue = this.#waiting.get(conversationId);
      if (!queue) this.#waiting.set(conversationId, (queue = { frames: [], head: 0 }));
      queue.frames.push({ run, storedBefore });
      this.#sendTransient(conversationId);
    });
    // While sockets are open, run steps that come due are published without waiting for a request.
    this.#timer ??= setInterval(() => void this.instance.runner.settle().catch(() => undefined), TICK_MS);
    return true;
  }

  remove(subscriber: Subscriber): void {
    const listening = this.#byConversation.get(subscriber.conversationId);
    if (listening?.delete(subscriber)) this.#size -= 1;
    if (listening && listening.size === 0) {
      this.#byConversation.delete(subscriber.conversationId);
      this.#stored.delete(subscriber.conversationId);
      this.#waiting.delete(subscriber.conversationId);
    }
    if (this.#size > 0) return;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#unhearTransient?.();
    this.#unhearTransient = null;
  }

  /**
   * Sends each new event to its conversation's subscribers, in order, and after a run ends or the
   * conversation is paused, the whole state (`full_state`) once; drops the sockets of sandboxes that stopped.
   */
  #deliver(
    changes: readonly StateChange[],
    state: { record(entity: 'event', id: string): { event?: AgentEvent; conversation_id?: string } | undefined },
  ): void {
    const settled = new Set<string>();
    for (const change of changes) {
      if (change.entity === 'event' && change.action === 'created' && change.id) {
        const record = state.record('event', change.id);
        if (!record?.event) continue;
        const text = frameOf(record.event);
        for (const subscriber of this.#byConversation.get(record.conversation_id ?? '') ?? []) subscriber.outbox.push(text);
        const sent = this.#stored.get(record.conversation_id ?? '');
        if (sent !== undefined) this.#stored.set(record.conversation_id!, sent + 1);
        if (endsRun(record.event) && this.#byConversation.has(record.conversation_id ?? '')) settled.add(record.conversation_id!);
        this.#sendTransient(record.conversation_id ?? '');
      } else if (change.entity === 'sandbox' || change.entity === 'state') {
        this.#dropStopped(this.instance.runner.state);
      }
    }
    for (const conversationId of settled) {
      const current = this.instance.runner.state;
      const conversation = current.store.conversations.get(conversationId);
      if (!conversation) continue;
      const text = fullStateFrame(current, conversation);
      for (const subscriber of this.#byConversation.get(conversationId) ?? []) subscriber.outbox.push(text);
    }
  }

  /**
   * Sends a conversation's transient frames whose stored events before them are out, in order, from
   * the front of its queue (each conversation its own queue, read by an index: 110,000 streamed
   * tokens waiting were filtered again for each new one, 1.8 s for 20,000).
   */
  #sendTransient(conversationId: string): void {
    const queue = this.#waiting.get(conversationId);
    if (!queue) return;
    const sent = this.#stored.get(conversationId) ?? Number.POSITIVE_INFINITY;
    const subscribers = this.#byConversation.get(conversationId);
    while (queue.head < queue.frames.length && sent >= queue.frames[queue.head]!.storedBefore) {
      const { run } = queue.frames[queue.head++]!;
      if (run.to - run.from <= SHARED_RUN_TOKENS) {
        // Tokens as they stream: each frame made once, shared by every socket.
        for (let i = run.from; i < run.to; i++) {
          const text = JSON.stringify(deltaEvent(run, i));
          for (const s of subscribers ?? []) s.outbox.push(text);
        }
      } else {
        // Many at once (the clock moved past them): each socket makes its frames as it has room for them.
        for (const s of subscribers ?? []) {
          let i = run.from;
          s.outbox.pushSource(() => (i < run.to ? JSON.stringify(deltaEvent(run, i++)) : undefined));
        }
      }
    }
    if (queue.head === queue.frames.length) this.#waiting.delete(conversationId);
  }

  #dropStopped(state: DomainState): void {
    for (const subscriber of [...this.#byConversation.values()].flatMap((listening) => [...listening])) {
      const sandbox = state.store.sandboxes.get(subscriber.sandboxId);
      if (!sandbox || state.settledNow(sandbox).status !== 'RUNNING') {
        this.remove(subscriber);
        subscriber.outbox.close();
        subscriber.peer.drop();
      }
    }
  }
}

const hubs = new WeakMap<Instance, SocketHub>();
const hubOf = (instance: Instance) => {
  let hub = hubs.get(instance);
  if (!hub) hubs.set(instance, (hub = new SocketHub(instance)));
  return hub;
};

/** A connection being served: what the transport calls with the client's frames and its close. */
export type EventSocket = ServedSocket;

/**
 * Serves one connection to `url` (its path relative to the agent host, its query) with the
 * request's `headers`, over `peer`.
 * @example
 * const socket = openEventSocket(instance, url, headers, peer); ws.on('message', (d) => socket.receive(String(d)))
 */
export function openEventSocket(
  instance: Instance,
  path: string,
  url: URL,
  headers: { get(name: string): string | null },
  peer: SocketPeer,
): EventSocket {
  const conversationId = decodeURIComponent(SOCKET_PATH.exec(path)?.[1] ?? '');
  const given = url.searchParams.get('session_api_key') ?? headers.get(SESSION_API_KEY_HEADER);
  let subscriber: Subscriber | null = null;
  let ended = false;
  let authTimer: ReturnType<typeof setTimeout> | null = null;
  // While the socket is open its instance (a tenant) is in use: idle expiry never drops it.
  const release = instance.hold();

  const end = (code: number, reason: string) => {
    ended = true;
    if (authTimer) clearTimeout(authTimer);
    outbox.close();
    peer.close(code, reason);
  };
  // A reader that falls too far behind is let go of; the others keep their pace.
  const outbox: SocketOutbox = new SocketOutbox(
    (text, written) => peer.send(text, written),
    () => {
      if (subscriber) hubOf(instance).remove(subscriber);
      subscriber = null;
      end(SLOW_READER_CLOSE_CODE, SLOW_READER_CLOSE_REASON);
    },
  );

  // Under `--auth none` the local agent server takes any or no key, as its REST routes do (`host.ts`).
  const open = instance.options.auth === 'none';
  /** With a key (or none, under `--auth none`): the conversation is found, the state and history sent, and the socket subscribed, in one operation (nothing missed, nothing twice). */
  const start = async (key: string | null) => {
    await instance.runner.run(async (state) => {
      if (ended) return; // the client went away while the socket was starting
      const host = agentHostFor(state, key, open);
      if (!host) {
        // The key of a sandbox that is not running: its agent server is down, and the close says why (not a wrong key).
        const holder = keyHolder(state, key);
        return holder.kind === 'stopped' ? end(SANDBOX_DOWN_CLOSE_CODE, stoppedReason(holder.sandbox)) : end(4001, 'Authentication failed');
      }
      const conversation = heldConversation(state, host, conversationId);
      if (isRefusal(conversation)) return end(4004, 'Conversation not found');
      const candidate: Subscriber = { peer, outbox, conversationId: conversation.id, sandboxId: conversation.sandbox_id };
      if (!hubOf(instance).add(candidate)) return end(1013, 'Too many connections for this conversation');
      subscriber = candidate;
      outbox.push(fullStateFrame(state, conversation), false);
      const mode = url.searchParams.get('resend_mode') ?? (url.searchParams.get('resend_all') === 'true' ? 'all' : null);
      if (mode === 'all') for (const event of eventsOf(state, conversation.id)) outbox.push(frameOf(event), false);
      if (mode === 'since') {
        const after = url.searchParams.get('after_timestamp')?.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
        if (after) for (const event of eventsOf(state, conversation.id)) if (event.timestamp >= after) outbox.push(frameOf(event), false);
      }
    });
  };

  /** Starts; a failure of the fake closes the socket with 1011 instead of going unhandled. */
  const begin = (key: string | null) => void start(key).catch(() => end(1011, 'Internal error'));

  if (given !== null || open) begin(given);
  else authTimer = setTimeout(() => end(4001, 'Authentication failed'), AUTH_FRAME_TIMEOUT_MS);

  /** One frame from the client: read under the body limits (`socket-frames.ts`), then an auth frame, a message, or an error frame. */
  const receive = (text: string) => {
    const frame = readClientFrame(text);
    if (!subscriber) {
      if (given !== null || open) return; // still starting (an auth frame after an open start is redundant)
      if (authTimer) clearTimeout(authTimer);
      authTimer = null;
      const key = frame.kind === 'auth' ? frame.key : undefined;
      if (typeof key !== 'string') return end(4001, 'Authentication failed');
      begin(key);
      return;
    }
    if (frame.kind === 'auth') return; // a redundant auth frame is ignored
    if (frame.kind === 'error') return outbox.push(serverError(frame.code, frame.detail));
    const { message } = frame;
    const current = subscriber;
    void instance.runner
      .run(async (state) => {
        const conversation = state.store.conversations.get(current.conversationId);
        if (conversation) await sendToAgent(state, conversation, messageText(message.content), message.run);
      })
      .catch((error: unknown) =>
        outbox.push(serverError((error as Error).name, String((error as Error).message).slice(0, MAX_ERROR_DETAIL_CHARS))),
      );
  };

  return {
    receive(text) {
      if (ended) return;
      try {
        receive(text);
      } catch (error) {
        // Nothing a client sends may end the process: an unforeseen failure is the client's error frame.
        outbox.push(
          serverError((error as Error).name ?? 'Error', String((error as Error).message ?? error).slice(0, MAX_ERROR_DETAIL_CHARS)),
        );
      }
    },
    closed() {
      release();
      ended = true;
      outbox.close();
      if (authTimer) clearTimeout(authTimer);
      if (subscriber) hubOf(instance).remove(subscriber);
      subscriber = null;
    },
  };
}
