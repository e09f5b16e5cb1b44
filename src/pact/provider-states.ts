/**
 * The provider states of the contracts, set up through the public API only (so they work against a
 * real server), and the cleanup of what they and the interactions create. Used by `verify.ts`.
 */
import { createAgentClient, type Client } from '../client/index.js';
import type { Forwarder } from './forwarder.js';
import {
  checkedAgent,
  checkedClient,
  excerpt,
  executeBashCommand,
  saveActiveProfile,
  WrongShapeError,
  type CheckedClient,
} from './provider-answers.js';

/** How often a state handler polls while it waits. */
const POLL_INTERVAL_MS = 100;
/**
 * How far a fakehands provider's clock is moved at each poll of a wait: its realistic timings (a
 * sandbox starts in 2 s, an agent runs for 10 s) then pass in a few polls instead of in real time,
 * and the same server serves `verify` and `verify --messages` (whose interrupt needs a run that lasts).
 */
const CLOCK_STEP_MS = 2_000;

/** Moves the provider's time forward while a state handler waits: a fakehands provider's clock, or nothing (a real server). */
export type Nudge = () => Promise<void>;

/** How a state handler waits: for at most `timeoutMs`, moving a fakehands provider's clock with `nudge` between polls. */
export interface Wait {
  /** The longest a wait may take. */
  timeoutMs: number;
  /** What moves the provider's time between polls (null: a provider whose time is its own). */
  nudge: Nudge | null;
}

/**
 * The nudge of the provider at `baseUrl`: a fakehands provider (its control API answers
 * `GET /_fakehands/clock` with its time) has its clock moved forward; any other provider has nothing
 * done to it, and its waits take the time its steps take.
 */
export async function providerClockNudge(baseUrl: string, apiKey: string | undefined): Promise<Nudge | null> {
  const url = `${baseUrl.replace(/\/+$/, '')}/_fakehands/clock`;
  const headers: Record<string, string> = apiKey ? { 'x-session-api-key': apiKey } : {};
  const time = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) })
    .then(async (answer) => (answer.ok ? ((await answer.json()) as unknown) : null))
    .catch(() => null);
  if (typeof (time as { now?: unknown } | null)?.now !== 'string') return null;
  return async () => {
    await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: CLOCK_STEP_MS }),
    })
      .then((answer) => answer.body?.cancel())
      .catch(() => undefined);
  };
}

/** The parameters a provider state is set up with. */
export type StateParams = Record<string, unknown> | undefined;
/** Sets up one provider state; resolves with the values the interaction's request may use. */
export type StateSetup = (params: StateParams) => Promise<Record<string, unknown> | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `read` until `done` holds or the deadline passes; throws a message naming what it waited
 * for. `hopeless` names a value that can never become `done` (a missing record, an ERROR status):
 * the wait ends there, at once, rather than at the deadline.
 */
