/**
 * The `fakehands` command: `fakehands serve` runs the whole API on localhost for frontend
 * development. Every option can also come from an environment variable (`FAKEHANDS_PORT`, ...).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { createFakeCore as createFake, type FakeCore as Fake } from './fake.js';
import { CONFIGURATION_ERROR_CODES, FakehandsError } from './domain/store/errors.js';
import { DEFAULT_API_KEY, FakeOptions, type FakeOptionsInput } from './options.js';
import { packageVersion } from './package-root.js';
import type { CorsPolicy } from './server/cors.js';
import { createFakeServer, type RequestLogLine } from './server/http-server.js';
import { StateFileWriter, readStateFile, restartSeed } from './server/state-file.js';
import { freePort } from './server/start.js';
import type { FixtureInput } from './schemas/fixture.js';

/** Exit code of a bad option, a bad fixture or a port in use. */
export const EXIT_USAGE = 2;
/** Default port of `fakehands serve`. */
export const DEFAULT_PORT = 3000;
/** Default port of the agent host: the real agent server's (its sandbox spec runs it with `--port 8000`); not 3001, the OpenHands web app's dev server's. */
export const DEFAULT_AGENT_PORT = 8000;
/** Default host: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
/** How long a stop waits for busy connections before closing them. */
const SHUTDOWN_GRACE_MS = 1000;
/** How often the server checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;

/** A command-line problem: the CLI prints its message and exits with code 2. */
const usage = (message: string) => new FakehandsError('usage', message);

const VERSION = packageVersion();

/** How a flag's text becomes the option's value (before the shared schema validates it). */
type Coerce = (text: string) => unknown;
const asInt: Coerce = (text) => (/^-?\d+$/.test(text.trim()) ? Number(text) : text);
const asLatency: Coerce = (text) => {
  const match = /^(\d+)-(\d+)$/.exec(text.trim());
  return match ? { min: Number(match[1]), max: Number(match[2]) } : text;
};

/** Every option of `fakehands serve`: its key in `ServeOptions`, environment variable, help, and how its text is read. */
const SERVE_FLAGS = {
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
    help: `Port of the agent server behind conversation_url (REST and /sockets/events/{id}; default ${DEFAULT_AGENT_PORT}, the real agent server's, or a free one with --port 0)`,
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
    help: 'A JSON file to replay at start-up on a new RUNNING conversation: a V0 trajectory [...] or {"trajectory"|"events": [...], "speed"?} (see the README)',
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
    streaming: z._default(z.boolean(), false),
    log: z._default(z.enum(['pretty', 'json']), 'pretty'),
  },
);
/** The options of `fakehands serve`, with defaults applied. */
export type ServeConfig = z.output<typeof ServeOptions>;

/** The commands of `fakehands`, each with its one line (what `fakehands --help` lists first). */
const COMMANDS = [
  ['serve', 'Serve the fake API and the agent host on localhost (the default command)'],
  ['verify', 'Verify the Pact contracts against a running implementation (the fake or a real server)'],
  ['drift', "Compare the fake's OpenAPI document with a provider's, operation by operation"],
  ['canvas', 'Serve Agent Canvas (npm @openhands/agent-canvas, fetched on first use) routed to the fake: local and cloud backends'],
] as const;

/** `fakehands --help`: the commands first, each in one line, then where each command's options are. */
function helpText(): string {
  return [
    `fakehands ${VERSION}: a stateful fake of the OpenHands Conversation and Sandbox Service`,
    '',
    'Usage: fakehands [COMMAND] [options]',
    '',
    'Commands:',
    ...COMMANDS.map(([name, line]) => `  ${name.padEnd(8)} ${line}`),
    '',
    'Run `fakehands COMMAND --help` for the options of a command (`fakehands serve --help`).',
    `\`fakehands serve\` also reads ${CONFIG_FILE} in the working folder (flags and environment variables win).`,
  ].join('\n');
}

