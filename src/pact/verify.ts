/**
 * Verifies the Pact contracts in `contracts/` against any implementation of the service at a
 * base URL. Provider states are set up through the public API only (so they work against a real
 * server) and what they create is cleaned up. The run fails loudly where pact-js is quiet: a
 * failing or missing state handler, or fewer interactions verified than the contracts hold.
 */
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ApiError, createClient, type Client } from '../client/index.js';
import { FakehandsError } from '../domain/store/errors.js';
import { packageFile } from '../package-root.js';
import { startForwarder } from './forwarder.js';
import { watchProvider } from './provider-watch.js';
import { excerpt, WrongShapeError } from './provider-answers.js';
import { describeFailures, oneLine } from './failures.js';
import {
  agentStateSetups,
  Cleanup,
  providerClockNudge,
  stateSetups,
  type AgentTarget,
  type StateParams,
  type StateSetup,
} from './provider-states.js';

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
/** Where pact-js's proxy receives provider state calls (they pass the request filter too). */
const STATE_SETUP_PATH = '/_pactSetup';
export { watchProvider } from './provider-watch.js';
/** Pact's absence: one clear line and the command that fixes it. */
const PACT_MISSING =
  'fakehands verify needs Pact, an optional peer dependency; install it with: npm install --save-dev @pact-foundation/pact@^16';
const missingPact = () => new FakehandsError('missing_dependency', PACT_MISSING);

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
  /** Failures that do not fail the run: the reason a failure line is declared, or `null` (`--declared`: the real servers' declared differences). */
  declared?: (failure: string) => string | null;
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
  // A fakehands provider's clock moves while the states wait (its realistic timings need no real time); a real server's does not.
  const wait = {
    timeoutMs: options.stateTimeoutMs ?? DEFAULT_STATE_TIMEOUT_MS,
    nudge: await providerClockNudge(options.baseUrl, options.apiKey),
  };
  const forwarder = byProvider.has(AGENT_PROVIDER_NAME) ? await startForwarder() : null;
  const agentTarget: AgentTarget | null = forwarder ? { forwarder, key: undefined } : null;
  const runs: VerifierRun[] = [];
  const app = byProvider.get(PROVIDER_NAME);
  if (app)
    runs.push({
      provider: PROVIDER_NAME,
      providerBaseUrl: options.baseUrl,
      contracts: app,
      setups: stateSetups(client, wait, cleanup, flags),
      flags,
      key: () => options.apiKey,
    });
  const agent = byProvider.get(AGENT_PROVIDER_NAME);
  if (agent && agentTarget) {
    runs.push({
      provider: AGENT_PROVIDER_NAME,
      providerBaseUrl: agentTarget.forwarder.url,
      contracts: agent,
      setups: agentStateSetups(client, wait, cleanup, flags, agentTarget),
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

  const declaredLines: string[] = [];
  if (options.declared) {
    for (let i = problems.length - 1; i >= 0; i--) {
      const reason = options.declared(problems[i]!);
      if (reason !== null) declaredLines.unshift(`${problems.splice(i, 1)[0]!} [declared: ${reason}]`);
    }
  }
  const ok = problems.length === 0;
  report('');
  report(`fakehands verify: ${options.baseUrl} against ${files.length} pact file(s)`);
  report(`  interactions in the contracts: ${expected}; verified: ${verified}; failed: ${failed}; passed: ${verified - failed}`);
  for (const line of declaredLines) report(`  DECLARED: ${line}`);
  for (const problem of problems) report(`  FAILED: ${problem}`);
  for (const hint of hints) report(`  HINT: ${hint}`);
  report(
    ok
      ? declaredLines.length > 0
        ? `  OK: every interaction passed, but for ${declaredLines.length} declared`
        : `  OK: every interaction passed`
      : `  verification FAILED`,
  );
  return { ok, expected, verified, failed, problems, hints };
}
