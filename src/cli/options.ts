/**
 * The options of `fakehands serve`: every flag with its environment variable and help
 * (`SERVE_FLAGS`), the schema they are checked against (`ServeOptions`, the library's own
 * `FakeOptions` plus what only a server has), and reading them from flags, environment variables
 * and the config file's values, in that order (`parseServeArgs`).
 */
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { FakehandsError } from '../domain/store/errors.js';
import { DEFAULT_API_KEY, FakeOptions } from '../options.js';
import { packageVersion } from '../package-root.js';
import type { CorsPolicy } from '../server/cors.js';

/** Exit code of a bad option, a bad fixture or a port in use. */
export const EXIT_USAGE = 2;
/** Default port of `fakehands serve`. */
export const DEFAULT_PORT = 3000;
/** Default port of the agent host: the real agent server's (its sandbox spec runs it with `--port 8000`); not 3001, the OpenHands web app's dev server's. */
export const DEFAULT_AGENT_PORT = 8000;
/** Default host: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** A command-line problem: the CLI prints its message and exits with code 2. */
export const usage = (message: string) => new FakehandsError('usage', message);

/** The package's version (`fakehands --version`). */
export const VERSION = packageVersion();

/** How a flag's text becomes the option's value (before the shared schema validates it). */
type Coerce = (text: string) => unknown;
const asInt: Coerce = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text);
const asLatency: Coerce = (text) => {
  const match = /^(\d+)-(\d+)$/.exec(text.trim());
  return match ? { min: Number(match[1]), max: Number(match[2]) } : text;
};

