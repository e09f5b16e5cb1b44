/**
 * What a session's traffic says the servers hold, read exchange by exchange: the agent server's
 * conversations (`ConversationInfo`s answered by a create, a read, a search) and their events (events
 * search, one event, the frames of `/sockets/events/{id}`); the app server's conversations and
 * sandboxes (its searches and batch reads), sandbox specs, settings and secret names. Deletes
 * remove. The recorder keeps one to write each conversation's ZIP; a recording is read back
 * through one into a fixture (`fixture.ts`). Pure: no Node built-in.
 */
import { toHyphenatedUuid } from '../store/ids.js';

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** What the traffic says of one agent-server conversation. */
export interface SeenConversation {
  /** Its latest `ConversationInfo`, when one was answered. */
  info: JsonObject | null;
  /** Its events by id, in the order first seen. */
  readonly events: Map<string, JsonObject>;
  /** When (in exchanges and frames read) its info was last answered, and a new event last seen: the info is current when it came after. */
  infoAt: number;
  eventAt: number;
  /** The value of the last `full_state` a socket sent, and when it came. */
  fullState: JsonObject | null;
  fullStateAt: number;
}

/** One exchange: its method, URL, status and bodies (parsed when JSON). */
export interface Exchange {
  method: string;
  url: URL;
  status: number;
  request: unknown;
  response: unknown;
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Whether `value` is an agent-server event: a `kind` and a `source`. */
export const isEvent = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.kind === 'string' && typeof value.source === 'string' && typeof value.id === 'string';

/** An id as the store keeps a V1 id (hyphenated), or the id as it is. */
const idOf = (value: string): string => toHyphenatedUuid(value) ?? value;

/** Whether `value` is an agent server's `ConversationInfo` (an id, its agent and workspace). */
const isConversationInfo = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.id === 'string' && isObject(value.agent) && 'execution_status' in value;
/** Whether `value` is an app server's conversation (an id, its sandbox, and what the app server adds). */
const isAppConversation = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.id === 'string' && 'sandbox_id' in value && ('sandbox_status' in value || 'conversation_url' in value);
/** Whether `value` is an app server's sandbox. */
const isSandbox = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.id === 'string' && typeof value.sandbox_spec_id === 'string' && typeof value.status === 'string';
/** Whether `value` is a sandbox spec. */
const isSpec = (value: unknown): value is JsonObject =>
  isObject(value) && typeof value.id === 'string' && 'initial_env' in value && 'working_dir' in value;

/** The items of a page (`{items: [...]}`) or a list, else nothing. */
const itemsOf = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : isObject(value) && Array.isArray(value.items) ? value.items : [];

/** The most events a conversation keeps (the replay's own bound). */
const MAX_EVENTS_PER_CONVERSATION = 10_000;

/** A session's traffic, read into what the servers hold. */
export class TrafficModel {
  /** Agent-server conversations, by hyphenated id, in the order first seen. */
  readonly conversations = new Map<string, SeenConversation>();
  /** App-server conversations, by hyphenated id. */
  readonly appConversations = new Map<string, JsonObject>();
  /** App-server sandboxes, by id. */
  readonly sandboxes = new Map<string, JsonObject>();
  /** Sandbox specs, by id. */
  readonly specs = new Map<string, JsonObject>();
  /** The user's settings as last answered by the app server (the legacy flat shape or `/api/v1/settings`'s). */
  settings: JsonObject | null = null;
  /** Custom secrets by name (their descriptions; values never). */
  readonly secrets = new Map<string, string | null>();
  /** Conversations whose events changed since `takeChanged` was last called. */
  private readonly changed = new Set<string>();
  /** Exchanges and frames read so far. */
  private clock = 0;

  /** The conversation `id` (any form), made when new. */
  conversation(id: string): SeenConversation {
    const key = idOf(id);
    let seen = this.conversations.get(key);
    if (!seen)
      this.conversations.set(key, (seen = { info: null, events: new Map(), infoAt: -1, eventAt: -1, fullState: null, fullStateAt: -1 }));
    return seen;
  }

  /** Ids of the conversations whose events or info changed since the last call. */
  takeChanged(): string[] {
    const ids = [...this.changed];
    this.changed.clear();
    return ids;
  }

  /** Keeps an event of conversation `id` (a later copy of the same event replaces it in place). */
  event(id: string, event: JsonObject): void {
    const seen = this.conversation(id);
    const eventId = event.id as string;
    if (!seen.events.has(eventId)) {
      if (seen.events.size >= MAX_EVENTS_PER_CONVERSATION) return;
      seen.eventAt = this.clock;
    }
    seen.events.set(eventId, event);
    this.changed.add(idOf(id));
  }

  /** Keeps a `ConversationInfo`. */
  private info(info: JsonObject): void {
    const seen = this.conversation(info.id as string);
    seen.info = info;
    seen.infoAt = this.clock;
    this.changed.add(idOf(info.id as string));
  }

