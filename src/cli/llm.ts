/**
 * `fakehands llm`: the scripted LLM alone on loopback, for a REAL agent server to call (its LLM's
 * `base_url` is the printed `/v1` URL). Scripts come from a JSON file (the agent-scripts format);
 * bad flags and files are one line and exit 2, like `serve`'s.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { startLlmServer, type LlmServer } from '../server/llm-server.js';
import { usage } from './options.js';

/** `fakehands llm --help`. */
export const LLM_HELP = [
  'Usage: fakehands llm [options]',
  '',
  '  --port N          Port (default 0: a free one) [FAKEHANDS_LLM_PORT]',
  '  --host H          Interface to bind (default 127.0.0.1)',
  '  --scripts FILE    Agent scripts (a JSON array) the model answers from; a message no script matches gets a plain answer',
  '  --latency-ms N    Wait before each answer (default 0)',
  '  --api-key KEY     Key every request must carry (Authorization: Bearer or x-api-key); default: any',
  '',
  'Prints the base URL for an agent\'s LLM ({"model": "openai/fakehands", "base_url": URL/v1, "api_key": "any"}).',
  'GET URL/_fakehands/llm/requests lists what it was asked; PUT URL/_fakehands/llm/scripts swaps the scripts.',
].join('\n');

/** A non-negative integer flag, or a usage error naming it. */
function intFlag(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > (name === 'port' ? 65535 : 600_000))
    throw usage(`invalid --${name} ${JSON.stringify(text)}: expected a whole number (see fakehands llm --help)`);
  return Number(text);
}

/** Starts `fakehands llm` from its arguments; resolves with the running server, or `'help'`. */
export async function runLlm(argv: string[], env: NodeJS.ProcessEnv): Promise<LlmServer | 'help'> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        scripts: { type: 'string' },
        'latency-ms': { type: 'string' },
        'api-key': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    throw usage(`${(error as Error).message.split('\n')[0]!.replace(/\.$/, '')} (see fakehands llm --help)`);
  }
  if (values.help) return 'help';
  let scripts: unknown = [];
  if (typeof values.scripts === 'string') {
    try {
      scripts = JSON.parse(await readFile(values.scripts, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON';
      throw usage(`invalid --scripts ${JSON.stringify(values.scripts)}: ${reason} (see fakehands llm --help)`);
    }
  }
  const port = intFlag('port', typeof values.port === 'string' ? values.port : env.FAKEHANDS_LLM_PORT, 0);
  const latencyMs = intFlag('latency-ms', typeof values['latency-ms'] === 'string' ? values['latency-ms'] : undefined, 0);
  try {
    return await startLlmServer({
      host: typeof values.host === 'string' ? values.host : '127.0.0.1',
      port,
      latencyMs,
      scripts: scripts as never,
      ...(typeof values['api-key'] === 'string' ? { apiKey: values['api-key'] } : {}),
    });
  } catch (error) {
    if (error instanceof TypeError) throw usage(`invalid --scripts: ${error.message.replace(/\n/g, ' ')}`);
    throw usage(`cannot listen: ${(error as Error).message}`);
  }
}
