/**
 * Verifies the Pact contracts in `contracts/` against any implementation of the service at a
 * base URL. Provider states are set up through the public API only (so they work against a real
 * server) and what they create is cleaned up. The run fails loudly where pact-js is quiet: a
 * failing or missing state handler, or fewer interactions verified than the contracts hold.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ApiError, createAgentClient, createClient, type Client } from '../client/index.js';
import { FakehandsError } from '../domain/store/errors.js';
import { packageFile } from '../package-root.js';
import { startForwarder, type Forwarder } from './forwarder.js';
import { checkedAgent, checkedClient, excerpt, executeBashCommand, WrongShapeError, type CheckedClient } from './provider-answers.js';

/** The provider name the contracts are written for. */
export const PROVIDER_NAME = 'conversation-sandbox-service';
/** The provider name of the agent server's contracts (the host behind `conversation_url`). */
export const AGENT_PROVIDER_NAME = 'openhands-agent-server';
/** The consumer name of the contracts fakehands writes. */
export const CONSUMER_NAME = 'fakehands-client';
/** The contracts that ship with fakehands. */
export const CONTRACTS_DIR = fileURLToPath(packageFile('contracts/'));
/** How long a state handler waits for the service (a sandbox to run, a start task to be READY): less than Pact's own 30 s, so the reason is ours. */
const DEFAULT_STATE_TIMEOUT_MS = 25_000;
/** How often the provider is asked whether it is still there while the verifier runs, and how many misses in a row mean it died. */
const WATCH_EVERY_MS = 1000;
const WATCH_MISSES = 3;
/** How long one liveness question may take. */
const WATCH_TIMEOUT_MS = 2000;
/** Where pact-js's proxy receives provider state calls (they pass the request filter too). */
const STATE_SETUP_PATH = '/_pactSetup';
/** How often a state handler polls while it waits. */
const POLL_INTERVAL_MS = 100;

/** Pact's absence: one clear line and the command that fixes it. */
const missingPact = () =>
  new FakehandsError(
    'missing_dependency',
    'fakehands verify needs Pact, an optional peer dependency; install it with: npm install --save-dev @pact-foundation/pact@^16',
  );

/** Loads Pact, an optional peer dependency; its absence is one clear line and the command that fixes it. */
export async function loadPact(): Promise<typeof import('@pact-foundation/pact')> {
  try {
    return await import('@pact-foundation/pact');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw missingPact();
  }
}

/**
 * Fails as `loadPact` does when Pact is not installed, without loading it: the process that
 * supervises `fakehands verify` never runs Pact itself, and loading it costs about half a second.
 */
export function assertPactInstalled(): void {
  try {
    createRequire(import.meta.url).resolve('@pact-foundation/pact');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw missingPact();
  }
}

/** Options of `verifyProvider`. */
export interface VerifyOptions {
  /** Where the implementation under test is. */
  baseUrl: string;
  /** The session API key, injected by the verifier into every request (never stored in a contract). */
  apiKey?: string;
  /** Pact files to verify (default: every file in fakehands' `contracts/`). */
  pactFiles?: string[];
  /** Deadline of each provider state setup, in milliseconds. */
  stateTimeoutMs?: number;
  /** Where report lines go (default: stdout). */
  report?: (line: string) => void;
  /** Watch the provider and stop when it dies (default: true; off when a supervising process watches instead). */
  watch?: boolean;
  /** Told how many interactions were sent so far, after each one (a supervising process keeps the count). */
  onProgress?: (progress: VerifyProgress) => void;
}

/** How far a verification run got. */
export interface VerifyProgress {
  /** Interactions in the contracts. */
  expected: number;
  /** Interactions sent to the provider so far. */
  verified: number;
}

/** The outcome of a verification run. */
export interface VerifyResult {
  /** True only when every interaction was verified and passed. */
  ok: boolean;
  /** Interactions in the contracts for this provider. */
  expected: number;
  /** Interactions the verifier actually sent to the provider. */
  verified: number;
  /** Interactions that were sent and did not match the contract. */
  failed: number;
  /** What went wrong, one readable line each. */
  problems: string[];
  /** Advice that is not a failure by itself (a provider that does not check keys). */
  hints: string[];
}