/** Every option of `fakehands serve`: its key in `ServeOptions`, environment variable, help, and how its text is read. */
export const SERVE_FLAGS = {
  host: {
    key: 'host',
    type: 'string',
    env: 'FAKEHANDS_HOST',
    help: `Interface to bind (default ${DEFAULT_HOST}; anything else prints a warning)`,
  },
  port: { key: 'port', type: 'string', env: 'FAKEHANDS_PORT', help: `Port (default ${DEFAULT_PORT}; 0 picks a free one)`, coerce: asInt },
  'agent-port': {
    key: 'agentPort',
    type: 'string',
    env: 'FAKEHANDS_AGENT_PORT',
    help: `Port of the agent server behind conversation_url (REST and /sockets/events/{id}; default ${DEFAULT_AGENT_PORT}, the real agent server's, or a free one with --port 0; 0 picks a free one; a port in use is an error, never moved)`,
    coerce: asInt,
  },
  'llm-port': {
    key: 'llmPort',
    type: 'string',
    env: 'FAKEHANDS_LLM_PORT',
    help: "Also serve the scripted LLM on this port (OpenAI Chat Completions and Responses, Anthropic Messages, answering from --agent-scripts; 0 picks a free one): a real agent server's base_url is its /v1",
    coerce: asInt,
  },
  'api-key': {
    key: 'apiKey',
    type: 'string',
    env: 'FAKEHANDS_API_KEY',
    help: `Key expected in X-Session-API-Key (default ${DEFAULT_API_KEY})`,
  },
  auth: {
    key: 'auth',
    type: 'string',
    env: 'FAKEHANDS_AUTH',
    help: 'legacy (default: non-/api/v1 routes only, as the real server with a session key) | all | none (for the OpenHands web client, which sends no key)',
  },
  seed: {
    key: 'seed',
    type: 'string',
    env: 'FAKEHANDS_SEED',
    help: 'Seed of generated ids, names, keys and latency (default 1)',
    coerce: asInt,
  },
  fixture: {
    key: 'fixture',
    type: 'string',
    env: 'FAKEHANDS_FIXTURE',
    help: 'default | empty | PATH to a JSON fixture (default: default)',
  },
  timings: { key: 'timings', type: 'string', env: 'FAKEHANDS_TIMINGS', help: 'realistic (default: sandbox start 2 s) | instant' },
  latency: {
    key: 'latency',
    type: 'string',
    env: 'FAKEHANDS_LATENCY',
    help: 'Extra latency MIN-MAX in ms per request, seeded (e.g. 50-300)',
    coerce: asLatency,
  },
  'agent-server-version': {
    key: 'agentServerVersion',
    type: 'string',
    env: 'FAKEHANDS_AGENT_SERVER_VERSION',
    help: 'The agent-server version the agent host speaks (default: the newest; 1.1.0 to 1.2.x: ExecuteBashAction/ExecuteBashObservation, as the Nov 2025 web app knows them)',
  },
  'agent-scripts': {
    key: 'agentScripts',
    type: 'string',
    env: 'FAKEHANDS_AGENT_SCRIPTS',
    help: 'A JSON file of agent scripts: [{"match"?, "steps": [...]}] (see the README)',
  },
  'fixtures-dir': {
    key: 'fixturesDir',
    type: 'string',
    env: 'FAKEHANDS_FIXTURES_DIR',
    help: 'Folder of NAME.json fixtures that POST /_fakehands/reset may load by name',
  },
  'state-file': {
    key: 'stateFile',
    type: 'string',
    env: 'FAKEHANDS_STATE_FILE',
    help: 'Load state from PATH at start and write it after every change',
  },
  'allowed-host': {
    key: 'allowedHosts',
    type: 'string',
    env: 'FAKEHANDS_ALLOWED_HOSTS',
    help: 'Host names served besides loopback ones: NAME[,NAME] or * (others get 421, against DNS rebinding)',
  },
  'max-records': {
    key: 'maxRecords',
    type: 'string',
    env: 'FAKEHANDS_MAX_RECORDS',
    help: 'Most records the fake holds; a create past it answers 507 (default 1000000)',
    coerce: asInt,
  },
  'max-tenants': {
    key: 'maxTenants',
    type: 'string',
    env: 'FAKEHANDS_MAX_TENANTS',
    help: 'Most tenants (X-Fakehands-Tenant header or fakehands_tenant cookie) held at once besides the default one; one more answers 429 (default 64)',
    coerce: asInt,
  },
  'tenant-idle-minutes': {
    key: 'tenantIdleMinutes',
    type: 'string',
    env: 'FAKEHANDS_TENANT_IDLE_MINUTES',
    help: 'Drop a tenant unused for this many minutes (default: never)',
    coerce: asInt,
  },
  'max-store-mb': {
    key: 'maxStoreMb',
    type: 'string',
    env: 'FAKEHANDS_MAX_STORE_MB',
    help: 'Most MiB of records the fake holds; a change past it answers 507 (default 512)',
    coerce: asInt,
  },
  'max-body-kb': {
    key: 'maxBodyKb',
    type: 'string',
    env: 'FAKEHANDS_MAX_BODY_KB',
    help: 'Largest request body in KiB; larger ones answer 413 (default 1024)',
    coerce: asInt,
  },
  'body-timeout-ms': {
    key: 'bodyTimeoutMs',
    type: 'string',
    env: 'FAKEHANDS_BODY_TIMEOUT_MS',
    help: 'Longest a request body may take to arrive; slower clients get 408 and are closed (default 10000)',
    coerce: asInt,
  },
  cors: {
    key: 'cors',
    type: 'string',
    env: 'FAKEHANDS_CORS',
    help: 'Allowed browser origins: ORIGIN[,ORIGIN] or * (default: any localhost origin)',
  },
  replay: {
    key: 'replay',
    type: 'string',
    env: 'FAKEHANDS_REPLAY',
    help: 'A file to replay at start-up on a new RUNNING conversation: a V0 trajectory [...], {"trajectory"|"events": [...], "speed"?}, or a V1 conversation\'s downloaded ZIP (see the README)',
  },
  'from-recording': {
    key: 'recording',
    type: 'string',
    env: 'FAKEHANDS_FROM_RECORDING',
    help: "Start from a recording instead of a fixture: a folder `fakehands record` wrote, or a HAR file from a browser's devtools (its OpenHands hosts; others are skipped and counted)",
  },
  streaming: {
    key: 'streaming',
    type: 'boolean',
    env: 'FAKEHANDS_STREAMING',
    help: "Stream every agent message as StreamingDeltaEvent frames first (50 tokens/s on the fake's clock)",
  },
  quiet: { key: 'quiet', type: 'boolean', env: 'FAKEHANDS_QUIET', help: 'No request log' },
  log: { key: 'log', type: 'string', env: 'FAKEHANDS_LOG', help: 'Request log format: pretty (default) | json' },
  help: { key: null, type: 'boolean', env: null, help: 'Show this help' },
  version: { key: null, type: 'boolean', env: null, help: 'Show the version' },
} as const satisfies Record<string, { key: string | null; type: 'string' | 'boolean'; env: string | null; help: string; coerce?: Coerce }>;