/** `fakehands serve --help`: every option, its environment variable, and the config file. */
function serveHelpText(): string {
  const rows = Object.entries(SERVE_FLAGS).map(([name, o]) => `  --${name.padEnd(12)} ${o.help}${o.env ? ` [${o.env}]` : ''}`);
  return [
    'Usage: fakehands serve [options]',
    '',
    ...rows,
    '',
    `Every option may also be set in ${CONFIG_FILE} in the working folder, keyed by the flag's name`,
    '(`{"port": 3100, "auth": "none"}`); a flag wins over its environment variable, which wins over the file.',
  ].join('\n');
}

/** The file `fakehands serve` reads its options from, in the working folder. */
export const CONFIG_FILE = 'fakehands.config.json';

/** How a value of the config file is written: as the option's own type, except `latency` ("MIN-MAX", as the flag). */
const configValue = (key: string): z.ZodMiniType =>
  key === 'latency'
    ? z.string().check(z.regex(/^\d+-\d+$/, 'expected "MIN-MAX" in milliseconds, e.g. "50-300"'))
    : (ServeOptions.shape as Record<string, z.ZodMiniType>)[key]!;

/**
 * The schema of `fakehands.config.json`: any option of `fakehands serve`, keyed by its flag's name
 * (`"agent-port"`), typed (numbers as numbers); unknown keys are refused. `npm run config-schema`
 * writes it as JSON Schema (`fakehands.config.schema.json`) for editors.
 */
export const ConfigFile = z.strictObject({
  $schema: z.optional(z.string()),
  ...Object.fromEntries(
    Object.entries(SERVE_FLAGS)
      .filter(([, o]) => o.key !== null)
      .map(([flag, o]) => {
        const schema = z.optional(configValue(o.key!));
        z.globalRegistry.add(schema, { description: o.help });
        return [flag, schema];
      }),
  ),
});

/** A config file read: where it is, and its values by flag name. */
export interface LoadedConfigFile {
  /** The file's path. */
  path: string;
  /** Its options, by flag name. */
  values: Record<string, unknown>;
}

/** Reads `fakehands.config.json` from `folder`, if there is one; a bad one is a `usage` error naming the key. */
export function readConfigFile(folder: string): LoadedConfigFile | null {
  const path = join(folder, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw usage(`cannot read ${CONFIG_FILE}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw usage(`invalid ${CONFIG_FILE}: not valid JSON (${(error as Error).message}) (see fakehands serve --help)`);
  }
  const result = ConfigFile.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const key = issue.path.length ? `"${issue.path.map(String).join('.')}": ` : '';
    const unknown = issue.code === 'unrecognized_keys' ? `unknown option ${issue.keys.map((k) => `"${k}"`).join(', ')}` : issue.message;
    throw usage(`invalid ${CONFIG_FILE}: ${key}${unknown} (see fakehands serve --help)`);
  }
  // Only what the file says: the schema's defaults must not hide an environment variable.
  const parsed = result.data as Record<string, unknown>;
  return {
    path,
    values: Object.fromEntries(
      Object.keys(data as object)
        .filter((key) => key !== '$schema')
        .map((key) => [key, parsed[key]]),
    ),
  };
}

/**
 * Reads options from flags, then environment variables, then `config` (the config file's values);
 * throws a `usage` error naming the bad one.
 */
export function parseServeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
  config: LoadedConfigFile | null = null,
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
      throw usage(`invalid ${ambiguous[1]}: a value that starts with "-" is written ${ambiguous[1]}=VALUE (see fakehands --help)`);
    throw usage(`${unknown ? `unknown option ${unknown[1]}` : message.split('\n')[0]!.replace(/\.$/, '')} (see fakehands --help)`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const command = parsed.positionals[0];
  if (values.help) return command === 'serve' ? 'serve-help' : 'help';
  if (values.version) return 'version';
  if ((command !== undefined && command !== 'serve') || parsed.positionals.length > 1)
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
          throw usage(`invalid ${option.env} ${JSON.stringify(fromEnv)}: expected true or false (1/0, yes/no) (see fakehands --help)`);
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
    const where = source[key]?.startsWith('"') ? source[key] : `--${flag}`;
    throw usage(`invalid ${where} ${JSON.stringify(given[key])}: ${message} (see fakehands --help)`);
  }
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
        `invalid --cors ${JSON.stringify(origin)}: expected an origin like http://localhost:5173 (scheme, host and port, no path), or * (see fakehands --help)`,
      );
    }
  }
  return origins;
}

