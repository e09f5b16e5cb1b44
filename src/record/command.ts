/**
 * `fakehands record`: a recording proxy in front of a real app server or agent server. Point the
 * web app (or any client) at the address it prints as you would at the fake; it forwards REST and
 * WebSockets unchanged and writes the session into `--out DIR` (`recorder.ts`), until Ctrl-C.
 * `--compare` also asks an in-process fake every request and reports each difference
 * (`compare.ts`). Bad flags are one line and exit 2, like `serve`'s.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RECORDING_HAR } from '../domain/recording/har.js';
import { usage } from '../cli/options.js';
import { DEFAULT_MAX_BYTES, startRecorder, type Recorder } from './recorder.js';

/** The smallest `--max-bytes`. */
const MIN_MAX_BYTES = 4096;

/** `fakehands record --help`. */
export const RECORD_HELP = [
  'Usage: fakehands record --target URL --out DIR [options]',
  '',
  '  --target URL        The real app server or agent server to record (http or https)',
  '  --out DIR           Folder the recording is written to (made when missing; one holding a recording is refused)',
  '  --port N            Port of the proxy (default 0: a free one; the address is printed)',
  '  --host H            Interface to bind (default 127.0.0.1)',
  '  --allowed-host N    Host names served besides loopback ones: NAME[,NAME] or * (others get 421, against DNS rebinding)',
  `  --max-bytes N       Most bytes the recording holds (default ${DEFAULT_MAX_BYTES}, 256 MiB); past it bodies, then exchanges, are no longer recorded, and it says so`,
  '  --compare           Also ask an in-process fake every request and open every event socket on it; print each difference (answers, socket events) and write DIR/differences.jsonl',
  "  --agent-scripts F   The agent scripts the compared fake plays (a JSON array), as the real agent's scripted LLM does",
  '',
  'Writes DIR/recording.har (HAR 1.2, every exchange and socket frame, secrets masked) and each',
  "conversation's events as the agent server exports them (DIR/conversations/<id>.zip).",
  'Serve it offline with `fakehands serve --from-recording DIR`. Ctrl-C stops and finishes the files.',
].join('\n');

/** The options of `fakehands record`. */
export interface RecordConfig {
  target: URL;
  out: string;
  port: number;
  host: string;
  allowedHosts: string[];
  maxBytes: number;
  compare: boolean;
  agentScripts: unknown[];
}

/** A whole number flag in `[min, max]`, or a usage error naming it. */
function intFlag(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
    throw usage(`invalid --${name} ${JSON.stringify(text)}: expected a whole number from ${min} to ${max} (see fakehands record --help)`);
  return Number(text);
}

/** Reads `fakehands record`'s flags; `'help'` for `--help`. Throws a usage error naming the bad one. */
export async function parseRecordArgs(argv: string[]): Promise<RecordConfig | 'help'> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        target: { type: 'string' },
        out: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'allowed-host': { type: 'string' },
        'max-bytes': { type: 'string' },
        compare: { type: 'boolean' },
        'agent-scripts': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message);
    throw usage(`${unknown ? `unknown option ${unknown[1]}` : message.split('\n')[0]!.replace(/\.$/, '')} (see fakehands record --help)`);
  }
  if (values.help) return 'help';
  const target = typeof values.target === 'string' ? values.target : undefined;
  if (target === undefined) throw usage('--target URL is required: the server to record (see fakehands record --help)');
  const url = URL.canParse(target) ? new URL(target) : null;
  if (!url || !/^https?:$/.test(url.protocol))
    throw usage(`invalid --target ${JSON.stringify(target)}: expected an http or https URL (see fakehands record --help)`);
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (!out) throw usage('--out DIR is required: the folder the recording is written to (see fakehands record --help)');
  if (await stat(join(out, RECORDING_HAR)).catch(() => null))
    throw usage(`invalid --out ${JSON.stringify(out)}: it holds a recording already; pick another folder (see fakehands record --help)`);
  let agentScripts: unknown[] = [];
  const scripts = values['agent-scripts'];
  if (typeof scripts === 'string') {
    let data: unknown;
    try {
      data = JSON.parse(await readFile(scripts, 'utf8'));
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON';
      throw usage(`invalid --agent-scripts ${JSON.stringify(scripts)}: ${reason} (see fakehands record --help)`);
    }
    if (!Array.isArray(data))
      throw usage(`invalid --agent-scripts ${JSON.stringify(scripts)}: expected a JSON array (see fakehands record --help)`);
    agentScripts = data;
  }
  return {
    target: url,
    out,
    port: intFlag('port', values.port as string | undefined, 0, 0, 65535),
    host: typeof values.host === 'string' ? values.host : '127.0.0.1',
    allowedHosts:
      typeof values['allowed-host'] === 'string'
        ? values['allowed-host']
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean)
        : [],
    maxBytes: intFlag('max-bytes', values['max-bytes'] as string | undefined, DEFAULT_MAX_BYTES, MIN_MAX_BYTES, Number.MAX_SAFE_INTEGER),
    compare: values.compare === true,
    agentScripts,
  };
}

/**
 * Starts recording as `config` says, printing where; resolves with the recorder.
 * @example
 * const recorder = await record(config, (line) => process.stdout.write(line), (line) => process.stderr.write(line))
 */
export async function record(config: RecordConfig, out: (text: string) => void, err: (text: string) => void): Promise<Recorder> {
  let compare: Awaited<ReturnType<typeof import('./compare.js').liveCompare>> | undefined;
  let kind: string | null = null;
  if (config.compare) {
    const { liveCompare, serverKind } = await import('./compare.js');
    kind = await serverKind(config.target);
    compare = await liveCompare({
      kind: kind as 'agent' | 'app' | null,
      agentScripts: config.agentScripts,
      out: config.out,
      print: (line) => out(`${line}\n`),
    });
  }
  let recorder: Recorder;
  try {
    recorder = await startRecorder({
      target: config.target,
      out: config.out,
      host: config.host,
      port: config.port,
      allowedHosts: config.allowedHosts,
      maxBytes: config.maxBytes,
      note: (line) => err(`${line}\n`),
      ...(compare ? { compare } : {}),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw usage(`port ${config.port} on ${config.host} is in use; pass --port 0 for a free one`);
    if (code === 'EEXIST') throw usage(`invalid --out ${JSON.stringify(config.out)}: it holds a recording already; pick another folder`);
    throw usage(`cannot record into ${JSON.stringify(config.out)} on ${config.host}:${config.port} (${code ?? (error as Error).message})`);
  }
  out(`fakehands record listening on ${recorder.url} (forwarding to ${config.target.origin})\n`);
  out(`recording into ${config.out} (${RECORDING_HAR}, conversations/<id>.zip; at most ${config.maxBytes} bytes; secrets masked)\n`);
  if (compare)
    out(
      `comparing every answer with an in-process fake (${kind === null ? 'by path' : `${kind} server`}); differences in ${join(config.out, 'differences.jsonl')}\n`,
    );
  return recorder;
}

/** Runs `fakehands record ARGS`: the exit code of `--help`, or `null` once it records (until a signal). */
export async function runRecord(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number | null> {
  const config = await parseRecordArgs(argv);
  if (config === 'help') {
    out(`${RECORD_HELP}\n`);
    return 0;
  }
  const recorder = await record(config, out, err);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void recorder.close().then(
      (summary) => {
        out(`${summary}\n`);
        process.exit(0);
      },
      (error: unknown) => {
        err(`fakehands record: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  return null;
}
