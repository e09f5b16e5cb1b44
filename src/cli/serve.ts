/**
 * `fakehands serve`: the app server and the agent host on localhost, with the state file, the
 * request log, `--replay` and a clean stop on a signal or when the parent process goes.
 */
import { createFakeCore as createFake, type FakeCore as Fake } from '../fake.js';
import { FIXTURE_ADVICE, FakehandsError } from '../domain/store/errors.js';
import { DEFAULT_API_KEY, type FakeOptionsInput } from '../options.js';
import { createFakeServer, type RequestLogLine } from '../server/http-server.js';
import { StateFileWriter, readStateFile, restartSeed } from '../server/state-file.js';
import { freePort } from '../server/start.js';
import { startLlmServer } from '../server/llm-server.js';
import { llmOfAgentScripts } from '../surfaces/llm/index.js';
import type { FixtureInput } from '../schemas/fixture.js';
import { DEFAULT_AGENT_PORT, corsPolicy, usage, type ServeConfig } from './options.js';

/** How long a stop waits for busy connections before closing them. */
const SHUTDOWN_GRACE_MS = 1000;
/** How often the server checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;

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
      throw usage(`invalid --fixtures-dir ${JSON.stringify(config.fixturesDir)}: no such folder (see fakehands serve --help)`);
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
      `invalid --agent-scripts ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'} (see fakehands serve --help)`,
    );
  }
  if (!Array.isArray(data))
    throw usage(`invalid --agent-scripts ${JSON.stringify(path)}: expected a JSON array of scripts (see fakehands serve --help)`);
  return data;
}

/** `--replay FILE`: the file (a V0 trajectory array, or a `POST /_fakehands/replay` body) replayed through the control API; a bad file is a usage error. */
async function replayAtStart(
  fake: Fake,
  path: string,
  apiKey: string | undefined,
): Promise<{ conversation_id: string; conversation_url: string }> {
  const { readFile } = await import('node:fs/promises');
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw usage(
      `invalid --replay ${JSON.stringify(path)}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'unreadable'} (see fakehands serve --help)`,
    );
  }
  const key: Record<string, string> = apiKey ? { 'x-session-api-key': apiKey } : {};
  let request: Request;
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    // A V1 conversation's downloaded ZIP (download-trajectory): the control API's ZIP replay.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'conversation.zip');
    request = new Request('http://localhost/_fakehands/replay/zip', { method: 'POST', headers: key, body: form });
  } else {
    let data: unknown;
    try {
      data = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw usage(`invalid --replay ${JSON.stringify(path)}: not valid JSON, nor a ZIP (see fakehands serve --help)`);
    }
    const body = Array.isArray(data) ? { trajectory: data } : data;
    request = new Request('http://localhost/_fakehands/replay', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...key },
      body: JSON.stringify(body),
    });
  }
  const response = await fake.fetch(request);
  const answer = (await response.json()) as { conversation_id: string; conversation_url: string; detail?: unknown };
  if (response.status !== 201)
    throw usage(`invalid --replay ${JSON.stringify(path)}: ${JSON.stringify(answer.detail ?? answer).slice(0, 500)}`);
  return answer;
}

/** `--from-recording PATH`: the fixture the recording seeds, and the one line that says what was read (the hosts skipped counted). */
async function importRecording(config: ServeConfig): Promise<{ fixture: FixtureInput; line: string }> {
  const { readRecording } = await import('../record/read.js');
  const { fixtureOfRecording } = await import('../domain/recording/fixture.js');
  let read: Awaited<ReturnType<typeof fixtureOfRecording>>;
  try {
    read = await fixtureOfRecording(await readRecording(config.recording!), { apiKey: config.apiKey });
  } catch (error) {
    throw usage(`${(error as Error).message.replace(/^invalid recording/, 'invalid --from-recording')} (see fakehands serve --help)`);
  }
  const skipped =
    read.skipped === 0
      ? 'no other host'
      : `skipped ${read.skipped} exchange(s) of ${read.skippedHosts.length} other host(s) (${read.skippedHosts.join(', ')})`;
  return {
    fixture: read.fixture,
    line: `from recording ${config.recording}: ${read.conversations} conversation(s), ${read.events} event(s) from ${read.exchanges} exchange(s) of ${read.hosts.join(', ') || 'no OpenHands host'}; ${skipped}`,
  };
}

