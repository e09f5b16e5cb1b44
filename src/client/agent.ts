/**
 * A client for one conversation's agent server (the host behind its `conversation_url`): the event
 * log, messages, pause and run, confirmation, the conversation, its workspace (git changes and
 * diff, file upload and download, the VS Code URL), and the events socket as an async iterator. It
 * runs against the fake or a real agent server (workspace calls in the newest server's `?path=` form).
 * @example
 * const agent = createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: conversation.session_api_key })
 * await agent.sendMessage('Add a test', { run: true })
 */
import type * as z from 'zod/mini';
import type { AgentConversationInfo, AgentEvent } from '../schemas/agent-server.js';
import type { GitChange, GitChangeDiff } from '../schemas/conversation-ops.js';
import { ApiError } from './errors.js';

/** An event of a conversation's log. */
export type ConversationEvent = z.output<typeof AgentEvent>;

/** The WebSocket class to connect with: the global one in a browser, `ws`'s in Node 20. */
export interface WebSocketClass {
  new (
    url: string,
  ): {
    onopen: ((event: unknown) => void) | null;
    onmessage: ((event: { data: unknown }) => void) | null;
    onclose: ((event: { code: number; reason: string }) => void) | null;
    onerror: ((event: unknown) => void) | null;
    send(data: string): void;
    close(): void;
  };
}

/** Whether an msw interceptor (`@mswjs/interceptors`, which marks each applied one on `globalThis`) is on in this process. */
const mswIntercepts = (what: 'websocket' | 'client-request'): boolean =>
  (globalThis as Record<symbol, unknown>)[Symbol.for(`${what}-interceptor`)] !== undefined;

/** Why a socket under msw in Node 20 never opens, and what to do. */
const MSW_WITHOUT_WEBSOCKET =
  'msw intercepts HTTP in this process but not WebSocket: msw patches only a global WebSocket, and Node 20 has none. ' +
  "Set `globalThis.WebSocket = WebSocket` (from 'ws') before `server.listen()`; the client then connects through the global msw patched.";

/**
 * The class a socket connects with: the global `WebSocket` when msw has patched it (only it is
 * intercepted: `ws`'s class, passed in, would go past msw's `ws.link` handlers), else the one
 * given, else the global one.
 */
