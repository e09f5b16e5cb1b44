/**
 * A conversation under `fakehands verify --messages` (`messages.ts`): its events socket's frames,
 * the calls that set up provider states on it, and how it is started on the provider.
 */
import WebSocket from 'ws';
import { FakehandsError } from '../domain/store/errors.js';
import { MAX_PROVIDER_ANSWER_BYTES, answerText } from './answer-text.js';

/** How long without a frame (and no run going) counts as a provider done with a state. */
const QUIET_MS = 1500;
/** The JSON of an answer's body, read as `answerText` reads it. */
const answerJson = async (response: Response, route: string): Promise<unknown> => JSON.parse(await answerText(response, route));

type Json = Record<string, unknown>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A conversation under verification: its socket's frames, and the calls that set up states. */
export class Session {
  readonly frames: unknown[] = [];
  #waiters = new Set<() => void>();
  #ws: WebSocket | null = null;
  closed = false;
  lastFrameAt = Date.now();
  lastSentAt = 0;

  constructor(
    readonly agentUrl: string,
    readonly id: string,
    readonly key: string,
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  /** Opens the socket and resolves once its first frame arrived (it is subscribed). */
  async open(deadline: number): Promise<void> {
    const ws = new WebSocket(
      `${this.agentUrl.replace(/^http/, 'ws')}/sockets/events/${this.id}?resend_mode=all&session_api_key=${encodeURIComponent(this.key)}`,
      { maxPayload: MAX_PROVIDER_ANSWER_BYTES },
    );
    this.#ws = ws;
    ws.on('error', () => undefined);
    ws.on('message', (data) => {
      this.lastFrameAt = Date.now();
      try {
        this.frames.push(JSON.parse(String(data)));
      } catch {
        return;
      }
      for (const wake of this.#waiters) wake();
    });
    ws.on('close', () => {
      this.closed = true;
      for (const wake of this.#waiters) wake();
    });
    await this.until(() => this.frames.length > 0, deadline);
  }

  /** Resolves once `done` holds (checked on each frame) or at `deadline`; whether it holds. */
  async until(done: () => boolean, deadline: number): Promise<boolean> {
    if (done()) return true;
    return new Promise<boolean>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        clearInterval(poll);
        this.#waiters.delete(check);
        resolve(done());
      };
      const check = () => {
        if (done() || this.closed) finish();
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      // Conditions on time (`quiet`) are checked between frames too.
      const poll = setInterval(check, 100);
      this.#waiters.add(check);
    });
  }

  /** Sends a raw text frame. */
  sendRaw(text: string): void {
    this.lastSentAt = Date.now();
    this.#ws?.send(text);
  }

  /** Sends a message frame that runs the agent. */
  sendMessage(text: string): void {
    this.sendRaw(JSON.stringify({ role: 'user', content: [{ type: 'text', text }], run: true }));
  }

  /** Whether the provider has gone quiet: no run going, no frame for `QUIET_MS`. */
  quiet(): boolean {
    return this.status() !== 'running' && Date.now() - Math.max(this.lastFrameAt, this.lastSentAt) >= QUIET_MS;
  }

  /** The last `execution_status` the socket told. */
  status(): string | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i] as Json;
      if (frame?.kind !== 'ConversationStateUpdateEvent') continue;
      if (frame.key === 'execution_status') return String(frame.value);
      if (frame.key === 'full_state') return String((frame.value as Json | undefined)?.execution_status);
    }
    return undefined;
  }

  /** Calls the agent server's conversation route `path` with the sandbox's key; throws naming the route on an error status. */
  async agent(path: string, body: unknown): Promise<void> {
    const url = `${this.agentUrl}/api/conversations/${this.id}${path}`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-api-key': this.key },
      body: JSON.stringify(body),
    });
    await answerText(response, `POST /api/conversations/{id}${path}`);
    this.lastSentAt = Date.now();
    if (!response.ok) throw new Error(`POST /api/conversations/{id}${path} answered ${response.status}`);
  }

  /** Reads the agent server's conversation route `path` with the sandbox's key; throws naming the route on an error status. */
  async agentGet(path: string): Promise<Json> {
    const response = await fetch(`${this.agentUrl}/api/conversations/${this.id}${path}`, { headers: { 'x-session-api-key': this.key } });
    const text = await answerText(response, `GET /api/conversations/{id}${path}`);
    if (!response.ok) throw new Error(`GET /api/conversations/{id}${path} answered ${response.status}`);
    return JSON.parse(text) as Json;
  }

  /** Calls the fake's control API (`/_fakehands/...`) with the provider's key; null when the provider has none. */
  async control(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<Json | null> {
    const response = await fetch(`${this.baseUrl}/_fakehands${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'x-session-api-key': this.apiKey },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answerText(response, `${method} /_fakehands${path}`);
    return response.ok ? (JSON.parse(text) as Json) : null;
  }

  /** Closes the socket and deletes the conversation; never throws. */
  async close(): Promise<void> {
    this.#ws?.close();
    await fetch(`${this.baseUrl}/api/v1/app-conversations/${this.id}`, {
      method: 'DELETE',
      headers: { 'x-session-api-key': this.apiKey },
    }).then(
      (r) => answerText(r, 'DELETE /api/v1/app-conversations/{id}').catch(() => undefined),
      () => undefined,
    );
  }
}

/** Starts a conversation with a first message on the app server at `baseUrl`; its agent host, id and session key. */
export async function startConversation(
  baseUrl: string,
  apiKey: string,
  deadline: number,
): Promise<{ agentUrl: string; id: string; key: string }> {
  const headers = { 'content-type': 'application/json', 'x-session-api-key': apiKey };
  const task = (await answerJson(
    await fetch(`${baseUrl}/api/v1/app-conversations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix the flaky test' }] } }),
    }),
    'POST /api/v1/app-conversations',
  )) as { id: string };
  while (Date.now() < deadline) {
    const [current] = (await answerJson(
      await fetch(`${baseUrl}/api/v1/app-conversations/start-tasks?ids=${task.id}`, { headers }),
      'GET /api/v1/app-conversations/start-tasks',
    )) as {
      status: string;
      app_conversation_id: string;
    }[];
    if (current?.status === 'READY') {
      const [conversation] = (await answerJson(
        await fetch(`${baseUrl}/api/v1/app-conversations?ids=${current.app_conversation_id}`, { headers }),
        'GET /api/v1/app-conversations',
      )) as { id: string; session_api_key: string; conversation_url: string }[];
      return {
        agentUrl: conversation!.conversation_url.replace(/\/api\/conversations\/.*$/, ''),
        id: conversation!.id,
        key: conversation!.session_api_key,
      };
    }
    if (current?.status === 'ERROR') throw new FakehandsError('unreachable', 'the provider could not start a conversation');
    await sleep(100);
  }
  throw new FakehandsError('unreachable', 'the provider did not start a conversation in time');
}