async function waitFor<T>(
  what: string,
  { timeoutMs, nudge }: Wait,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  hopeless: (value: T) => string | null = () => null,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    const why = hopeless(value);
    if (why !== null) throw new Error(`gave up waiting for ${what}: ${why}`);
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last seen: ${JSON.stringify(value)})`);
    await nudge?.();
    await sleep(POLL_INTERVAL_MS);
  }
}

/** Most recent records looked at to find what an interaction created. */
const CLEANUP_WINDOW = 100;

/**
 * Deletes what a verification run created: what the provider states made, and whatever the
 * interactions themselves created (new sandboxes and conversations, found by comparing the
 * newest records before and after each interaction).
 */
export class Cleanup {
  readonly sandboxes = new Set<string>();
  readonly conversations = new Set<string>();
  #knownSandboxes = new Set<string>();
  #knownConversations = new Set<string>();

  /** Remembers the newest records, before an interaction; never throws (a provider that answers lists in another shape is left uncleaned). */
  async remember(client: Client): Promise<void> {
    const checked = checkedClient(client);
    this.#knownSandboxes = new Set((await checked.searchSandboxes(CLEANUP_WINDOW).catch(() => ({ items: [] }))).items.map((s) => s.id));
    this.#knownConversations = new Set(
      (await checked.listConversations(CLEANUP_WINDOW).catch(() => ({ results: [] }))).results.map((c) => c.conversation_id),
    );
  }

  /** Deletes what was created since `remember`; never throws. */
  async run(client: Client): Promise<void> {
    const checked = checkedClient(client);
    const sandboxes = await checked.searchSandboxes(CLEANUP_WINDOW).catch(() => ({ items: [] }));
    for (const sandbox of sandboxes.items) if (!this.#knownSandboxes.has(sandbox.id)) this.sandboxes.add(sandbox.id);
    const conversations = await checked.listConversations(CLEANUP_WINDOW).catch(() => ({ results: [] }));
    for (const c of conversations.results) if (!this.#knownConversations.has(c.conversation_id)) this.conversations.add(c.conversation_id);
    for (const id of this.conversations) await client.deleteConversation(id.replaceAll('-', '')).catch(() => undefined);
    for (const id of this.sandboxes) await client.deleteSandbox(id).catch(() => undefined);
    this.sandboxes.clear();
    this.conversations.clear();
  }
}

/** Sandbox statuses a sandbox being started never leaves for RUNNING. */
const DEAD_SANDBOX = new Set(['ERROR', 'MISSING']);

/** Starts a sandbox and waits for it to run; a sandbox that is missing or in ERROR ends the wait at once. */
async function runningSandbox(api: CheckedClient, wait: Wait, cleanup: Cleanup): Promise<string> {
  const sandbox = await api.startSandbox();
  cleanup.sandboxes.add(sandbox.id);
  await waitFor(
    `sandbox ${sandbox.id} to be RUNNING`,
    wait,
    async () => (await api.getSandboxes([sandbox.id]))[0]?.status,
    (s) => s === 'RUNNING',
    (s) =>
      s === undefined
        ? `GET /api/v1/sandboxes answered null for the sandbox POST /api/v1/sandboxes just started`
        : DEAD_SANDBOX.has(s)
          ? `it is ${s}`
          : null,
  );
  return sandbox.id;
}

/** Starts an app conversation and waits for its start task to be READY; a missing task or one in ERROR ends the wait at once. */
async function readyConversation(
  api: CheckedClient,
  wait: Wait,
  cleanup: Cleanup,
  body: Parameters<CheckedClient['startAppConversation']>[0],
): Promise<{ app_conversation_id: string; sandbox_id: string }> {
  const task = await api.startAppConversation(body);
  const ready = await waitFor(
    `start task ${task.id} to be READY`,
    wait,
    async () => (await api.getStartTasks([task.id]))[0] ?? null,
    (t) => t?.status === 'READY',
    (t) =>
      t === null
        ? 'GET /api/v1/app-conversations/start-tasks answered null for the task POST /api/v1/app-conversations just made'
        : t.status === 'ERROR'
          ? `it ended in ERROR: ${t.detail ?? 'no detail'}`
          : null,
  );
  if (!ready?.app_conversation_id || !ready.sandbox_id) {
    throw new WrongShapeError(
      `GET /api/v1/app-conversations/start-tasks answered a READY start task without \`app_conversation_id\` or \`sandbox_id\` (got ${excerpt(ready)})`,
    );
  }
  cleanup.conversations.add(ready.app_conversation_id);
  cleanup.sandboxes.add(ready.sandbox_id);
  return { app_conversation_id: ready.app_conversation_id, sandbox_id: ready.sandbox_id };
}

/** The provider states the contracts use, set up through the public API. */
export function stateSetups(client: Client, wait: Wait, cleanup: Cleanup, flags: { sendKey: boolean }): Record<string, StateSetup> {
  const api = checkedClient(client);
  const appConversation = () =>
    readyConversation(api, wait, cleanup, {
      selected_repository: 'OpenHands/OpenHands',
      git_provider: 'github',
      title: 'Contract check',
    });
  return {
    'the service is up': async () => {
      await api.searchSandboxSpecs(1);
      return undefined;
    },
    'the client sends no session API key': async () => {
      flags.sendKey = false;
      return undefined;
    },
    'a sandbox spec exists': async () => {
      const page = await api.searchSandboxSpecs(1);
      if (!page.items[0]) throw new Error('the service has no sandbox spec (GET /api/v1/sandbox-specs/search answered no items)');
      return { sandbox_spec_id: page.items[0].id };
    },
    'a RUNNING sandbox exists': async () => ({ sandbox_id: await runningSandbox(api, wait, cleanup) }),
    'a PAUSED sandbox exists': async () => {
      const id = await runningSandbox(api, wait, cleanup);
      await api.pauseSandbox(id);
      return { sandbox_id: id };
    },
    'at least two sandboxes exist': async () => {
      for (let i = 0; i < 2; i++) cleanup.sandboxes.add((await api.startSandbox()).id);
      return undefined;
    },
    'no sandbox has the given id': async (params) => {
      const id = String(params?.sandbox_id ?? 'oh-agent-server-does-not-exist');
      const [found] = await api.getSandboxes([id]);
      if (found) throw new Error(`a sandbox with the id ${id} exists`);
      return { sandbox_id: id };
    },
    'an app conversation exists': async () => appConversation(),
    'an app conversation whose sandbox is paused exists': async () => {
      const { app_conversation_id, sandbox_id } = await appConversation();
      await api.pauseSandbox(sandbox_id);
      return { app_conversation_id, sandbox_id };
    },
  };
}

