/**
 * A small fetch-based client for every endpoint of the Conversation and Sandbox Service,
 * typed from the zod schemas. It runs against the fake or any real implementation.
 * @example
 * const api = createClient({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'fakehands-dev-key' })
 * const sandbox = await api.startSandbox()
 * await api.pauseSandbox(sandbox.id)
 */
import type * as z from 'zod/mini';
import { ApiError } from './errors.js';
import type { AppConversation, AppConversationStartRequest, AppConversationStartTask } from '../schemas/app-conversation.js';
import type { ConversationTrigger, StartTaskSortOrder, Success } from '../schemas/common.js';
import type { AppConversationUpdateRequest, GitChange, GitChangeDiff, SecretNamesResponse } from '../schemas/conversation-ops.js';
import type { ConversationInfo, ConversationResponse, InitSessionRequest, POSTProviderModel } from '../schemas/legacy.js';
import type { SandboxInfo } from '../schemas/sandbox.js';
import type { SandboxSpecInfo } from '../schemas/sandbox-spec.js';

/** A page of a search endpoint. */
export interface Page<T> {
  items: T[];
  next_page_id: string | null;
}

/** Paging parameters. */
export interface PageQuery {
  /** The `next_page_id` of the page before. */
  page_id?: string;
  /** Items per page, 1–100. */
  limit?: number;
}

/** Filters of the app conversation count. */
export interface AppConversationFilters {
  title__contains?: string;
  created_at__gte?: string;
  created_at__lt?: string;
  updated_at__gte?: string;
  updated_at__lt?: string;
  sandbox_id__eq?: string;
}

/** Filters and page of the app conversation search (always newest first). */
export interface AppConversationQuery extends PageQuery, AppConversationFilters {
  include_sub_conversations?: boolean;
}

/** Filters and cursor of the legacy conversation list. */
export interface LegacyListQuery {
  /** The `next_page_id` of the page before. */
  page_id?: string;
  /** Items per page (default 20, no upper bound). */
  limit?: number;
  selected_repository?: string;
  conversation_trigger?: ConversationTrigger;
  include_sub_conversations?: boolean;
}

/** Filters of the start task search and count. */
export interface StartTaskQuery extends PageQuery {
  conversation_id__eq?: string;
  created_at__gte?: string;
  sort_order?: StartTaskSortOrder;
}

export { ApiError } from './errors.js';