/** Environment values read as booleans; anything else is an error, never a silent false. */
const BOOLEAN_TEXT: Record<string, boolean> = { 1: true, true: true, yes: true, 0: false, false: false, no: false };

/**
 * The options of `fakehands serve`: the library's own `FakeOptions` (one schema for both) plus
 * what only a server has.
 */
export const ServeOptions = z.extend(
  z.pick(FakeOptions, {
    apiKey: true,
    auth: true,
    agentServerVersion: true,
    seed: true,
    fixture: true,
    timings: true,
    latency: true,
    fixturesDir: true,
  }),
  {
    timings: z._default(z.enum(['realistic', 'instant']), 'realistic'),
    fixture: z._default(z.string().check(z.minLength(1)), 'default'),
    host: z._default(z.string().check(z.minLength(1)), DEFAULT_HOST),
    port: z._default(
      z
        .int('expected a port number 0-65535')
        .check(z.gte(0, 'expected a port number 0-65535'), z.lte(65535, 'expected a port number 0-65535')),
      DEFAULT_PORT,
    ),
    agentPort: z.optional(
      z
        .int('expected a port number 0-65535')
        .check(z.gte(0, 'expected a port number 0-65535'), z.lte(65535, 'expected a port number 0-65535')),
    ),
    llmPort: z.optional(
      z
        .int('expected a port number 0-65535')
        .check(z.gte(0, 'expected a port number 0-65535'), z.lte(65535, 'expected a port number 0-65535')),
    ),
    stateFile: z.optional(z.string().check(z.minLength(1))),
    agentScripts: z.optional(z.string().check(z.minLength(1))),
    allowedHosts: z.optional(z.string().check(z.minLength(1))),
    maxRecords: z.optional(z.int().check(z.gte(1))),
    maxStoreMb: z.optional(z.int().check(z.gte(1))),
    maxTenants: z.optional(z.int().check(z.gte(0), z.lte(10_000))),
    tenantIdleMinutes: z.optional(z.int().check(z.gte(1))),
    maxBodyKb: z._default(z.int().check(z.gte(1), z.lte(1024 * 1024)), 1024),
    bodyTimeoutMs: z._default(z.int().check(z.gte(100), z.lte(3_600_000)), 10_000),
    cors: z.optional(z.string().check(z.minLength(1))),
    quiet: z._default(z.boolean(), false),
    replay: z.optional(z.string().check(z.minLength(1))),
    recording: z.optional(z.string().check(z.minLength(1))),
    streaming: z._default(z.boolean(), false),
    log: z._default(z.enum(['pretty', 'json']), 'pretty'),
  },
);
/** The options of `fakehands serve`, with defaults applied. */
export type ServeConfig = z.output<typeof ServeOptions>;

/** The file `fakehands serve` reads its options from, in the working folder. */
export const CONFIG_FILE = 'fakehands.config.json';

/** A config file read: where it is, and its values by flag name. */
export interface LoadedConfigFile {
  /** The file's path. */
  path: string;
  /** Its options, by flag name. */
  values: Record<string, unknown>;
}

/**
 * Reads options from flags, then environment variables, then `config` (the config file's values);
 * throws a `usage` error naming the bad one (the flag, variable or file key it came from) and the
 * help of `command`, the command whose options these are (`serve`, or `canvas`, which takes them too).
 */
