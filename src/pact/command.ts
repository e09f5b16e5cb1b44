/**
 * The `fakehands verify` command: `--base-url URL` (or `FAKEHANDS_BASE_URL`), `--api-key KEY` (or
 * `FAKEHANDS_API_KEY`), `--pact FILE` (repeatable). It fails fast: a provider that does not answer
 * is exit 2 within seconds, one line, and so is a missing Pact (an optional peer dependency).
 */
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { FakehandsError } from '../domain/store/errors.js';
import { DEFAULT_API_KEY } from '../options.js';
import type { MessageVerifyProgress } from './messages.js';
import type { VerifyProgress } from './verify.js';

/** How long the provider has to answer the first request before verify gives up. */
const REACH_TIMEOUT_MS = 5000;

/** Help of `fakehands verify`. */
export const VERIFY_HELP = [
  'Usage: fakehands verify --base-url URL [--api-key KEY] [--pact FILE ...]',
  '',
  '  Verifies the Pact contracts (default: the ones shipped in contracts/) against the implementation',
  '  at URL, setting up each provider state through its public API and cleaning up after.',
  '  --base-url URL   the implementation under test [FAKEHANDS_BASE_URL]',
  `  --api-key KEY    sent as X-Session-API-Key, never stored in a contract (default ${DEFAULT_API_KEY},`,
  '                   the key fakehands serve expects by default) [FAKEHANDS_API_KEY]',
  '  --pact FILE      a pact file to verify instead of the shipped ones (repeatable)',
  '  --declared       the provider is a real OpenHands server: the failures fakehands declares for it',
  '                   (src/real/declared.ts, each with its reason) are listed as DECLARED and do not fail',
  "  --messages       verify the events socket's message contracts (contracts/messages/): start a",
  "                   conversation, read its socket with the sandbox's key, set up each provider",
  '                   state (bad frame, every tool, failing step, rejection, pause, interrupt) and',
  '                   match each event kind; within 90 s, the counts last (no Pact needed)',
  '  Needs @pact-foundation/pact (an optional peer dependency). Exit 0: every interaction passed;',
  '  1: an interaction failed; 2: bad options, Pact missing, or a provider that does not answer.',
].join('\n');

/** Options of `fakehands verify`. */
export interface VerifyConfig {
  baseUrl: string;
  apiKey?: string;
  pactFiles?: string[];
  /** Verify the events socket's message contracts (`messages.ts`) instead of the HTTP ones. */
  messages?: boolean;
  /** The provider is a real OpenHands server: its declared contract differences do not fail the run. */
  declared?: boolean;
}

const usage = (message: string) => new FakehandsError('usage', message);

/** Reads the options of `fakehands verify`; throws a `usage` error naming the bad one, or answers `help`. */
export function parseVerifyArgs(argv: string[], env: NodeJS.ProcessEnv): VerifyConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        pact: { type: 'string', multiple: true },
        messages: { type: 'boolean' },
        declared: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message);
    throw usage(`${unknown ? `unknown option ${unknown[1]}` : (error as Error).message.split('\n')[0]} (see fakehands verify --help)`);
  }
  if (parsed.values.help) return 'help';
  const baseUrl = parsed.values['base-url'] ?? env.FAKEHANDS_BASE_URL;
  if (!baseUrl) throw usage('verify needs --base-url URL (see fakehands verify --help)');
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw usage(`invalid --base-url ${JSON.stringify(baseUrl)}: expected an http(s) URL`);
  // The same default as `fakehands serve`, so the two commands with their defaults agree.
  const apiKey = parsed.values['api-key'] ?? env.FAKEHANDS_API_KEY ?? DEFAULT_API_KEY;
  for (const file of parsed.values.pact ?? []) {
    if (!existsSync(file) || !statSync(file).isFile())
      throw usage(`invalid --pact ${JSON.stringify(file)}: no such file (see fakehands verify --help)`);
  }
  return {
    baseUrl,
    apiKey,
    ...(parsed.values.pact ? { pactFiles: parsed.values.pact } : {}),
    ...(parsed.values.messages ? { messages: true } : {}),
    ...(parsed.values.declared ? { declared: true } : {}),
  };
}