interface PactFile {
  provider?: { name?: string };
  consumer?: { name?: string };
  interactions?: { description: string; providerStates?: { name: string }[] }[];
}

type StateParams = Record<string, unknown> | undefined;
type StateSetup = (params: StateParams) => Promise<Record<string, unknown> | undefined>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `read` until `done` holds or the deadline passes; throws a message naming what it waited
 * for. `hopeless` names a value that can never become `done` (a missing record, an ERROR status):
 * the wait ends there, at once, rather than at the deadline.
 */
async function waitFor<T>(
  what: string,
  timeoutMs: number,
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
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * Watches the provider while the verifier runs: resolves with a reason once it stops answering
 * (`WATCH_MISSES` questions in a row fail), or once Pact's own proxy crashes on a refused
 * connection (an uncaught error in this process). Pact would otherwise retry every 30 s, forever.
 * Pact's native verifier cannot be stopped from JavaScript and keeps its process alive: the
 * `fakehands verify` command runs it in a child process that it kills (`pact/command.ts`).
 */
export function watchProvider(baseUrl: string): { died: Promise<string>; stop(): void } {
  let stop = () => undefined as void;
  const died = new Promise<string>((resolve) => {
    let misses = 0;
    const timer = setInterval(() => {
      fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/sandbox-specs/search?limit=1`, { signal: AbortSignal.timeout(WATCH_TIMEOUT_MS) })
        .then((response) => response.arrayBuffer())
        .then(
          () => {
            misses = 0;
          },
          (error: unknown) => {
            if (++misses >= WATCH_MISSES) resolve(describeReachError(error));
          },
        );
    }, WATCH_EVERY_MS);
    const crashed = (error: Error) => resolve(`the verifier's proxy failed: ${(error as NodeJS.ErrnoException).code ?? error.message}`);
    process.on('uncaughtException', crashed);
    stop = () => {
      clearInterval(timer);
      process.off('uncaughtException', crashed);
    };
  });
  return { died, stop: () => stop() };
}

/** Why a request to the provider failed, in a few words. */
function describeReachError(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused';
  if ((error as Error).name === 'TimeoutError') return `no answer within ${WATCH_TIMEOUT_MS / 1000} s`;
  return cause?.code ?? (error as Error).message;
}

/** Most recent records looked at to find what an interaction created. */
const CLEANUP_WINDOW = 100;

/**
 * Deletes what a verification run created: what the provider states made, and whatever the
 * interactions themselves created (new sandboxes and conversations, found by comparing the
 * newest records before and after each interaction).
 */
class Cleanup {
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
async function runningSandbox(api: CheckedClient, timeoutMs: number, cleanup: Cleanup): Promise<string> {
  const sandbox = await api.startSandbox();
  cleanup.sandboxes.add(sandbox.id);
  await waitFor(
    `sandbox ${sandbox.id} to be RUNNING`,
    timeoutMs,
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
  timeoutMs: number,
  cleanup: Cleanup,
  body: Parameters<CheckedClient['startAppConversation']>[0],
): Promise<{ app_conversation_id: string; sandbox_id: string }> {
  const task = await api.startAppConversation(body);
  const ready = await waitFor(
    `start task ${task.id} to be READY`,
    timeoutMs,
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
function stateSetups(client: Client, timeoutMs: number, cleanup: Cleanup, flags: { sendKey: boolean }): Record<string, StateSetup> {
  const api = checkedClient(client);
  const appConversation = () =>
    readyConversation(api, timeoutMs, cleanup, {
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
    'a RUNNING sandbox exists': async () => ({ sandbox_id: await runningSandbox(api, timeoutMs, cleanup) }),
    'a PAUSED sandbox exists': async () => {
      const id = await runningSandbox(api, timeoutMs, cleanup);
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
interface AgentTarget {
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
function agentStateSetups(
  client: Client,
  timeoutMs: number,
  cleanup: Cleanup,
  flags: { sendKey: boolean },
  target: AgentTarget,
): Record<string, StateSetup> {
  const api = checkedClient(client);
  const finishedRun = async () => {
    const { app_conversation_id: id } = await readyConversation(api, timeoutMs, cleanup, {
      title: 'Contract check',
      initial_message: { role: 'user', content: [{ type: 'text', text: 'Write a plan for the flaky test' }] },
    });
    const conversation = await waitFor(
      `conversation ${id}'s agent to finish its run`,
      timeoutMs,
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
        timeoutMs,
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
    // The host-wide routes (settings, profiles, the shell) on the agent host of a conversation the app server started.
    'an agent server is running': async () => {
      await finishedRun();
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

/** The interactions of one provider's pact files: the files, how many interactions, which states. */
interface ProviderContracts {
  files: string[];
  expected: number;
  states: Set<string>;
}

/** Reads the pact files and groups them by provider (the app server's, the agent server's); a file for another provider is a problem. */
async function readContracts(files: string[], problems: string[]): Promise<Map<string, ProviderContracts>> {
  const byProvider = new Map<string, ProviderContracts>();
  for (const file of files) {
    let pact: PactFile;
    try {
      pact = JSON.parse(await readFile(file, 'utf8')) as PactFile;
    } catch (error) {
      problems.push(`cannot read the pact ${file}: ${(error as Error).message}`);
      continue;
    }
    const provider = pact.provider?.name ?? '';
    if (provider !== PROVIDER_NAME && provider !== AGENT_PROVIDER_NAME) {
      problems.push(
        `the pact ${file} is for the provider "${pact.provider?.name}", not "${PROVIDER_NAME}" or "${AGENT_PROVIDER_NAME}": its interactions would not be verified`,
      );
      continue;
    }
    const contracts = byProvider.get(provider) ?? { files: [], expected: 0, states: new Set<string>() };
    byProvider.set(provider, contracts);
    contracts.files.push(file);
    for (const interaction of pact.interactions ?? []) {
      contracts.expected++;
      for (const state of interaction.providerStates ?? []) contracts.states.add(state.name);
    }
  }
  return byProvider;
}

/** Longest difference shown for one failed interaction. */
const DIFFERENCE_CHARS = 240;

/** One line for a difference the verifier found (its text may span lines and carry colour codes). */
const oneLine = (text: string) => {
  const flat = text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colours of the verifier's output
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > DIFFERENCE_CHARS ? `${flat.slice(0, DIFFERENCE_CHARS)}…` : flat;
};

/** Readable lines from the verifier's error, which carries its JSON result as the message: each failed interaction with its first difference. */
function describeFailures(message: string): { lines: string[]; failed: number } {
  try {
    const result = JSON.parse(message) as {
      errors?: {
        interaction?: string;
        mismatch?: { message?: string; mismatches?: { mismatch?: string; path?: string; type?: string }[] };
      }[];
    };
    const lines = (result.errors ?? []).map((e) => {
      const name = (e.interaction ?? 'an interaction').replace(/^Verifying a pact between .+? and .+? /, '');
      // A wrong status says most (a 200 where the contract wants a 401): it comes first.
      const all = [...(e.mismatch?.mismatches ?? [])].sort(
        (x, y) => Number(/status/i.test(y.type ?? '')) - Number(/status/i.test(x.type ?? '')),
      );
      const first = all[0];
      const more = all.length > 1 ? `; and ${all.length - 1} more difference${all.length > 2 ? 's' : ''}` : '';
      const where = first?.path ? `${first.path}: ` : /status/i.test(first?.type ?? '') ? 'status: ' : '';
      const difference = first?.mismatch
        ? `${where}${oneLine(first.mismatch)}${more}`
        : e.mismatch?.message
          ? oneLine(e.mismatch.message)
          : '';
      return `interaction failed: ${name}${difference ? ` (${difference})` : ''}`;
    });
    if (lines.length > 0) return { lines, failed: lines.length };
  } catch {
    // Not the JSON result: report the message as it is.
  }
  return { lines: [`the verifier failed: ${message.split('\n')[0]}`], failed: 0 };
}

/** What a provider state's set-up threw, in one line: a refused request with its body, a wrong answer, or the message. */
function describeSetupError(error: unknown): string {
  if (error instanceof ApiError) return `${error.message} ${excerpt(error.body)}`;
  if (error instanceof WrongShapeError) return error.message;
  return oneLine((error as Error)?.message ?? String(error));
}

/**
 * Asks the provider for one legacy conversation, a route that always needs the session API key; a
 * 401 or 403 there would fail most interactions with one cause, so it is reported once, first.
 */
async function keyRefusal(client: ReturnType<typeof createClient>): Promise<string | undefined> {
  try {
    await client.listConversations({ limit: 1 });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return `the provider refused the session API key (${error.status} on GET /api/conversations): pass the key it expects with --api-key (or apiKey)`;
    }
  }
  return undefined;
}

/** The contract files that ship with fakehands. */
export async function defaultPactFiles(): Promise<string[]> {
  return (await readdir(CONTRACTS_DIR))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => `${CONTRACTS_DIR}${f}`);
}

/** What one run of Pact's verifier needs: the provider, where it answers, its states and how the key is sent. */
interface VerifierRun {
  provider: string;
  providerBaseUrl: string;
  contracts: ProviderContracts;
  setups: Record<string, StateSetup>;
  flags: { sendKey: boolean };
  /** The key the verifier sends with each interaction (read when it is sent). */
  key: () => string | undefined;
}

/** Runs Pact's verifier over one provider's contracts; the count of interactions sent and what failed. */
async function runVerifier(
  run: VerifierRun,
  options: VerifyOptions,
  client: Client,
  cleanup: Cleanup,
  onSent: () => void,
): Promise<{ verified: number; failed: number; problems: string[]; providerDied: boolean }> {
  const { Verifier } = await loadPact();
  const problems: string[] = [];
  let verified = 0;
  const handlerErrors: string[] = [];
  const stateHandlers = Object.fromEntries(
    Object.entries(run.setups).map(([name, setup]) => [
      name,
      {
        setup: async (params: unknown) => {
          try {
            return await setup(params as StateParams);
          } catch (error) {
            const message = `provider state "${name}" failed: ${describeSetupError(error)}`;
            // The same state failing the same way for several interactions is said once.
            if (!handlerErrors.includes(message)) handlerErrors.push(message);
            throw error;
          }
        },
        teardown: async () => {
          run.flags.sendKey = true;
          return undefined;
        },
      },
    ]),
  );
  const verifier = new Verifier({
    providerBaseUrl: run.providerBaseUrl,
    provider: run.provider,
    pactUrls: run.contracts.files,
    logLevel: 'warn',
    stateHandlers: stateHandlers as never,
    requestFilter: ((req: { path: string; headers: Record<string, string | string[] | undefined> }, _res: unknown, next: () => void) => {
      // The verifier's own state set-up calls pass through here too; only interactions count.
      if (req.path === STATE_SETUP_PATH) return next();
      verified++;
      onSent();
      delete req.headers['x-session-api-key'];
      const key = run.key();
      if (run.flags.sendKey && key !== undefined) req.headers['x-session-api-key'] = key;
      next();
    }) as never,
    beforeEach: () => cleanup.remember(client).catch(() => undefined),
    afterEach: () => cleanup.run(client).catch(() => undefined),
  });
  const watch =
    options.watch === false ? { died: new Promise<string>(() => undefined), stop: () => undefined } : watchProvider(options.baseUrl);
  const outcome = await Promise.race([
    verifier.verifyProvider().then(
      () => null,
      (error: unknown) => describeFailures((error as Error)?.message ?? String(error)),
    ),
    watch.died.then(
      (reason) => `the provider at ${options.baseUrl} stopped answering (${reason}) after ${verified} interaction(s): verification stopped`,
    ),
  ]);
  watch.stop();
  if (typeof outcome === 'string') {
    // The provider is gone: nothing to clean up, and the native verifier is left to the process's end.
    problems.push(...handlerErrors, outcome);
    return { verified, failed: 0, problems, providerDied: true };
  }
  if (outcome) problems.push(...outcome.lines);
  await cleanup.run(client).catch(() => undefined);
  problems.push(...handlerErrors);
  if (verified !== run.contracts.expected)
    problems.push(`${verified} ${run.provider} interactions were verified, but the contracts hold ${run.contracts.expected}`);
  return { verified, failed: outcome?.failed ?? 0, problems, providerDied: false };
}

/**
 * Asks the provider for the legacy conversation list without a key: a provider that answers it
 * does not check keys at all (a fakehands started with `--auth none`, as `npm start` does), and
 * every interaction that expects a 401 will fail for that one reason.
 */
async function keylessHint(baseUrl: string): Promise<string | undefined> {
  const keyless = createClient({ baseUrl });
  try {
    await keyless.listConversations({ limit: 1 });
  } catch {
    return undefined;
  }
  return (
    'the provider answered GET /api/conversations without a session API key: it does not ask for one, so the interactions that expect a 401 fail. ' +
    'Start it with keys checked (fakehands serve --api-key KEY, not --auth none as npm start does) and pass the same key with --api-key.'
  );
}

/**
 * Runs the Pact verifier against the implementation at `options.baseUrl`: the app server's
 * contracts there, then the agent server's on the agent host of the conversations its states start.
 * @example
 * const result = await verifyProvider({ baseUrl: 'http://127.0.0.1:3000', apiKey: 'fakehands-dev-key' })
 * if (!result.ok) process.exit(1)
 */
export async function verifyProvider(options: VerifyOptions): Promise<VerifyResult> {
  process.env.PACT_DO_NOT_TRACK = 'true';
  const report = options.report ?? ((line: string) => process.stdout.write(`${line}\n`));
  await loadPact();
  const problems: string[] = [];
  const files = options.pactFiles ?? (await defaultPactFiles());
  if (files.length === 0) problems.push('no pact files to verify');
  const byProvider = await readContracts(files, problems);
  const expected = [...byProvider.values()].reduce((sum, c) => sum + c.expected, 0);
  options.onProgress?.({ expected, verified: 0 });

  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const cleanup = new Cleanup();
  const flags = { sendKey: true };
  const timeoutMs = options.stateTimeoutMs ?? DEFAULT_STATE_TIMEOUT_MS;
  const forwarder = byProvider.has(AGENT_PROVIDER_NAME) ? await startForwarder() : null;
  const agentTarget: AgentTarget | null = forwarder ? { forwarder, key: undefined } : null;
  const runs: VerifierRun[] = [];
  const app = byProvider.get(PROVIDER_NAME);
  if (app)
    runs.push({
      provider: PROVIDER_NAME,
      providerBaseUrl: options.baseUrl,
      contracts: app,
      setups: stateSetups(client, timeoutMs, cleanup, flags),
      flags,
      key: () => options.apiKey,
    });
  const agent = byProvider.get(AGENT_PROVIDER_NAME);
  if (agent && agentTarget) {
    runs.push({
      provider: AGENT_PROVIDER_NAME,
      providerBaseUrl: agentTarget.forwarder.url,
      contracts: agent,
      setups: agentStateSetups(client, timeoutMs, cleanup, flags, agentTarget),
      flags,
      key: () => agentTarget.key,
    });
  }
  for (const run of runs) {
    for (const state of run.contracts.states) {
      if (!run.setups[state]) problems.push(`no state handler for the ${run.provider} provider state "${state}"`);
    }
  }

  const hints: string[] = [];
  let verified = 0;
  let failed = 0;
  try {
    if (problems.length === 0) {
      const refusal = await keyRefusal(client);
      if (refusal) problems.push(refusal);
      const hint = await keylessHint(options.baseUrl);
      if (hint) {
        hints.push(hint);
        report(`fakehands verify: HINT: ${hint}`);
      }
    }
    for (const run of problems.length === 0 ? runs : []) {
      // Counted whether or not anyone listens (an optional call's arguments are not evaluated when it is absent).
      const outcome = await runVerifier(run, options, client, cleanup, () => {
        verified += 1;
        options.onProgress?.({ expected, verified });
      });
      failed += outcome.failed;
      problems.push(...outcome.problems);
      if (outcome.providerDied) break;
    }
  } catch (error) {
    // Whatever went wrong, the run ends with its summary.
    problems.push(`verification stopped: ${describeSetupError(error)}`);
  } finally {
    await forwarder?.close().catch(() => undefined);
  }

  const ok = problems.length === 0;
  report('');
  report(`fakehands verify: ${options.baseUrl} against ${files.length} pact file(s)`);
  report(`  interactions in the contracts: ${expected}; verified: ${verified}; failed: ${failed}; passed: ${verified - failed}`);
  for (const problem of problems) report(`  FAILED: ${problem}`);
  for (const hint of hints) report(`  HINT: ${hint}`);
  report(ok ? `  OK: every interaction passed` : `  verification FAILED`);
  return { ok, expected, verified, failed, problems, hints };
}