function webSocketClass(given: WebSocketClass | undefined): WebSocketClass {
  const global = (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
  if (global && mswIntercepts('websocket')) return global;
  const chosen = given ?? global;
  if (!chosen)
    throw new Error(
      "Failed to open the events socket: this runtime has no global WebSocket (Node 20); pass one, e.g. `events(WebSocket)` with `import WebSocket from 'ws'`.",
    );
  return chosen;
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
  const send = async (method: string, target: string, init: { json?: unknown; form?: FormData } = {}): Promise<Response> => {
    const response = await doFetch(target, {
      method,
      headers: {
        'X-Session-API-Key': options.sessionApiKey,
        accept: 'application/json',
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
    });
    if (!response.ok) {
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON: the error carries the text.
      }
      throw new ApiError(method, new URL(target).pathname, response.status, parsed);
    }
    return response;
  };
  const json = async <T>(response: Response): Promise<T> => {
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
  /** A call on this conversation (`path` after `/api/conversations/{id}`). */
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    json<T>(await send(method, `${base}${path}`, { json: body }));
  /** A call on the agent host (`path` from its root). */
  const onHost = (path: string, query: Record<string, string> = {}) =>
    `${url.origin}${path}${Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''}`;
  return {
    /** `GET .../events/search`: a page of events, oldest first. */
    searchEvents: (query: { limit?: number; page_id?: string; kind?: string; source?: string } = {}) =>
      request<{ items: ConversationEvent[]; next_page_id: string | null }>(
        'GET',
        `/events/search?${new URLSearchParams(
          Object.entries(query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        )}`,
      ),
    /** `GET .../events/count`. */
    countEvents: () => request<number>('GET', '/events/count'),
    /** `GET .../events/{id}`. */
    getEvent: (eventId: string) => request<ConversationEvent>('GET', `/events/${encodeURIComponent(eventId)}`),
    /** `POST .../events`: a user message; with `run`, the agent works on it. */
    sendMessage: (text: string, { run = true }: { run?: boolean } = {}) =>
      request<{ success: true }>('POST', '/events', { role: 'user', content: [{ type: 'text', text }], run }),
    /** `POST .../pause`. */
    pause: () => request<{ success: true }>('POST', '/pause'),
    /** `POST .../run`: 409 (an `ApiError`) while the agent runs. */
    run: () => request<{ success: true }>('POST', '/run'),
    /** `GET /api/conversations/{id}`: the conversation as the agent server holds it. */
    getConversation: () => request<AgentConversationInfo>('GET', ''),
    /** `POST .../confirmation_policy`: with `AlwaysConfirm`, each action waits for `respondToConfirmation`. */
    setConfirmationPolicy: (kind: 'AlwaysConfirm' | 'NeverConfirm' | 'ConfirmRisky') =>
      request<{ success: true }>('POST', '/confirmation_policy', { policy: { kind } }),
    /** `POST .../events/respond_to_confirmation`: accept runs the waiting action; reject (with a reason) does not. */
    respondToConfirmation: (accept: boolean, reason = '') =>
      request<{ success: true }>('POST', '/events/respond_to_confirmation', { accept, reason }),
    /** `GET /api/git/changes?path=`: the changed files of the repository at `path`. */
    gitChanges: async (path: string) => json<GitChange[]>(await send('GET', onHost('/api/git/changes', { path }))),
    /** `GET /api/git/diff?path=`: one file before and after. */
    gitDiff: async (path: string) => json<GitChangeDiff>(await send('GET', onHost('/api/git/diff', { path }))),
    /** `POST /api/file/upload?path=`: writes `content` at the absolute `path`; answers the bytes written. */
    uploadFile: async (path: string, content: Blob | Uint8Array | string, filename = path.split('/').at(-1) ?? 'file') => {
      const form = new FormData();
      form.append('file', content instanceof Blob ? content : new Blob([content as BlobPart]), filename);
      return json<{ success: true; file_size: number }>(await send('POST', onHost('/api/file/upload', { path }), { form }));
    },
    /** `GET /api/file/download?path=`: the file's bytes. */
    downloadFile: async (path: string) => new Uint8Array(await (await send('GET', onHost('/api/file/download', { path }))).arrayBuffer()),
    /** `GET /api/vscode/url`: where the sandbox's VS Code answers, with its token (null when it has none). */
    vscodeUrl: async () => (await json<{ url: string | null }>(await send('GET', onHost('/api/vscode/url')))).url,
    /**
     * The events socket: yields each frame's event (the `full_state` first, then the history with
     * `resend`), until `stop()` or the socket closes; throws when the socket closes before it opened.
     * `WebSocketImpl` is the class to connect with (default: the global one); under msw's
     * `setupServer`, the global msw patched is used whatever is passed.
     */
    events(WebSocketImpl?: WebSocketClass, { resend = 'all' as 'all' | 'none' } = {}) {
      const socketUrl = `${url.origin.replace(/^http/, 'ws')}/sockets/events/${conversationId}?session_api_key=${encodeURIComponent(options.sessionApiKey)}${resend === 'all' ? '&resend_mode=all' : ''}`;
      const socket = new (webSocketClass(WebSocketImpl))(socketUrl);
      const queue: ConversationEvent[] = [];
      let wake: (() => void) | null = null;
      let closed: { code: number; reason: string } | null = null;
      let opened = false;
      let failure = '';
      socket.onopen = () => {
        opened = true;
      };
      socket.onmessage = (event) => {
        queue.push(JSON.parse(String(event.data)) as ConversationEvent);
        wake?.();
      };
      socket.onclose = (event) => {
        closed = { code: event.code, reason: event.reason };
        wake?.();
      };
      socket.onerror = (event) => {
        failure = String((event as { message?: unknown } | null)?.message ?? '');
      };
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
            if (closed && !opened) {
              const why = `closed ${closed.code}${failure ? `: ${failure}` : ''}`;
              const hint = mswIntercepts('client-request') && !mswIntercepts('websocket') ? ` ${MSW_WITHOUT_WEBSOCKET}` : '';
              throw new Error(
                `Failed to open the events socket ${socketUrl.replace(/session_api_key=[^&]*/, 'session_api_key=…')} (${why}).${hint}`,
              );
            }
            if (closed) return;
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            wake = null;
          }
        },
      };
    },
  };
}

/** The client `createAgentClient` returns. */
export type AgentClient = ReturnType<typeof createAgentClient>;
