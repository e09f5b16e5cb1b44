/**
 * The `fakehands verify` command: `--base-url URL` (or `FAKEHANDS_BASE_URL`), `--api-key KEY` (or
 * `FAKEHANDS_API_KEY`), `--pact FILE` (repeatable). It fails fast: a provider that does not answer
 * is exit 2 within seconds, one line, and so is a missing Pact (an optional peer dependency).
 */
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { FakehandsError } from '../domain/errors.js';
import { DEFAULT_API_KEY } from '../options.js';

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
  '  Needs @pact-foundation/pact (an optional peer dependency). Exit 0: every interaction passed;',
  '  1: an interaction failed; 2: bad options, Pact missing, or a provider that does not answer.',
].join('\n');

/** Options of `fakehands verify`. */
export interface VerifyConfig {
  baseUrl: string;
  apiKey?: string;
  pactFiles?: string[];
}

const usage = (message: string) => new FakehandsError('usage', message);

/** Reads the options of `fakehands verify`; throws a `usage` error naming the bad one, or answers `help`. */
export function parseVerifyArgs(argv: string[], env: NodeJS.ProcessEnv): VerifyConfig | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { 'base-url': { type: 'string' }, 'api-key': { type: 'string' }, pact: { type: 'string', multiple: true }, help: { type: 'boolean' } },
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
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw usage(`invalid --base-url ${JSON.stringify(baseUrl)}: expected an http(s) URL`);
  // The same default as `fakehands serve`, so the two commands with their defaults agree.
  const apiKey = parsed.values['api-key'] ?? env.FAKEHANDS_API_KEY ?? DEFAULT_API_KEY;
  for (const file of parsed.values.pact ?? []) {
    if (!existsSync(file) || !statSync(file).isFile()) throw usage(`invalid --pact ${JSON.stringify(file)}: no such file (see fakehands verify --help)`);
  }
  return { baseUrl, apiKey, ...(parsed.values.pact ? { pactFiles: parsed.values.pact } : {}) };
}

/** Fails fast, with one line, when the provider does not answer at all. */
async function assertReachable(baseUrl: string): Promise<void> {
  try {
    await fetch(`${baseUrl.replace(/\/+$/, '')}/api/v1/sandbox-specs/search?limit=1`, { signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    const reason = cause?.code === 'ECONNREFUSED' ? 'connection refused' : (error as Error).name === 'TimeoutError' ? `no answer within ${REACH_TIMEOUT_MS / 1000} s` : cause?.code ?? (error as Error).message;
    throw new FakehandsError('unreachable', `cannot reach the provider at ${baseUrl}: ${reason}; start it first (or check --base-url)`);
  }
}

/** Runs `fakehands verify` with `argv` (after the command name); resolves with the exit code. */
export async function runVerify(argv: string[], env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<number> {
  const config = parseVerifyArgs(argv, env);
  if (config === 'help') {
    write(`${VERIFY_HELP}\n`);
    return 0;
  }
  await assertReachable(config.baseUrl);
  const { verifyProvider } = await import('./verify.js');
  const result = await verifyProvider({ ...config, report: (line) => write(`${line}\n`) });
  return result.ok ? 0 : 1;
}
