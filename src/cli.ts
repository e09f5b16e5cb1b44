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

/**
 * Exits with `code` once everything written to stdout and stderr has gone out: on a pipe, Node
 * writes asynchronously, and `process.exit` at once cut a long drift report short (its summary,
 * written last, was lost).
 */
async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((done) => stream.write('', () => done()))));
  return process.exit(code);
}

/** Entry point of the `fakehands` binary. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    if (argv[0] === 'verify') {
      const { runVerify } = await import('./pact/command.js');
      return await exitAfterOutput(
        await runVerify(argv.slice(1), env, (text) => process.stdout.write(text), {
          script: process.argv[1]!,
          writeError: (text) => process.stderr.write(text),
        }),
      );
    }
    if (argv[0] === 'canvas') {
      const { runCanvas } = await import('./canvas/command.js');
      return await runCanvas(argv.slice(1), env);
    }
    if (argv[0] === 'drift') {
      const { runDrift } = await import('./drift/command.js');
      return await exitAfterOutput(await runDrift(argv.slice(1), (text) => process.stdout.write(text)));
    }
    const wantsHelp = argv.includes('--help') || argv.includes('--version');
    const file = wantsHelp ? null : readConfigFile(process.cwd());
    const config = parseServeArgs(argv, env, file);
    if (config === 'help') return void process.stdout.write(`${helpText()}\n`);
    if (config === 'serve-help') return void process.stdout.write(`${serveHelpText()}\n`);
    if (config === 'version') return void process.stdout.write(`${VERSION}\n`);
    await serve(config, file?.path ?? null);
  } catch (error) {
    const message = (error as Error).message;
    process.stderr.write(`fakehands: ${message.replace(/\n/g, ' ')}\n`);
    process.exit(error instanceof FakehandsError && CONFIGURATION_ERROR_CODES.has(error.code) ? EXIT_USAGE : 1);
  }
}
