/**
 * The real OpenHands web client's flows against the fake, call for call as its API layer makes
 * them (OpenHands/OpenHands `frontend/src/api/`, Nov 2025): no `X-Session-API-Key` (it sends none),
 * JSON bodies as axios sends them, errors thrown on any non-2xx as axios does. They run against
 * the standalone server started as the README says (`--auth none`) and against `setupServer`.
 */
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { createFake } from '../../src/index.js';
import { startCli } from '../support/cli.js';

/** `openHands` (frontend/src/api/open-hands-axios.ts): axios on the backend base URL, throwing on a non-2xx answer. */
function openHands(base: string) {
  const send = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json() as Promise<T>;
  };
  return {
    get: <T>(path: string) => send<T>('GET', path),
    post: <T>(path: string, body?: unknown) => send<T>('POST', path, body),
    patch: <T>(path: string, body?: unknown) => send<T>('PATCH', path, body),
    delete: <T>(path: string) => send<T>('DELETE', path),
  };
}

type Task = { id: string; status: string; app_conversation_id: string | null; sandbox_id: string | null };
type Conversation = {
  id: string;
  sandbox_id: string;
  sandbox_status: string;
  conversation_url: string | null;
  session_api_key: string | null;
  title: string;
};
type Sandbox = { id: string; status: string };
type LegacyConversation = {
  conversation_id: string;
  title: string;
  status: string;
  selected_repository: string | null;
  trigger: string | null;
};

/** The web client's services, as its API files call the app server. */
function webClient(base: string, waitForTime: () => Promise<void>) {
  const api = openHands(base);
  return {
    // v1-conversation-service.api.ts, createConversation
    createConversation: (selectedRepository: string, initialUserMsg: string) =>
      api.post<Task>('/api/v1/app-conversations', {
        selected_repository: selectedRepository,
        git_provider: 'github',
        selected_branch: 'main',
        title: undefined,
        trigger: undefined,
        parent_conversation_id: null,
        agent_type: 'default',
        initial_message: { role: 'user', content: [{ type: 'text', text: initialUserMsg }] },
      }),
    // v1-conversation-service.api.ts, getStartTask: polled until READY or ERROR
    async pollStartTask(taskId: string): Promise<Task> {
      for (let i = 0; i < 100; i++) {
        const [task] = await api.get<(Task | null)[]>(`/api/v1/app-conversations/start-tasks?ids=${taskId}`);
        if (task && (task.status === 'READY' || task.status === 'ERROR')) return task;
        await waitForTime();
      }
      throw new Error('the start task never finished');
    },
    // v1-conversation-service.api.ts, searchStartTasks: the last 20 minutes
    searchStartTasks: () =>
      api.get<{ items: Task[] }>(
        `/api/v1/app-conversations/start-tasks/search?limit=100&created_at__gte=${new Date(Date.now() - 20 * 60 * 1000).toISOString()}`,
      ),
    // v1-conversation-service.api.ts, batchGetAppConversations
    batchGetAppConversations: (ids: string[]) =>
      api.get<(Conversation | null)[]>(`/api/v1/app-conversations?${ids.map((id) => `ids=${id}`).join('&')}`),
    // sandbox-service.api.ts
    batchGetSandboxes: (ids: string[]) => api.get<(Sandbox | null)[]>(`/api/v1/sandboxes?${ids.map((id) => `id=${id}`).join('&')}`),
    pauseSandbox: (id: string) => api.post<{ success: boolean }>(`/api/v1/sandboxes/${id}/pause`, {}),
    resumeSandbox: (id: string) => api.post<{ success: boolean }>(`/api/v1/sandboxes/${id}/resume`, {}),
    // conversation-service.api.ts
    getUserConversations: (limit = 20) =>
      api.get<{ results: LegacyConversation[]; next_page_id: string | null }>(`/api/conversations?limit=${limit}`),
    searchConversations: (selectedRepository: string, conversationTrigger?: string) =>
      api.get<{ results: LegacyConversation[] }>(
        `/api/conversations?limit=100&selected_repository=${encodeURIComponent(selectedRepository)}${conversationTrigger ? `&conversation_trigger=${conversationTrigger}` : ''}`,
      ),
    getConversation: (id: string) => api.get<LegacyConversation | null>(`/api/conversations/${id}`),
    updateConversation: (id: string, title: string) => api.patch<boolean>(`/api/conversations/${id}`, { title }),
    deleteUserConversation: (id: string) => api.delete<boolean>(`/api/conversations/${id}`),
    // secrets-service.ts, addGitProvider
    addGitProvider: (providers: Record<string, { token: string; host: string | null }>) =>
      api.post<unknown>('/api/add-git-providers', { provider_tokens: providers }),
  };
}

