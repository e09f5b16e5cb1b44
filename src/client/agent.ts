/**
 * A client for one conversation's agent server (the host behind its `conversation_url`): the event
 * log, messages, pause and run, and the events socket as an async iterator. It runs against the
 * fake or a real agent server.
 * @example
 * const agent = createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: conversation.session_api_key })
 * await agent.sendMessage('Add a test', { run: true })
 */
import type { z } from 'zod';
import type { AgentEvent } from '../schemas/agent-server.js';
import { ApiError } from './index.js';

/** An event of a conversation's log. */
export type ConversationEvent = z.output<typeof AgentEvent>;

/** The WebSocket class to connect with: the global one in a browser, `ws`'s in Node 20. */
export interface WebSocketClass {
  new (url: string): {
    onmessage: ((event: { data: unknown }) => void) | null;
    onclose: ((event: { code: number; reason: string }) => void) | null;
    onerror: ((event: unknown) => void) | null;
    send(data: string): void;
    close(): void;
  };
}

/** Options of `createAgentClient`. */
export interface AgentClientOptions {
  /** The conversation's `conversation_url` (`http://host:port/api/conversations/{id}`). */
  conversationUrl: string;
  /** The sandbox's `session_api_key`. */
  sessionApiKey: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Creates a client for the conversation at `conversationUrl`. */
export function createAgentClient(options: AgentClientOptions) {
  const url = new URL(options.conversationUrl);
  const conversationId = url.pathname.split('/').filter(Boolean).at(-1)!;
  const base = `${url.origin}/api/conversations/${conversationId}`;
  const doFetch = options.fetch ?? fetch;
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await doFetch(`${base}${path}`, {
      method, headers: { 'X-Session-API-Key': options.sessionApiKey, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new ApiError(method, `${url.origin}${new URL(`${base}${path}`).pathname}`, response.status, parsed);
    return parsed as T;
  };
  return {
    /** `GET .../events/search`: a page of events, oldest first. */
    searchEvents: (query: { limit?: number; page_id?: string; kind?: string; source?: string } = {}) =>
      request<{ items: ConversationEvent[]; next_page_id: string | null }>('GET', `/events/search?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))}`),
    /** `GET .../events/count`. */
    countEvents: () => request<number>('GET', '/events/count'),
    /** `GET .../events/{id}`. */
    getEvent: (eventId: string) => request<ConversationEvent>('GET', `/events/${encodeURIComponent(eventId)}`),
    /** `POST .../events`: a user message; with `run`, the agent works on it. */
    sendMessage: (text: string, { run = true }: { run?: boolean } = {}) => request<{ success: true }>('POST', '/events', { role: 'user', content: [{ type: 'text', text }], run }),
    /** `POST .../pause`. */
    pause: () => request<{ success: true }>('POST', '/pause'),
    /** `POST .../run`: 409 (an `ApiError`) while the agent runs. */
    run: () => request<{ success: true }>('POST', '/run'),
    /**
     * The events socket: yields each frame's event (the `full_state` first, then the history with
     * `resend`), until `stop()` or the socket closes.
     */
    events(WebSocketImpl: WebSocketClass, { resend = 'all' as 'all' | 'none' } = {}) {
      const socketUrl = `${url.origin.replace(/^http/, 'ws')}/sockets/events/${conversationId}?session_api_key=${encodeURIComponent(options.sessionApiKey)}${resend === 'all' ? '&resend_mode=all' : ''}`;
      const socket = new WebSocketImpl(socketUrl);
      const queue: ConversationEvent[] = [];
      let wake: (() => void) | null = null;
      let closed: { code: number; reason: string } | null = null;
      socket.onmessage = (event) => {
        queue.push(JSON.parse(String(event.data)) as ConversationEvent);
        wake?.();
      };
      socket.onclose = (event) => {
        closed = { code: event.code, reason: event.reason };
        wake?.();
      };
      socket.onerror = () => undefined;
      return {
        /** Sends a message frame (the agent runs on it). */
        send: (text: string) => socket.send(JSON.stringify({ role: 'user', content: [{ type: 'text', text }] })),
        /** Closes the socket; the iteration ends. */
        stop: () => socket.close(),
        /** How the socket closed, once it has. */
        get closed() {
          return closed;
        },
        async *[Symbol.asyncIterator](): AsyncGenerator<ConversationEvent> {
          for (;;) {
            while (queue.length > 0) yield queue.shift()!;
            if (closed) return;
            await new Promise<void>((resolve) => { wake = resolve; });
            wake = null;
          }
        },
      };
    },
  };
}

/** The client `createAgentClient` returns. */
export type AgentClient = ReturnType<typeof createAgentClient>;