/** Refuses a `--state-file` whose folder is missing or not writable, and a `--fixtures-dir` that is not a folder: one line, exit 2, before anything starts. */
async function checkPaths(config: ServeConfig): Promise<void> {
  const { access, stat } = await import('node:fs/promises');
  const { constants } = await import('node:fs');
  const { dirname, resolve } = await import('node:path');
  if (config.stateFile) {
    const folder = dirname(resolve(config.stateFile));
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory())
      throw new FakehandsError(
        'invalid_state_file',
        `invalid --state-file ${JSON.stringify(config.stateFile)}: the folder ${folder} does not exist; create it first`,
      );
    if (
      !(await access(folder, constants.W_OK).then(
        () => true,
        () => false,
      ))
    ) {
      throw new FakehandsError(
        'invalid_state_file',
        `invalid --state-file ${JSON.stringify(config.stateFile)}: the folder ${folder} is not writable; pick a folder you can write to`,
      );
    }
  }
  if (config.fixturesDir) {
    const info = await stat(config.fixturesDir).catch(() => null);
    if (!info?.isDirectory())
      throw usage(`invalid --fixtures-dir ${JSON.stringify(config.fixturesDir)}: no such folder (see fakehands --help)`);
  }
}

/** The agent scripts of `--agent-scripts`: a JSON array in a file (one line and exit 2 when it cannot be read). */
async function readAgentScripts(path: string): Promise<unknown[]> {
  const { readFile } = await import('node:fs/promises');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw usage(
      `invalid --agent-scripts ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'} (see fakehands --help)`,
    );
  }
  if (!Array.isArray(data))
    throw usage(`invalid --agent-scripts ${JSON.stringify(path)}: expected a JSON array of scripts (see fakehands --help)`);
  return data;
}

/** `--replay FILE`: the file (a V0 trajectory array, or a `POST /_fakehands/replay` body) replayed through the control API; a bad file is a usage error. */
async function replayAtStart(
  fake: Fake,
  path: string,
  apiKey: string | undefined,
): Promise<{ conversation_id: string; conversation_url: string }> {
  const { readFile } = await import('node:fs/promises');
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw usage(
      `invalid --replay ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'} (see fakehands --help)`,
    );
  }
  const body = Array.isArray(data) ? { trajectory: data } : data;
  const response = await fake.fetch(
    new Request('http://localhost/_fakehands/replay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-session-api-key': apiKey } : {}) },
      body: JSON.stringify(body),
    }),
  );
  const answer = (await response.json()) as { conversation_id: string; conversation_url: string; detail?: unknown };
  if (response.status !== 201)
    throw usage(`invalid --replay ${JSON.stringify(path)}: ${JSON.stringify(answer.detail ?? answer).slice(0, 500)}`);
  return answer;
}