  /** A frame an agent server sent on `/sockets/events/{id}`: an event (a delta or a `full_state` is not one the log keeps). */
  frame(url: URL, data: unknown): void {
    this.clock++;
    const match = /^\/sockets\/events\/([^/]+)$/.exec(url.pathname);
    if (!match || !isEvent(data)) return;
    if (data.kind === 'ConversationStateUpdateEvent' && data.key === 'full_state') {
      if (!isObject(data.value)) return;
      const seen = this.conversation(decodeURIComponent(match[1]!));
      seen.fullState = data.value;
      seen.fullStateAt = this.clock;
      return;
    }
    if (data.kind === 'StreamingDeltaEvent') return;
    this.event(decodeURIComponent(match[1]!), data);
  }

  /** One exchange: what its answer (or, for a delete, its success) says the server holds. */
  exchange({ method, url, status, request, response }: Exchange): void {
    this.clock++;
    if (status < 200 || status >= 300) return;
    const path = url.pathname;
    if (method === 'DELETE') return this.deleted(path);
    const conversationEvents =
      /^\/api\/conversations\/([^/]+)\/events(?:\/search|\/[^/]+)?$/.exec(path) ??
      /^\/api\/v1\/conversation\/([^/]+)\/events(?:\/search)?$/.exec(path);
    if (conversationEvents && method === 'GET') {
      const id = decodeURIComponent(conversationEvents[1]!);
      for (const event of isEvent(response) ? [response] : itemsOf(response)) if (isEvent(event)) this.event(id, event);
      return;
    }
    if (path === '/api/v1/events/search' && method === 'GET') {
      const id = url.searchParams.get('conversation_id__eq');
      if (id) for (const event of itemsOf(response)) if (isEvent(event)) this.event(id, event);
      return;
    }
    if (/^\/api\/settings\/secrets\/[^/]+$/.test(path)) return;
    if ((path === '/api/settings' || path === '/api/v1/settings') && method === 'GET' && isObject(response)) {
      // The agent server's own settings (`agent_settings` at the top, no `llm_api_key_set`) are not the user's.
      if ('llm_api_key_set' in response || 'llm_model' in response) this.settings = response;
      return;
    }
    if (path === '/api/secrets' || path === '/api/v1/secrets' || path === '/api/v1/secrets/search') {
      if (method === 'POST' && isObject(request) && typeof request.name === 'string')
        this.secrets.set(request.name, str(request.description) ?? null);
      if (method !== 'GET') return;
      // A list answered is every secret there is (a search's first page starts it), in the server's order.
      const listed = isObject(response) && Array.isArray(response.custom_secrets) ? response.custom_secrets : itemsOf(response);
      if (path !== '/api/v1/secrets/search' || url.searchParams.get('page_id') === null) this.secrets.clear();
      for (const secret of listed)
        if (isObject(secret) && typeof secret.name === 'string') this.secrets.set(secret.name, str(secret.description) ?? null);
      return;
    }
    for (const value of [response, ...itemsOf(response)]) {
      if (isConversationInfo(value)) this.info(value);
      else if (isAppConversation(value)) {
        this.appConversations.set(idOf(value.id as string), value);
        this.changed.add(idOf(value.id as string));
      } else if (isSandbox(value)) this.sandboxes.set(value.id as string, value);
      else if (isSpec(value)) this.specs.set(value.id as string, value);
    }
  }

  /** A successful delete: the conversation, app conversation, sandbox or secret is gone. */
  private deleted(path: string): void {
    const conversation = /^\/api\/(?:conversations|v1\/app-conversations)\/([^/]+)$/.exec(path);
    if (conversation) {
      const id = idOf(decodeURIComponent(conversation[1]!));
      this.conversations.delete(id);
      this.appConversations.delete(id);
      this.changed.add(id);
      return;
    }
    const sandbox = /^\/api\/v1\/sandboxes\/([^/]+)$/.exec(path);
    if (sandbox) this.sandboxes.delete(decodeURIComponent(sandbox[1]!));
    const secret = /^\/api(?:\/v1)?\/secrets\/([^/]+)$/.exec(path);
    if (secret) this.secrets.delete(decodeURIComponent(secret[1]!));
  }

  /** A conversation's events in the log's order: by timestamp, then as first seen. */
  static ordered(seen: SeenConversation): JsonObject[] {
    const events = [...seen.events.values()].map((event, i) => ({ event, i, at: normalTime(str(event.timestamp)) }));
    events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.i - b.i));
    return events.map((e) => e.event);
  }
}

/** A timestamp as text that sorts: naive ones are UTC, microseconds padded. */
function normalTime(timestamp: string | undefined): string {
  if (timestamp === undefined) return '';
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})?$/.exec(timestamp);
  if (!match) return timestamp;
  if (match[4] && match[4] !== 'Z') {
    const ms = Date.parse(timestamp);
    if (Number.isFinite(ms)) return `${new Date(ms).toISOString().slice(0, 19)}.${(match[3] ?? '').padEnd(6, '0')}`;
  }
  return `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(6, '0')}`;
}
