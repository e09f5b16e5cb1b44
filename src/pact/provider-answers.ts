/**
 * What the provider states read from the provider, checked before it is used. A state set-up reads
 * a few fields of each answer (a sandbox's `id` and `status`, a start task's `status`); a provider
 * that answers another shape fails the state at once, naming the route, the field and what came
 * back, instead of polling an `undefined` id until the state's deadline, or throwing a bare
 * `TypeError` from deep inside the verifier. Only the fields a set-up reads are checked: the
 * interactions themselves check whole answers against the contracts.
 */
import * as z from 'zod/mini';
import { AppConversationStartTaskStatus } from '../schemas/app-conversation.js';
import { ConversationExecutionStatus, SandboxStatus } from '../schemas/common.js';
import type { AgentClient, Client } from '../client/index.js';

/** A provider answer a state set-up cannot use; its message names the route, the field and what came back. */
export class WrongShapeError extends Error {
  override name = 'WrongShapeError';
}

/** Longest excerpt of a wrong answer shown in a message. */
const EXCERPT_CHARS = 160;

/** A short, single-line excerpt of what the provider answered. */
export function excerpt(value: unknown): string {
  let text: string;
  try {
    text = value === undefined ? 'no body' : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

/** `value` if it has the shape `schema` describes, else a `WrongShapeError` naming `route` and the first wrong field. */
export function expectShape<T>(route: string, what: string, schema: z.ZodMiniType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length > 0 ? `\`${issue.path.join('.')}\`` : 'the body';
  throw new WrongShapeError(`${route} answered ${what} in the wrong shape: ${where}: ${issue.message} (got ${excerpt(value)})`);
}

/** A string that is not empty. */
const text = z.string().check(z.minLength(1));

const Sandbox = z.object({ id: text, status: SandboxStatus });
const StartTask = z.object({
  id: text,
  status: AppConversationStartTaskStatus,
  app_conversation_id: z.nullish(z.string()),
  sandbox_id: z.nullish(z.string()),
  detail: z.nullish(z.string()),
});
const AppConversation = z.object({
  id: text,
  execution_status: z.nullish(ConversationExecutionStatus),
  conversation_url: z.nullish(z.string()),
  session_api_key: z.nullish(z.string()),
});
const page = <T extends z.ZodMiniType>(item: T) => z.object({ items: z.array(item) });
/** A batch read (`?id=a&id=b`): one entry per id asked, `null` for a missing one. */
const batch = <T extends z.ZodMiniType>(item: T, count: number) =>
  z.array(z.nullable(item)).check(z.length(count, `expected one entry per id asked (${count})`));

/** A sandbox as the state set-ups read it. */
export type CheckedSandbox = z.infer<typeof Sandbox>;
/** A start task as the state set-ups read it. */
export type CheckedStartTask = z.infer<typeof StartTask>;
/** An app conversation as the state set-ups read it. */
export type CheckedAppConversation = z.infer<typeof AppConversation>;

/** The app server's reads and writes the state set-ups and the clean-up use, each answer checked. */
export function checkedClient(client: Client) {
  return {
    /** `POST /api/v1/sandboxes`. */
    startSandbox: async () => expectShape('POST /api/v1/sandboxes', 'a sandbox', Sandbox, await client.startSandbox()),
    /** `GET /api/v1/sandboxes?id=`. */
    getSandboxes: async (ids: readonly string[]) =>
      expectShape('GET /api/v1/sandboxes', 'a list of sandboxes', batch(Sandbox, ids.length), await client.getSandboxes(ids)),
    /** `GET /api/v1/sandboxes/search`. */
    searchSandboxes: async (limit: number) =>
      expectShape(
        'GET /api/v1/sandboxes/search',
        'a page of sandboxes',
        page(z.object({ id: z.string() })),
        await client.searchSandboxes({ limit }),
      ),
    /** `GET /api/v1/sandbox-specs/search`. */
    searchSandboxSpecs: async (limit: number) =>
      expectShape(
        'GET /api/v1/sandbox-specs/search',
        'a page of sandbox specs',
        page(z.object({ id: text })),
        await client.searchSandboxSpecs({ limit }),
      ),
    /** `POST /api/v1/sandboxes/{id}/pause`. */
    pauseSandbox: (id: string) => client.pauseSandbox(id),
    /** `POST /api/v1/app-conversations`. */
    startAppConversation: async (body: Parameters<Client['startAppConversation']>[0]) =>
      expectShape('POST /api/v1/app-conversations', 'a start task', StartTask, await client.startAppConversation(body)),
    /** `GET /api/v1/app-conversations/start-tasks?ids=`. */
    getStartTasks: async (ids: readonly string[]) =>
      expectShape(
        'GET /api/v1/app-conversations/start-tasks',
        'a list of start tasks',
        batch(StartTask, ids.length),
        await client.getStartTasks(ids),
      ),
    /** `GET /api/v1/app-conversations?ids=`. */
    getAppConversations: async (ids: readonly string[]) =>
      expectShape(
        'GET /api/v1/app-conversations',
        'a list of app conversations',
        batch(AppConversation, ids.length),
        await client.getAppConversations(ids),
      ),
    /** `GET /api/conversations`. */
    listConversations: async (limit: number) =>
      expectShape(
        'GET /api/conversations',
        'a page of conversations',
        z.object({ results: z.array(z.object({ conversation_id: z.string() })) }),
        await client.listConversations({ limit }),
      ),
  };
}

/** The client `checkedClient` answers. */
export type CheckedClient = ReturnType<typeof checkedClient>;

const AgentConversation = z.object({ execution_status: ConversationExecutionStatus, workspace: z.object({ working_dir: text }) });

/** The agent server's reads the state set-ups use, each answer checked. */
export function checkedAgent(agent: AgentClient) {
  return {
    /** `GET /api/conversations/{id}` on the agent server. */
    getConversation: async () =>
      expectShape('GET /api/conversations/{id} (agent server)', 'a conversation', AgentConversation, await agent.getConversation()),
    /** `GET /api/git/changes` on the agent server. */
    gitChanges: async (path: string) =>
      expectShape(
        'GET /api/git/changes (agent server)',
        'a list of git changes',
        z.array(z.object({ path: text })),
        await agent.gitChanges(path),
      ),
    /** `POST /api/conversations/{id}/pause` on the agent server. */
    pause: () => agent.pause(),
    /** `POST /api/conversations/{id}/confirmation_policy` on the agent server. */
    setConfirmationPolicy: (kind: 'AlwaysConfirm') => agent.setConfirmationPolicy(kind),
    /** `POST /api/conversations/{id}/events` on the agent server. */
    sendMessage: (text: string) => agent.sendMessage(text),
  };
}

const BashOutput = z.object({ kind: z.literal('BashOutput'), command_id: text });

/** `POST /api/bash/execute_bash_command` on the agent host at `origin`: the command's last output, checked. */
export async function executeBashCommand(origin: string, key: string | undefined, command: string) {
  const route = 'POST /api/bash/execute_bash_command (agent server)';
  const response = await fetch(`${origin}/api/bash/execute_bash_command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-session-api-key': key }) },
    body: JSON.stringify({ command, timeout: 30 }),
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw new WrongShapeError(`${route} answered ${response.status}: ${excerpt(body)}`);
  return expectShape(route, 'a bash output', BashOutput, body);
}

/**
 * Saves an LLM profile on the agent host at `origin` and makes it the active one
 * (`POST /api/profiles/{name}`, `POST /api/profiles/{name}/activate`): a fresh agent server has none.
 */
export async function saveActiveProfile(origin: string, key: string | undefined, name: string, llm: Record<string, unknown>) {
  const headers = { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-session-api-key': key }) };
  for (const [route, body] of [
    [`/api/profiles/${name}`, { llm }],
    [`/api/profiles/${name}/activate`, {}],
  ] as const) {
    const response = await fetch(`${origin}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!response.ok) {
      const answer: unknown = await response.json().catch(() => undefined);
      throw new WrongShapeError(`POST ${route} (agent server) answered ${response.status}: ${excerpt(answer)}`);
    }
  }
}