/** What the agent server's states share with the verifier: the conversation's agent host (where the forwarder sends requests) and its sandbox's key. */
export interface AgentTarget {
  forwarder: Forwarder;
  key: string | undefined;
}

/** Agent statuses a finished run is waited for from; any other (idle, paused, …) is still on its way there. */
const RUN_OVER = new Set(['finished', 'error']);

/**
 * The agent server's provider states: a conversation started through the app server (as the web
 * client does), its agent in the state the interaction needs; the forwarder then points at the
 * conversation's agent host and the verifier sends the sandbox's own key.
 */
export function agentStateSetups(
  client: Client,
  wait: Wait,
  cleanup: Cleanup,
  flags: { sendKey: boolean },
  target: AgentTarget,
): Record<string, StateSetup> {
  const api = checkedClient(client);
  const finishedRun = async () => {
    const { app_conversation_id: id } = await readyConversation(api, wait, cleanup, {
      title: 'Contract check',
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Write a plan for the flaky test' }] },
    });
    const conversation = await waitFor(
      `conversation ${id}'s agent to finish its run`,
      wait,
      async () => (await api.getAppConversations([id]))[0] ?? null,
      (c) => RUN_OVER.has(c?.execution_status ?? ''),
      (c) => (c === null ? `GET /api/v1/app-conversations answered null for the conversation its start task named` : null),
    );
    if (!conversation?.conversation_url || !conversation.session_api_key)
      throw new WrongShapeError(
        `GET /api/v1/app-conversations answered conversation ${id} without an agent server (\`conversation_url\` or \`session_api_key\` missing; got ${excerpt(conversation)})`,
      );
    if (!URL.canParse(conversation.conversation_url))
      throw new WrongShapeError(
        `GET /api/v1/app-conversations answered conversation ${id} with a \`conversation_url\` that is not a URL (got ${excerpt(conversation.conversation_url)})`,
      );
    target.forwarder.target = new URL(conversation.conversation_url).origin;
    target.key = conversation.session_api_key;
    const agent = checkedAgent(
      createAgentClient({ conversationUrl: conversation.conversation_url, sessionApiKey: conversation.session_api_key }),
    );
    const projectDir = (await agent.getConversation()).workspace.working_dir;
    const [change] = await agent.gitChanges(projectDir);
    if (!change) throw new Error(`the agent's run changed no file under ${projectDir}`);
    return { agent, params: { conversation_id: conversation.id, project_dir: projectDir, changed_file: `${projectDir}/${change.path}` } };
  };
  return {
    'a conversation whose agent has finished a run': async () => (await finishedRun()).params,
    'a conversation whose agent is paused': async () => {
      const { agent, params } = await finishedRun();
      await agent.pause();
      return params;
    },
    'a conversation whose agent waits for confirmation': async () => {
      const { agent, params } = await finishedRun();
      await agent.setConfirmationPolicy('AlwaysConfirm');
      await agent.sendMessage('Run the test suite');
      await waitFor(
        'the agent to wait for confirmation',
        wait,
        async () => (await agent.getConversation()).execution_status,
        (s) => s === 'waiting_for_confirmation',
        (s) => (s === 'error' ? 'the agent ended in error' : null),
      );
      return params;
    },
    'the client sends no session API key': async () => {
      flags.sendKey = false;
      return undefined;
    },
    // The host-wide routes (settings, profiles, the shell) on the agent host of a conversation the app server
    // started, its user with an active LLM profile (a fresh agent server has none).
    'an agent server is running': async () => {
      await finishedRun();
      const origin = target.forwarder.target;
      if (origin === null) throw new Error('no agent host to save an LLM profile on');
      await saveActiveProfile(origin, target.key, 'default', {
        model: 'anthropic/claude-sonnet-4-5-20250929',
        api_key: 'sk-contract-check',
      });
      return undefined;
    },
    'a shell command has run on the agent server': async () => {
      await finishedRun();
      const origin = target.forwarder.target;
      if (origin === null) throw new Error('no agent host to run a shell command on');
      const output = await executeBashCommand(origin, target.key, 'echo hello');
      return { command_id: output.command_id };
    },
  };
}
