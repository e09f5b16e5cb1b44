/**
 * `fakehands real`: the real OpenHands servers on this machine. `install` makes their pinned virtual
 * environments (once; a missing Python or PyPI is one line and exit 3, which callers such as
 * `npm run test:real` take as "skip"); `start` installs if needed, then runs the scripted LLM, the
 * real agent server and the real app server on loopback until a signal, printing where each is and
 * the LLM settings that point an agent at the scripted LLM.
 */
import { readFile } from 'node:fs/promises';
import { startLlmServer } from '../server/llm-server.js';
import { install, ProvisionError, REAL_PACKAGES, type RealServerName } from './provision.js';
import { REAL_SESSION_KEY, startRealAgentServer, startRealAppServer, useScriptedLlm } from './servers.js';

/** The exit code of a machine that cannot run the real servers (no Python ≥ 3.12, no PyPI). */
export const EXIT_UNAVAILABLE = 3;

/**
 * What the scripted LLM answers without `--scripts`: a terminal command, then finish (a tool call, so
 * confirmation mode has an action to confirm, as `fakehands verify`'s provider states expect).
 */
const DEFAULT_REAL_SCRIPTS = [{ steps: [{ terminal: { command: 'echo hello from fakehands' } }, { finish: 'Done.' }] }];

/** `fakehands real --help`. */
export const REAL_HELP = [
  'Usage: fakehands real install [agent-server|app-server]',
  '       fakehands real start [--scripts FILE]',
  '',
  `  install   Installs the pinned real servers (${Object.values(REAL_PACKAGES)
    .map(({ pkg, version }) => `${pkg}==${version}`)
    .join(', ')}) into cached virtual environments`,
  '            (~/.cache/fakehands/real, or FAKEHANDS_REAL_CACHE); needs Python >= 3.12 (FAKEHANDS_PYTHON) and PyPI',
  '  start     Starts the scripted LLM (answering from --scripts), the real agent server and the real app server on loopback, and prints where; Ctrl-C stops them all',
].join('\n');

/** Runs `fakehands real ARGS`; resolves with an exit code, or `null` once `start` is serving. */
export async function runReal(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number | null> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === 'help') {
    out(`${REAL_HELP}\n`);
    return verb === undefined ? 2 : 0;
  }
  // `fakehands real start --help` prints the help as every command's --help does: it never starts the servers.
  if (rest.includes('--help') || rest.includes('-h')) {
    out(`${REAL_HELP}\n`);
    return 0;
  }
  const log = (line: string) => err(`${line}\n`);
  try {
    if (verb === 'install') {
      const names = (rest.length > 0 ? rest : ['agent-server', 'app-server']) as RealServerName[];
      for (const name of names) {
        if (!(name in REAL_PACKAGES)) {
          err(`fakehands real install: unknown server "${name}" (agent-server or app-server)\n`);
          return 2;
        }
      }
      for (const dir of await Promise.all(names.map((name) => install(name, { log })))) out(`${dir}\n`);
      return 0;
    }
    if (verb === 'start') {
      const extra = rest[0] === '--scripts' ? rest.slice(2) : rest;
      if (extra.length > 0) {
        err(`fakehands real start: unknown option "${extra[0]}" (see fakehands real --help)\n`);
        return 2;
      }
      const scriptsAt = rest[0] === '--scripts' ? rest[1] : undefined;
      const scripts = scriptsAt === undefined ? DEFAULT_REAL_SCRIPTS : (JSON.parse(await readFile(scriptsAt, 'utf8')) as never[]);
      const llm = await startLlmServer({ scripts });
      const [agent, app] = await Promise.all([startRealAgentServer({ log }), startRealAppServer({ log })]);
      await useScriptedLlm(app, llm.url);
      out(`scripted LLM: ${llm.url}/v1\n`);
      out(
        `real agent server ${REAL_PACKAGES['agent-server'].version}: ${agent.url} (X-Session-API-Key: ${REAL_SESSION_KEY}; pid ${agent.pid})\n`,
      );
      out(`real app server ${REAL_PACKAGES['app-server'].version}: ${app.url} (X-Session-API-Key: ${REAL_SESSION_KEY}; pid ${app.pid})\n`);
      out(`an agent's LLM: ${JSON.stringify({ model: 'openai/fakehands', base_url: `${llm.url}/v1`, api_key: 'any', num_retries: 0 })}\n`);
      const stop = () => void Promise.all([agent.stop(), app.stop(), llm.close()]).then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return null;
    }
    err(`fakehands real: unknown subcommand "${verb}" (see fakehands real --help)\n`);
    return 2;
  } catch (error) {
    if (error instanceof ProvisionError) {
      err(`fakehands real: ${error.message}\n`);
      return EXIT_UNAVAILABLE;
    }
    throw error;
  }
}
