/**
 * The `fakehands` command: `fakehands serve` runs the whole API on localhost for frontend
 * development. Every option can also come from an environment variable (`FAKEHANDS_PORT`, ...).
 * Its options are `cli/options.ts`'s, its config file `cli/config-file.ts`'s, its help
 * `cli/help.ts`'s, and serving `cli/serve.ts`'s.
 */
import { CONFIGURATION_ERROR_CODES, FakehandsError } from './domain/store/errors.js';
import { readConfigFile } from './cli/config-file.js';
import { helpText, serveHelpText } from './cli/help.js';
import { EXIT_USAGE, VERSION, parseServeArgs } from './cli/options.js';
import { serve } from './cli/serve.js';

export { ConfigFile, readConfigFile } from './cli/config-file.js';
export {
  CONFIG_FILE,
  DEFAULT_AGENT_PORT,
  DEFAULT_HOST,
  DEFAULT_PORT,
  EXIT_USAGE,
  ServeOptions,
  corsPolicy,
  parseServeArgs,
  type LoadedConfigFile,
  type ServeConfig,
} from './cli/options.js';
export { isLoopback, serve } from './cli/serve.js';

/** Where a command reads its folder and writes its output: the process's own in the binary, a test's buffers in-process. */
export interface CommandIo {
  /** Writes to standard output. */
  stdout(text: string): void;
  /** Writes to standard error. */
  stderr(text: string): void;
  /** The folder `fakehands.config.json` is looked for in. */
  cwd: string;
  /** The script that runs the command (`fakehands verify` starts its verifier as a child of it). */
  script: string;
}

/**
 * Runs the command `argv` names; resolves with its exit code once it ends, or with null once
 * `serve` (or `canvas`) listens: the process then runs until a signal. Bad input is one line on
 * stderr and exit 2 (1 for any other error); nothing here exits the process, only `main` does.
 */
export async function runCommand(argv: string[], env: NodeJS.ProcessEnv, io: CommandIo): Promise<number | null> {
  try {
    if (argv[0] === 'verify') {
      const { runVerify } = await import('./pact/command.js');
      return await runVerify(argv.slice(1), env, io.stdout, { script: io.script, writeError: io.stderr });
    }
    if (argv[0] === 'canvas') {
      const { runCanvas } = await import('./canvas/command.js');
      return (await runCanvas(argv.slice(1), env, io.stdout)) === 'help' ? 0 : null;
    }
    if (argv[0] === 'real') {
      const { runReal } = await import('./real/command.js');
      return await runReal(argv.slice(1), io.stdout, io.stderr);
    }
    if (argv[0] === 'llm') {
      const { runLlm, LLM_HELP } = await import('./cli/llm.js');
      const started = await runLlm(argv.slice(1), env);
      if (started === 'help') {
        io.stdout(`${LLM_HELP}\n`);
        return 0;
      }
      io.stdout(`scripted LLM listening on ${started.url}/v1 (requests: ${started.url}/_fakehands/llm/requests)\n`);
      const stop = () => void started.close().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      return null;
    }
    if (argv[0] === 'record') {
      const { runRecord } = await import('./record/command.js');
      return await runRecord(argv.slice(1), io.stdout, io.stderr);
    }
    if (argv[0] === 'drift') {
      const { runDrift } = await import('./drift/command.js');
      return await runDrift(argv.slice(1), io.stdout);
    }
    const wantsHelp = argv.includes('--help') || argv.includes('--version');
    const file = wantsHelp ? null : readConfigFile(io.cwd);
    const config = parseServeArgs(argv, env, file);
    if (config === 'help' || config === 'serve-help' || config === 'version') {
      io.stdout(`${config === 'help' ? helpText() : config === 'serve-help' ? serveHelpText() : VERSION}\n`);
      return 0;
    }
    await serve(config, file?.path ?? null);
    return null;
  } catch (error) {
    const message = (error as Error).message;
    io.stderr(`fakehands: ${message.replace(/\n/g, ' ')}\n`);
    return error instanceof FakehandsError && CONFIGURATION_ERROR_CODES.has(error.code) ? EXIT_USAGE : 1;
  }
}

/**
 * Exits with `code` once everything written to stdout and stderr has gone out: on a pipe, Node
 * writes asynchronously, and `process.exit` at once cut a long drift report short (its summary,
 * written last, was lost).
 */
async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((done) => stream.write('', () => done()))));
  return process.exit(code);
}

/** Entry point of the `fakehands` binary: runs the command, and exits with its code unless it serves. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const code = await runCommand(argv, env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    script: process.argv[1]!,
  });
  if (code !== null) await exitAfterOutput(code);
}