export function parseServeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  config: LoadedConfigFile | null = null,
  command: 'serve' | 'canvas' = 'serve',
): ServeConfig | 'help' | 'serve-help' | 'version' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(Object.entries(SERVE_FLAGS).map(([k, o]) => [k, { type: o.type }])),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message);
    const ambiguous = /Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(message);
    if (ambiguous)
      throw usage(
        `invalid ${ambiguous[1]}: a value that starts with "-" is written ${ambiguous[1]}=VALUE (see fakehands ${command} --help)`,
      );
    throw usage(
      `${unknown ? `unknown option ${unknown[1]}` : message.split('\n')[0]!.replace(/\.$/, '')} (see fakehands ${command} --help)`,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const named = parsed.positionals[0];
  if (values.help) return named === 'serve' ? 'serve-help' : 'help';
  if (values.version) return 'version';
  if ((named !== undefined && named !== 'serve') || parsed.positionals.length > 1)
    throw usage(`unknown command "${parsed.positionals.join(' ')}" (see fakehands --help)`);
  const raw: Record<string, unknown> = {};
  const given: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  for (const [flag, option] of Object.entries(SERVE_FLAGS) as [string, (typeof SERVE_FLAGS)[keyof typeof SERVE_FLAGS]][]) {
    if (option.key === null) continue;
    let value: unknown = values[flag];
    source[option.key] = `--${flag}`;
    const fromEnv = option.env ? env[option.env] : undefined;
    if (value === undefined && fromEnv !== undefined && fromEnv !== '') {
      value = fromEnv;
      source[option.key] = option.env!;
      if (option.type === 'boolean') {
        const read = BOOLEAN_TEXT[fromEnv.trim().toLowerCase()];
        if (read === undefined)
          throw usage(
            `invalid ${option.env} ${JSON.stringify(fromEnv)}: expected true or false (1/0, yes/no) (see fakehands ${command} --help)`,
          );
        value = read;
      }
    }
    if (value === undefined && config && config.values[flag] !== undefined) {
      value = config.values[flag];
      source[option.key] = `"${flag}" of ${CONFIG_FILE}`;
    }
    if (value === undefined) continue;
    given[option.key] = value;
    raw[option.key] = typeof value === 'string' && 'coerce' in option ? option.coerce(value) : value;
  }
  const result = ServeOptions.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = String(issue.path[0]);
    const message =
      key === 'latency' && typeof raw.latency === 'string'
        ? 'expected MIN-MAX in milliseconds, e.g. 50-300'
        : key === 'latency'
          ? 'MIN must not exceed MAX'
          : issue.message;
    const flag = Object.entries(SERVE_FLAGS).find(([, o]) => o.key === key)?.[0] ?? key;
    const where = source[key] ?? `--${flag}`;
    throw usage(`invalid ${where} ${JSON.stringify(given[key])}: ${message} (see fakehands ${command} --help)`);
  }
  if (raw.recording !== undefined && raw.fixture !== undefined)
    throw usage(`${source.recording} and ${source.fixture} both say what to start from: give one (see fakehands serve --help)`);
  // A key that no route checks is a mistake, not a setting: say so rather than serve without it (the environment's key, shared with `fakehands verify`, is left alone).
  if (result.data.auth === 'none' && raw.apiKey !== undefined && !source.apiKey!.startsWith('FAKEHANDS_')) {
    throw usage(
      `${source.apiKey} is never checked with --auth none (npm start passes --auth none): add --auth legacy or --auth all to check it, or leave the key out (see fakehands serve --help)`,
    );
  }
  return result.data;
}

/** The CORS policy of `--cors`: `*`, or a list of origins, each exactly an origin (`http://host:port`). */
export function corsPolicy(option: string | undefined): CorsPolicy {
  if (option === undefined) return 'localhost';
  if (option === '*') return '*';
  const origins = option
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    const parsed = URL.canParse(origin) ? new URL(origin) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw usage(
        `invalid --cors ${JSON.stringify(origin)}: expected an origin like http://localhost:5173 (scheme, host and port, no path), or * (see fakehands serve --help)`,
      );
    }
  }
  return origins;
}