/** Whether `host` is a loopback address or name; binding anything else prints a warning. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function logger(config: ServeConfig): ((line: RequestLogLine) => void) | undefined {
  if (config.quiet) return undefined;
  if (config.log === 'json') return (line) => process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'request', ...line })}\n`);
  return (line) => process.stdout.write(`${line.method} ${line.path} ${line.status} ${line.duration_ms.toFixed(1)} ms\n`);
}

/** Runs `fakehands serve` until SIGINT or SIGTERM; resolves once it listens, with the app server's and the agent host's URLs. */
export async function serve(config: ServeConfig, configFile: string | null = null): Promise<{ url: string; agentUrl: string }> {
  const cors = corsPolicy(config.cors);
  await checkPaths(config);
  let fixture: string | FixtureInput = config.fixture;
  let stateFile: StateFileWriter | undefined;
  let seed = config.seed;
  let restarted = false;
  if (config.stateFile) {
    const saved = await readStateFile(config.stateFile);
    if (saved !== null) {
      fixture = saved as FixtureInput;
      // Started again: what it hands out now must differ from what it handed out before.
      seed = restartSeed(config.seed);
      restarted = true;
    }
    stateFile = new StateFileWriter(config.stateFile);
  }
  // The default agent port, when another process has it, gives way to a free one (conversation_url names it); a port asked for does not.
  const agentPort =
    config.agentPort !== undefined
      ? await freePort(config.host, config.agentPort)
      : await freePort(config.host, config.port === 0 ? 0 : DEFAULT_AGENT_PORT, true);
  const agentHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const agentUrl = `http://${agentHost === '0.0.0.0' || agentHost === '[::]' ? '127.0.0.1' : agentHost}:${agentPort}`;
  let fake: Fake;
  try {
    fake = await createFake({
      agentScripts: (config.agentScripts ? await readAgentScripts(config.agentScripts) : []) as FakeOptionsInput['agentScripts'],
      baseUrl: 'http://localhost',
      agentUrl,
      apiKey: config.apiKey,
      auth: config.auth,
      agentServerVersion: config.agentServerVersion,
      seed,
      fixture,
      timings: config.timings,
      clock: 'system',
      latency: config.latency,
      fixturesDir: config.fixturesDir,
      streaming: config.streaming,
      ...(config.maxRecords !== undefined ? { maxRecords: config.maxRecords } : {}),
      ...(config.maxStoreMb !== undefined ? { maxStoreBytes: config.maxStoreMb * 1024 * 1024 } : {}),
      ...(config.maxTenants !== undefined ? { maxTenants: config.maxTenants } : {}),
      ...(config.tenantIdleMinutes !== undefined ? { tenantIdleMs: config.tenantIdleMinutes * 60_000 } : {}),
    });
  } catch (error) {
    throw error instanceof FakehandsError ? error : usage((error as Error).message);
  }
  const server = createFakeServer(fake, {
    cors,
    log: logger(config),
    stateFile,
    allowedHosts:
      config.allowedHosts
        ?.split(',')
        .map((h) => h.trim())
        .filter(Boolean) ?? [],
    maxBodyBytes: config.maxBodyKb * 1024,
    bodyTimeoutMs: config.bodyTimeoutMs,
    onError: (line) => process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'internal error', ...line })}\n`),
  });
  // The agent server of every RUNNING sandbox: its own listener, on the origin conversation_url names.
  const agentServer = createFakeServer(fake, {
    origin: agentUrl,
    cors,
    log: logger(config),
    allowedHosts:
      config.allowedHosts
        ?.split(',')
        .map((h) => h.trim())
        .filter(Boolean) ?? [],
    maxBodyBytes: config.maxBodyKb * 1024,
    bodyTimeoutMs: config.bodyTimeoutMs,
    onError: (line) => process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'internal error', ...line })}\n`),
  });
  const listen = async (listener: typeof server, port: number, flag: string) => {
    try {
      return await listener.listen(port, config.host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw usage(`${flag === '--port' ? 'port' : 'agent port'} ${port} on ${config.host} is in use; pass ${flag} 0 for a free one`);
      throw usage(`cannot listen on ${config.host}:${port} (${code ?? (error as Error).message})`);
    }
  };
  const url = await listen(server, config.port, '--port');
  await listen(agentServer, agentPort, '--agent-port');
  // Every tenant is kept beside the state file (FILE.tenants/NAME.json), and starts from it again.
  const tenantWriters = new Map<string, StateFileWriter>();
  if (config.stateFile && fake.mounts.tenants) {
    const { mkdir, rm } = await import('node:fs/promises');
    const dir = `${config.stateFile}.tenants`;
    const fileOf = (name: string) => `${dir}/${name}.json`;
    fake.mounts.tenants.persistence = {
      fixture: (name) => readStateFile(fileOf(name)),
      created: (name, instance) => {
        const writer = new StateFileWriter(fileOf(name));
        tenantWriters.set(name, writer);
        // The first snapshot is asked for at once: it runs before the request that made the tenant (whose changes wait for it).
        // When it fails (a full disk), the writer writes the whole state with the next change instead (issue 29, finding 8).
        const ready = Promise.all([instance.snapshot(), mkdir(dir, { recursive: true })])
          .then(([snapshot]) => writer.write(snapshot))
          .catch(() => undefined);
        instance.onChange((changes, state) =>
          ready.then(async () => {
            if (writer.unwritten) await mkdir(dir, { recursive: true });
            return writer.record(changes, state);
          }),
        );
      },
      deleted: async (name) => {
        const writer = tenantWriters.get(name);
        tenantWriters.delete(name);
        await writer?.close();
        await Promise.all([rm(fileOf(name), { force: true }), rm(`${fileOf(name)}.log`, { force: true })]);
      },
    };
  }
  if (stateFile) {
    await stateFile.removeLeftovers();
    try {
      // Started again: go on with the files as they are (a start needs no free space); else write the first snapshot.
      if (restarted) await stateFile.adopt();
      else await stateFile.write(await fake.snapshot());
    } catch (error) {
      throw new FakehandsError(
        'invalid_state_file',
        `cannot write --state-file ${JSON.stringify(config.stateFile)}: ${(error as Error).message}`,
      );
    }
  }
  const replayed = config.replay ? await replayAtStart(fake, config.replay, config.apiKey) : null;
  const keyNote =
    config.auth === 'none'
      ? null
      : config.apiKey === DEFAULT_API_KEY
        ? `${DEFAULT_API_KEY} (the documented default)`
        : '(set by --api-key; not shown)';
  const nonLoopback = isLoopback(config.host)
    ? null
    : `listening on ${config.host}, reachable from other machines; the fake is meant for loopback only`;
  if (config.log === 'json') {
    // JSON lines only: the banner is one line too, with no key in it.
    process.stdout.write(
      `${JSON.stringify({ level: 'info', msg: 'listening', url, agent_url: agentUrl, control_api: `${url}/_fakehands/`, openapi: `${url}/openapi.json`, auth: config.auth, api_key: keyNote === null ? null : config.apiKey === DEFAULT_API_KEY ? 'default' : 'custom' })}\n`,
    );
    if (nonLoopback) process.stderr.write(`${JSON.stringify({ level: 'warn', msg: nonLoopback })}\n`);
  } else {
    process.stdout.write(`fakehands listening on ${url}\n`);
    process.stdout.write(
      keyNote === null
        ? 'API key: none checked (auth: none; --auth legacy or --auth all checks X-Session-API-Key)\n'
        : `API key: ${keyNote}; send it as X-Session-API-Key (auth: ${config.auth})\n`,
    );
    process.stdout.write(`control API: ${url}/_fakehands/ · OpenAPI: ${url}/openapi.json\n`);
    if (configFile) process.stdout.write(`options from ${configFile} (flags and environment variables win)\n`);
    process.stdout.write(
      `agent server: ${agentUrl} (conversation_url; WebSocket ${agentUrl.replace(/^http/, 'ws')}/sockets/events/{id})\n`,
    );
    if (nonLoopback) process.stderr.write(`fakehands: warning: ${nonLoopback}\n`);
  }
  if (replayed)
    process.stdout.write(
      config.log === 'json'
        ? `${JSON.stringify({ level: 'info', msg: 'replaying', conversation_id: replayed.conversation_id, conversation_url: replayed.conversation_url })}\n`
        : `replaying ${config.replay} on conversation ${replayed.conversation_id} (${replayed.conversation_url})\n`,
    );

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Keep-alive connections are not waited for: idle ones close now, busy ones after a second.
    setTimeout(() => server.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    Promise.all([agentServer.close(), server.close(), ...[...tenantWriters.values()].map((writer) => writer.close())]).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`fakehands: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  // Started by a parent that dies without passing the signal on (`npm start` killed): stop too.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop();
  }, PARENT_CHECK_MS).unref();
  return { url, agentUrl };
}

/** Entry point of the `fakehands` binary. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    if (argv[0] === 'verify') {
      const { runVerify } = await import('./pact/command.js');
      return process.exit(
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
      return process.exit(await runDrift(argv.slice(1), (text) => process.stdout.write(text)));
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