/** Whether `host` is a loopback address or name; binding anything else prints a warning. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function logger(config: ServeConfig): ((line: RequestLogLine) => void) | undefined {
  if (config.quiet) return undefined;
  if (config.log === 'json') return (line) => process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'request', ...line })}\n`);
  return (line) =>
    process.stdout.write(
      `${line.method} ${line.path} ${line.status} ${line.duration_ms.toFixed(1)} ms${line.miss === undefined ? '' : ` (${line.miss})`}\n`,
    );
}

/** Runs `fakehands serve` until SIGINT or SIGTERM; resolves once it listens, with the app server's and the agent host's URLs. */
export async function serve(config: ServeConfig, configFile: string | null = null): Promise<{ url: string; agentUrl: string }> {
  const cors = corsPolicy(config.cors);
  await checkPaths(config);
  let fixture: string | FixtureInput = config.fixture;
  let stateFile: StateFileWriter | undefined;
  let seed = config.seed;
  let restarted = false;
  const imported =
    config.recording && !(config.stateFile && (await readStateFile(config.stateFile)) !== null) ? await importRecording(config) : null;
  if (imported) fixture = imported.fixture;
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
  // The agent host listens where the flag table says: --agent-port, else 8000 (a free one with --port 0
  // or --agent-port 0). A taken port is a one-line error, as the app server's is: conversation_url and
  // a page's backend setting name the port, so moving it quietly would send them to another process.
  const agentPortAsked = config.agentPort ?? (config.port === 0 ? 0 : DEFAULT_AGENT_PORT);
  if (agentPortAsked !== 0 && agentPortAsked === config.port)
    throw usage(
      config.agentPort === undefined
        ? `--port ${config.port} is the agent host's default port: pass --agent-port with another one (0 for a free one)`
        : `--port and --agent-port both name port ${config.port}: the app server and the agent host need one each; change one of them (0 picks a free one)`,
    );
  const agentPort = await freePort(config.host, agentPortAsked);
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
    // The library's fixture advice names its option (`fixture: "default"`); on the command line it is the flag.
    if (error instanceof FakehandsError && error.code === 'invalid_fixture')
      throw new FakehandsError(
        'invalid_fixture',
        error.message.replace(FIXTURE_ADVICE, 'Fix the file, or pass --fixture default or --fixture empty.'),
      );
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
      if (code === 'EADDRINUSE') {
        const which = flag === '--port' ? '' : config.agentPort === undefined ? ' (the default of --agent-port)' : ' (--agent-port)';
        throw usage(
          `${flag === '--port' ? 'port' : 'agent port'} ${port} on ${config.host}${which} is in use; pass ${flag} 0 for a free one`,
        );
      }
      throw usage(`cannot listen on ${config.host}:${port} (${code ?? (error as Error).message})`);
    }
  };
  // The agent host first: its port was found free just now, and the app server's port 0 could otherwise be handed that very port.
  await listen(agentServer, agentPort, '--agent-port');
  let url: string;
  try {
    url = await listen(server, config.port, '--port');
  } catch (error) {
    await agentServer.close();
    throw error;
  }
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
  const llmServer =
    config.llmPort === undefined
      ? null
      : await startLlmServer({ llm: llmOfAgentScripts(fake.options.agentScripts), host: config.host, port: config.llmPort });
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
  // What a recording seeded, before the banner's last line (what a caller waits for).
  if (imported)
    process.stdout.write(
      `${config.log === 'json' ? JSON.stringify({ level: 'info', msg: 'recording', line: imported.line }) : imported.line}\n`,
    );
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
    if (llmServer)
      process.stdout.write(
        `scripted LLM: ${llmServer.url}/v1 (an agent's base_url; requests at ${llmServer.url}/_fakehands/llm/requests)\n`,
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
    Promise.all([
      agentServer.close(),
      server.close(),
      llmServer?.close(),
      ...[...tenantWriters.values()].map((writer) => writer.close()),
    ]).then(
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