/** Everything a user does in one session of the web client. */
async function session(client: ReturnType<typeof webClient>): Promise<void> {
  const task = await client.createConversation('acme/webshop', 'Fix the checkout test');
  expect(task.status).toBe('WORKING');
  expect((await client.searchStartTasks()).items.map((t) => t.id)).toContain(task.id);
  const ready = await client.pollStartTask(task.id);
  expect(ready.status).toBe('READY');

  const [conversation] = await client.batchGetAppConversations([ready.app_conversation_id!]);
  expect(conversation).toMatchObject({
    id: ready.app_conversation_id,
    sandbox_status: 'RUNNING',
    conversation_url: expect.any(String),
    session_api_key: expect.any(String),
  });
  const [sandbox] = await client.batchGetSandboxes([conversation!.sandbox_id]);
  expect(sandbox).toMatchObject({ id: conversation!.sandbox_id, status: 'RUNNING' });

  expect(await client.pauseSandbox(sandbox!.id)).toEqual({ success: true });
  expect((await client.batchGetAppConversations([conversation!.id]))[0]).toMatchObject({
    sandbox_status: 'PAUSED',
    conversation_url: null,
  });
  expect(await client.resumeSandbox(sandbox!.id)).toEqual({ success: true });
  expect((await client.batchGetSandboxes([sandbox!.id]))[0]!.status).toMatch(/^(STARTING|RUNNING)$/);

  const listed = await client.getUserConversations();
  expect(listed.results.map((c) => c.conversation_id)).toContain(conversation!.id);
  expect((await client.searchConversations('acme/webshop')).results.map((c) => c.conversation_id)).toEqual([conversation!.id]);
  expect((await client.searchConversations('acme/webshop', 'suggested_task')).results).toEqual([]);

  expect(await client.updateConversation(conversation!.id, 'Checkout test fixed')).toBe(true);
  expect((await client.getConversation(conversation!.id))!.title).toBe('Checkout test fixed');

  expect(await client.addGitProvider({ github: { token: 'ghp_webClientToken', host: 'github.com' } })).toEqual({
    message: 'Git providers stored',
  });

  expect(await client.deleteUserConversation(conversation!.id)).toBe(true);
  expect(await client.getConversation(conversation!.id)).toBeNull();
  expect(await client.batchGetAppConversations([conversation!.id])).toEqual([null]);
}

describe('the real OpenHands web client', () => {
  const server = setupServer();

  it('works against `npx fakehands serve --auth none`, as the README says to run it for the web client', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none', '--fixture', 'empty']);
    await session(webClient(cli.url, () => new Promise((resolve) => setTimeout(resolve, 250))));
  }, 60_000);

  it('works against setupServer(...fake.handlers) with auth none, time driven by the test', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty', baseUrl: 'http://openhands.test' });
    server.resetHandlers(...fake.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await session(webClient('http://openhands.test', async () => fake.clock.advance(500)));
    } finally {
      server.close();
    }
  });

  it('is refused on the legacy routes under the default auth, as a real server with a session key would refuse it', async () => {
    const cli = await startCli(['--quiet', '--fixture', 'empty']);
    const client = webClient(cli.url, async () => undefined);
    await expect(client.getUserConversations()).rejects.toThrow('GET /api/conversations?limit=20 answered 401: {"detail":"Unauthorized"}');
    expect((await client.searchStartTasks()).items).toEqual([]);
  });
});