/** Fails fast, with one line, when the provider does not answer at all. */
async function assertReachable(baseUrl: string): Promise<void> {
  try {
    const answer = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/sandbox-specs/search?limit=1`, {
      signal: AbortSignal.timeout(REACH_TIMEOUT_MS),
    });
    // That it answers is enough: its body is not read.
    await answer.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const reason =
      cause?.code === 'ECONNREFUSED'
        ? 'connection refused'
        : (error as Error).name === 'TimeoutError'
          ? `no answer within ${REACH_TIMEOUT_MS / 1000} s`
          : (cause?.code ?? (error as Error).message);
    throw new FakehandsError('unreachable', `cannot reach the provider at ${baseUrl}: ${reason}; start it first (or check --base-url)`);
  }
}

/** Set in the child process that `fakehands verify` supervises. */
const CHILD_ENV = 'FAKEHANDS_VERIFY_CHILD';
/** The key of the progress messages the child sends its supervisor. */
const PROGRESS_MESSAGE = 'fakehandsVerifyProgress';
/** The last line of a summary (`verifyProvider`'s verdict, or the message verification's counts). */
const VERDICT =
  /^ {2}(OK: every interaction passed(?:, but for \d+ declared)?|verification FAILED|interactions: \d+; passed: \d+; failed: \d+; frames received: \d+)$/m;
/** How long past its own bound a message verification may run before its supervisor ends it. */
const MESSAGES_GRACE_MS = 15_000;

/**
 * Runs `fakehands verify` with `argv` (after the command name); resolves with the exit code. With
 * `supervise` (what the command does), the verifier runs in a child process of `script` while this
 * one watches the provider: when the provider dies, the child (and Pact's native verifier, which
 * retries for ever and cannot be stopped otherwise) is killed, and the summary still ends the run.
 */
export async function runVerify(
  argv: string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
  supervise?: { script: string; writeError?: (text: string) => void },
): Promise<number> {
  const config = parseVerifyArgs(argv, env);
  if (config === 'help') {
    write(`${VERIFY_HELP}\n`);
    return 0;
  }
  await assertReachable(config.baseUrl);
  if (supervise && env[CHILD_ENV] !== '1') {
    // What fails fast fails here, once, before a child starts: Pact missing is exit 2 and one line
    // (found missing, not loaded: only the child runs it; the message contracts need no Pact).
    if (!config.messages) (await import('./verify.js')).assertPactInstalled();
    return superviseVerify(config, argv, env, write, supervise.writeError ?? write, supervise.script);
  }
  const child = env[CHILD_ENV] === '1';
  if (config.messages) {
    const sendProgress =
      child && process.send
        ? (progress: MessageVerifyProgress) => {
            process.send?.({
              [PROGRESS_MESSAGE]: { expected: progress.expected, verified: progress.passed + progress.failed, passed: progress.passed },
            });
          }
        : undefined;
    return (await import('./messages.js')).runMessageVerify(config, write, sendProgress);
  }
  const { verifyProvider } = await import('./verify.js');
  // The supervising process keeps the count, to say how far the run got should this one end without its summary.
  const onProgress =
    child && process.send
      ? (progress: VerifyProgress) => {
          process.send?.({ [PROGRESS_MESSAGE]: progress });
        }
      : undefined;
  const declared = config.declared ? (await import('../real/declared.js')).declaredContractFailure : null;
  const { declared: _declared, ...options } = config;
  const result = await verifyProvider({
    ...options,
    ...(declared ? { declared: (failure: string) => declared(failure)?.reason ?? null } : {}),
    report: (line) => write(`${line}\n`),
    watch: !child,
    ...(onProgress ? { onProgress } : {}),
  });
  return result.ok ? 0 : 1;
}

/** Runs the verifier in a child process and watches the provider; the exit code of the run. */
async function superviseVerify(
  config: VerifyConfig,
  argv: string[],
  env: NodeJS.ProcessEnv,
  write: (text: string) => void,
  writeError: (text: string) => void,
  script: string,
): Promise<number> {
  const { spawn } = await import('node:child_process');
  const { watchProvider } = await import('./verify.js');
  const child = spawn(process.execPath, [script, 'verify', ...argv], {
    env: { ...env, [CHILD_ENV]: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let summarized = false;
  let tail = '';
  let progress: VerifyProgress | null = null;
  child.on('message', (message: unknown) => {
    const sent = (message as Record<string, VerifyProgress> | null)?.[PROGRESS_MESSAGE];
    if (sent && typeof sent.expected === 'number' && typeof sent.verified === 'number') progress = sent;
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = `${tail}${text}`.slice(-200);
    if (VERDICT.test(tail)) summarized = true;
    write(text);
  });
  child.stderr!.on('data', (chunk: Buffer) => writeError(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const watch = watchProvider(config.baseUrl);
  // The message verification is bounded in time: past its bound and a grace, its supervisor ends it.
  const bound = config.messages ? (await import('./messages.js')).MESSAGE_VERIFY_TIMEOUT_MS + MESSAGES_GRACE_MS : null;
  let boundTimer: NodeJS.Timeout | undefined;
  const overdue = new Promise<{ overdue: number }>((resolve) => {
    if (bound !== null) boundTimer = setTimeout(() => resolve({ overdue: bound }), bound);
  });
  const outcome = await Promise.race([exited.then((code) => ({ code })), watch.died.then((reason) => ({ reason })), overdue]);
  clearTimeout(boundTimer);
  watch.stop();
  if ('code' in outcome && summarized) return outcome.code ?? 1;
  child.kill('SIGKILL');
  await exited;
  const gone =
    'overdue' in outcome
      ? null
      : 'reason' in outcome
        ? outcome.reason
        : await assertReachable(config.baseUrl).then(
            () => null,
            (error: Error) => error.message.replace(/^.*?: /, '').replace(/; start it.*$/, ''),
          );
  const why =
    'overdue' in outcome
      ? `the verification gave no summary within ${outcome.overdue / 1000} s: stopped`
      : gone !== null
        ? `the provider at ${config.baseUrl} stopped answering (${gone}): verification stopped`
        : `the verifier ended without a summary (exit ${'code' in outcome ? outcome.code : 'killed'})`;
  const seen = progress as VerifyProgress | null;
  if (config.messages) {
    // The counts last, as the verification's own summary has them.
    const passed = (seen as (VerifyProgress & { passed?: number }) | null)?.passed ?? 0;
    write(`\nfakehands verify --messages: ${config.baseUrl}\n  FAILED: ${why}\n`);
    write(`${(await import('./messages.js')).messageCounts(seen?.expected ?? 0, passed, (seen?.expected ?? 0) - passed, null)}\n`);
    return 1;
  }
  const counts = seen
    ? `interactions in the contracts: ${seen.expected}; verified: ${seen.verified}; failed: unknown (the run ended before its summary)`
    : 'interactions verified: none (the run ended before the first)';
  write(`\nfakehands verify: ${config.baseUrl}\n  ${counts}\n  FAILED: ${why}\n  verification FAILED\n`);
  return 1;
}