/** Options of `createClient`. */
export interface ClientOptions {
  /** Where the service is, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** Sent as `X-Session-API-Key` when given. */
  apiKey?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

type QueryValue = string | number | boolean | readonly string[] | undefined;

function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Creates a client for the service at `options.baseUrl`. */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function send(
    method: string,
    path: string,
    init: { query?: Record<string, QueryValue>; body?: unknown; key?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const key = init.key ?? options.apiKey;
    if (key !== undefined) headers['X-Session-API-Key'] = key;
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await doFetch(`${base}${path}${queryString(init.query)}`, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    if (!response.ok) throw new ApiError(method, path, response.status, await parsed(response));
    return response;
  }

  async function parsed(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : undefined;
    } catch {
      return text;
    }
  }

  async function request<T>(
    method: string,
    path: string,
    init: { query?: Record<string, QueryValue>; body?: unknown; key?: string } = {},
  ): Promise<T> {
    return (await parsed(await send(method, path, init))) as T;
  }

  const id = encodeURIComponent;
  const conversation = (conversationId: string) => `/api/v1/app-conversations/${id(conversationId)}`;
  return {
    /** `POST /api/conversations`: creates (or joins) a legacy conversation. */
    createConversation: (body: z.input<typeof InitSessionRequest> = {}) =>
      request<ConversationResponse>('POST', '/api/conversations', { body }),
    /** `GET /api/conversations`: legacy list of both versions, newest first, filtered. */
    listConversations: (query: LegacyListQuery = {}) =>
      request<{ results: ConversationInfo[]; next_page_id: string | null }>('GET', '/api/conversations', { query: { ...query } }),
    /** `GET /api/conversations/{id}`: `null` for an unknown id. */
    getConversation: (conversationId: string) => request<ConversationInfo | null>('GET', `/api/conversations/${id(conversationId)}`),
    /** `PATCH /api/conversations/{id}`: renames a conversation. */
    updateConversationTitle: (conversationId: string, title: string) =>
      request<boolean>('PATCH', `/api/conversations/${id(conversationId)}`, { body: { title } }),
    /** `DELETE /api/conversations/{id}`. */
    deleteConversation: (conversationId: string) => request<boolean>('DELETE', `/api/conversations/${id(conversationId)}`),
    /** `POST /api/add-git-providers`: stores provider tokens (never returned) and MCP config. */
    storeGitProviders: (body: z.input<typeof POSTProviderModel>) =>
      request<{ message: string }>('POST', '/api/add-git-providers', { body }),

    /** `POST /api/v1/app-conversations`: starts a conversation; poll the start task it answers with. */
    startAppConversation: (body: z.input<typeof AppConversationStartRequest> = {}) =>
      request<AppConversationStartTask>('POST', '/api/v1/app-conversations', { body }),
    /** `GET /api/v1/app-conversations?ids=`: aligned with `ids`, null for missing ones. */
    getAppConversations: (ids: readonly string[]) =>
      request<(AppConversation | null)[]>('GET', '/api/v1/app-conversations', { query: { ids } }),
    /** `GET /api/v1/app-conversations/search`. */
    searchAppConversations: (query: AppConversationQuery = {}) =>
      request<Page<AppConversation>>('GET', '/api/v1/app-conversations/search', { query: { ...query } }),
    /** `GET /api/v1/app-conversations/count`. */
    countAppConversations: (query: AppConversationFilters = {}) =>
      request<number>('GET', '/api/v1/app-conversations/count', { query: { ...query } }),
    /** `GET /api/v1/app-conversations/start-tasks?ids=`. */
    getStartTasks: (ids: readonly string[]) =>
      request<(AppConversationStartTask | null)[]>('GET', '/api/v1/app-conversations/start-tasks', { query: { ids } }),
    /** `GET /api/v1/app-conversations/start-tasks/search`. */
    searchStartTasks: (query: StartTaskQuery = {}) =>
      request<Page<AppConversationStartTask>>('GET', '/api/v1/app-conversations/start-tasks/search', { query: { ...query } }),
    /** `GET /api/v1/app-conversations/start-tasks/count`. */
    countStartTasks: (query: Omit<StartTaskQuery, 'page_id' | 'limit' | 'sort_order'> = {}) =>
      request<number>('GET', '/api/v1/app-conversations/start-tasks/count', { query: { ...query } }),

    /** `PATCH /api/v1/app-conversations/{id}`: title, public, repository, branch, provider. */
    updateAppConversation: (conversationId: string, body: AppConversationUpdateRequest) =>
      request<AppConversation>('PATCH', conversation(conversationId), { body }),
    /** `DELETE /api/v1/app-conversations/{id}`. */
    deleteAppConversation: (conversationId: string) => request<Success>('DELETE', conversation(conversationId)),
    /** `POST /api/v1/app-conversations/{id}/send-message`: the sandbox must be RUNNING. */
    sendMessage: (conversationId: string, text: string, run = true) =>
      request<{ success: boolean; sandbox_status: string; message: string | null }>(
        'POST',
        `${conversation(conversationId)}/send-message`,
        { body: { content: [{ type: 'text', text }], run } },
      ),
    /** `POST /api/v1/app-conversations/{id}/switch_profile`. */
    switchProfile: (conversationId: string, profileName: string) =>
      request<Success>('POST', `${conversation(conversationId)}/switch_profile`, { body: { profile_name: profileName } }),
    /** `POST /api/v1/app-conversations/{id}/switch_acp_model`. */
    switchAcpModel: (conversationId: string, model: string) =>
      request<Success>('POST', `${conversation(conversationId)}/switch_acp_model`, { body: { model } }),
    /** `GET /api/v1/app-conversations/{id}/file`: the file's text (`""` when it is not there). */
    readFile: (conversationId: string, filePath?: string) =>
      request<string>('GET', `${conversation(conversationId)}/file`, { query: { file_path: filePath } }),
    /** `GET /api/v1/app-conversations/{id}/git/changes?path=`: the changed files of the repository at `path`. */
    gitChanges: (conversationId: string, path: string) =>
      request<GitChange[]>('GET', `${conversation(conversationId)}/git/changes`, { query: { path } }),
    /** `GET /api/v1/app-conversations/{id}/git/diff?path=`: a file before and after. */
    gitDiff: (conversationId: string, path: string) =>
      request<GitChangeDiff>('GET', `${conversation(conversationId)}/git/diff`, { query: { path } }),
    /** `GET /api/v1/app-conversations/{id}/skills`. */
    skills: (conversationId: string) =>
      request<{ skills: { name: string; type: string; content: string; triggers: string[] }[] }>(
        'GET',
        `${conversation(conversationId)}/skills`,
      ),
    /** `GET /api/v1/app-conversations/{id}/hooks`. */
    hooks: (conversationId: string) =>
      request<{ hooks: { event_type: string; matchers: unknown[] }[] }>('GET', `${conversation(conversationId)}/hooks`),
    /** `GET /api/v1/app-conversations/{id}/download`: the ZIP archive's bytes. */
    download: async (conversationId: string) =>
      new Uint8Array(await (await send('GET', `${conversation(conversationId)}/download`)).arrayBuffer()),
    /** `POST /api/v1/app-conversations/stream-start`: each step of the start task, as it streams in. */
    async *streamStart(body: z.input<typeof AppConversationStartRequest> = {}): AsyncGenerator<AppConversationStartTask> {
      const response = await send('POST', '/api/v1/app-conversations/stream-start', { body });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (value) buffer += decoder.decode(value, { stream: true });
        // Items are separated by ",\n" inside "[\n" ... "]": each complete one is parsed as it arrives.
        const items = buffer.replace(/^\[\n/, '').split(/,\n(?=\{)/);
        const complete = done ? items : items.slice(0, -1);
        for (const item of complete) {
          const text = item.replace(/\]$/, '').trim();
          if (text) yield JSON.parse(text) as AppConversationStartTask;
        }
        buffer = done ? '' : `[\n${items.at(-1)}`;
        if (done) return;
      }
    },
    /** `GET /api/v1/sandboxes/{id}/settings/secrets`, with the sandbox's own session key: names only. */
    sandboxSecretNames: (sandboxId: string, sandboxKey: string) =>
      request<SecretNamesResponse>('GET', `/api/v1/sandboxes/${id(sandboxId)}/settings/secrets`, { key: sandboxKey }),

    /** `GET /api/v1/sandboxes/search`. */
    searchSandboxes: (query: PageQuery = {}) => request<Page<SandboxInfo>>('GET', '/api/v1/sandboxes/search', { query: { ...query } }),
    /** `GET /api/v1/sandboxes?id=`: aligned with `ids`, null for missing ones. */
    getSandboxes: (ids: readonly string[]) => request<(SandboxInfo | null)[]>('GET', '/api/v1/sandboxes', { query: { id: ids } }),
    /** `POST /api/v1/sandboxes`: starts a sandbox (from the default spec when none is named). */
    startSandbox: (sandboxSpecId?: string) =>
      request<SandboxInfo>('POST', '/api/v1/sandboxes', { query: { sandbox_spec_id: sandboxSpecId } }),
    /** `POST /api/v1/sandboxes/{id}/pause`. */
    pauseSandbox: (sandboxId: string) => request<Success>('POST', `/api/v1/sandboxes/${id(sandboxId)}/pause`),
    /** `POST /api/v1/sandboxes/{id}/resume`. */
    resumeSandbox: (sandboxId: string) => request<Success>('POST', `/api/v1/sandboxes/${id(sandboxId)}/resume`),
    /** `DELETE /api/v1/sandboxes/{id}?sandbox_id=`: the real route reads the id from the query. */
    deleteSandbox: (sandboxId: string) =>
      request<Success>('DELETE', `/api/v1/sandboxes/${id(sandboxId)}`, { query: { sandbox_id: sandboxId } }),

    /** `GET /api/v1/sandbox-specs/search`. */
    searchSandboxSpecs: (query: PageQuery = {}) =>
      request<Page<SandboxSpecInfo>>('GET', '/api/v1/sandbox-specs/search', { query: { ...query } }),
    /** `GET /api/v1/sandbox-specs?id=`. */
    getSandboxSpecs: (ids: readonly string[]) =>
      request<(SandboxSpecInfo | null)[]>('GET', '/api/v1/sandbox-specs', { query: { id: ids } }),
  };
}

/** The client `createClient` returns. */
export type Client = ReturnType<typeof createClient>;

export { createAgentClient, type AgentClient, type AgentClientOptions, type ConversationEvent, type WebSocketClass } from './agent.js';
