import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { built } from '../support/built.js';
import { type RunningCli, eventually, runCli, startCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

// What the test compares with, as built: the package's default key and the command's bundle (what bin/fakehands.js runs).
const { DEFAULT_API_KEY, isLoopback } = { ...(await built('fakehands')), ...(await built('command')) };
const { apiRoutes } = await built('app-server routes');

const KEY_HEADER = { 'x-session-api-key': DEFAULT_API_KEY };

async function get(url: string, headers: Record<string, string> = KEY_HEADER) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as unknown, headers: response.headers };
}

async function post(url: string, body?: unknown, headers: Record<string, string> = KEY_HEADER) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

const tempDir = () => mkdtemp(join(tmpdir(), 'fakehands-'));

/**
 * One `fakehands serve --quiet` for the tests that need no flag of their own (issue 34: a start is
 * 0.3 to 0.9 s of CPU), stopped after the file. Each test gets it reset first, as a fresh start has
 * it: the fixture asked for with seed 1 (the default), no fault, the clock back to now (what
 * `POST /_fakehands/reset` does). The request journal is not reset: its test starts its own.
 */
let sharedCli: Promise<RunningCli> | undefined;
async function shared(fixture: 'default' | 'empty' = 'default'): Promise<RunningCli> {
  const cli = await (sharedCli ??= startCli(['--quiet'], {}, { forSuite: true }));
  expect(await post(`${cli.url}/_fakehands/reset`, { fixture, seed: 1 })).toEqual({ status: 200, body: { status: 'ok' } });
  return cli;
}
/** One `fakehands serve` with the default flags (its banner and request log on stdout), for the two tests that read them. */
let defaultCli: Promise<RunningCli> | undefined;
const withDefaults = () => (defaultCli ??= startCli([], {}, { forSuite: true }));
afterAll(async () => {
  for (const started of [sharedCli, defaultCli]) {
    if (!started) continue;
    const cli = await started;
    cli.proc.kill();
    await cli.exited;
  }
});

describe('fakehands serve', () => {
  it('prints exactly one listening line with the real port, then the key and the control API address', async () => {
    const cli = await withDefaults();
    const lines = cli.stdout().trim().split('\n');
    expect(lines.filter((l) => l.startsWith('fakehands listening on'))).toEqual([`fakehands listening on ${cli.url}`]);
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.url).not.toMatch(/:0$/);
    expect(lines[1]).toBe(`API key: ${DEFAULT_API_KEY} (the documented default); send it as X-Session-API-Key (auth: legacy)`);
    expect(lines[2]).toBe(`control API: ${cli.url}/_fakehands/ · OpenAPI: ${cli.url}/openapi.json`);
  });

  it('never prints a key the user chose', async () => {
    const cli = await startCli(['--api-key', 'my-very-private-key']);
    const { status } = await get(`${cli.url}/api/v1/sandboxes/search`, { 'x-session-api-key': 'my-very-private-key' });
    expect(status).toBe(200);
    expect(cli.stdout()).toContain('(set by --api-key; not shown)');
    expect(cli.stdout() + cli.stderr()).not.toContain('my-very-private-key');
  });

  it('serves every endpoint family over real sockets from the default fixture', async () => {
    const cli = await shared();
    const specs = await get(`${cli.url}/api/v1/sandbox-specs/search`);
    expect(specs.status).toBe(200);
    const sandboxes = await get(`${cli.url}/api/v1/sandboxes/search?limit=5`);
    expect(sandboxes).toMatchObject({ status: 200, body: { items: expect.any(Array), next_page_id: '5' } });
    const created = await post(`${cli.url}/api/v1/sandboxes`);
    expect(created).toMatchObject({ status: 200, body: { status: 'STARTING' } });
    const id = (created.body as { id: string }).id;
    expect(await post(`${cli.url}/api/v1/sandboxes/${id}/pause`)).toEqual({ status: 200, body: { success: true } });
    expect(await post(`${cli.url}/api/v1/sandboxes/${id}/resume`)).toEqual({ status: 200, body: { success: true } });
    expect((await get(`${cli.url}/api/v1/app-conversations/search?limit=3`)).status).toBe(200);
    expect((await get(`${cli.url}/api/v1/app-conversations/count`)).body).toEqual(expect.any(Number));
    const task = await post(`${cli.url}/api/v1/app-conversations`, { selected_repository: 'a/b' });
    expect(task).toMatchObject({ status: 200, body: { status: 'WORKING' } });
    expect((await post(`${cli.url}/api/conversations`, {})).body).toMatchObject({ status: 'ok', conversation_status: 'STARTING' });
    expect((await get(`${cli.url}/api/conversations`)).status).toBe(200);
    expect(await post(`${cli.url}/api/add-git-providers`, { provider_tokens: { github: { token: 'ghp_x' } } })).toEqual({
      status: 200,
      body: { message: 'Git providers stored' },
    });
    expect(await get(`${cli.url}/api/v1/nothing`)).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
  });

  it('logs one line per request with method, path, status and duration, and never a key', async () => {
    const cli = await withDefaults();
    await get(`${cli.url}/api/v1/sandboxes/search?limit=1`);
    await eventually(() => /GET \/api\/v1\/sandboxes\/search 200 \d+\.\d ms/.test(cli.stdout()));
    expect(cli.stdout()).not.toContain('x-session-api-key');
  });

  it('logs JSON lines with --log json', async () => {
    const cli = await startCli(['--log', 'json']);
    await get(`${cli.url}/api/v1/sandboxes/search`);
    await eventually(() => cli.stdout().includes('"msg":"request"'));
    const line = cli
      .stdout()
      .split('\n')
      .find((l) => l.includes('"msg":"request"'))!;
    expect(JSON.parse(line)).toEqual({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/api/v1/sandboxes/search',
      status: 200,
      duration_ms: expect.any(Number),
    });
  });

  it('reads options from environment variables', async () => {
    const cli = await startCli(['--quiet'], { FAKEHANDS_AUTH: 'none', FAKEHANDS_FIXTURE: 'empty' });
    expect(await get(`${cli.url}/api/v1/sandboxes/search`, {})).toEqual({
      status: 200,
      body: { items: [], next_page_id: null },
      headers: expect.anything(),
    });
  });
});

describe('auth policies over HTTP', () => {
  it('all: 401 without the key on V1 and legacy routes', async () => {
    const cli = await startCli(['--quiet', '--auth', 'all']);
    expect(await get(`${cli.url}/api/v1/sandboxes/search`, {})).toMatchObject({ status: 401, body: { detail: 'Unauthorized' } });
    expect((await get(`${cli.url}/api/conversations`, {})).status).toBe(401);
  });

  it('legacy (the default): only non-/api/v1 routes need the key', async () => {
    const cli = await shared();
    expect((await get(`${cli.url}/api/v1/sandboxes/search`, {})).status).toBe(200);
    expect((await get(`${cli.url}/api/conversations`, {})).status).toBe(401);
  });

  it('none: nothing needs the key', async () => {
    const cli = await startCli(['--quiet', '--auth', 'none']);
    expect((await get(`${cli.url}/api/conversations`, {})).status).toBe(200);
  });
});

describe('CORS', () => {
  it("answers a preflight from a localhost origin, allowing the headers it asks for (an app's Authorization, sentry-trace, baggage too) with credentials", async () => {
    const cli = await shared();
    const response = await fetch(`${cli.url}/api/v1/sandboxes`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-session-api-key,content-type,authorization,sentry-trace,baggage',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-headers')).toBe('x-session-api-key,content-type,authorization,sentry-trace,baggage');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    const actual = await fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: { ...KEY_HEADER, origin: 'http://localhost:5173' } });
    expect(actual.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(actual.headers.get('access-control-expose-headers')).toBe('Allow, Content-Disposition, X-Request-Id');
  });

  it('refuses a preflight from another origin, and honours --cors', async () => {
    const cli = await startCli(['--quiet', '--cors', 'https://app.example.com']);
    const preflight = (origin: string) =>
      fetch(`${cli.url}/api/v1/sandboxes`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect((await preflight('http://localhost:5173')).status).toBe(400);
    const allowed = await preflight('https://app.example.com');
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });
});

describe('request size limit', () => {
  it('answers 413 {"detail": "Request body too large"} to a body over 1 MiB, and keeps serving', async () => {
    const cli = await shared();
    const big = JSON.stringify({ initial_user_msg: 'x'.repeat(1024 * 1024 + 1) });
    const response = await fetch(`${cli.url}/api/conversations`, {
      method: 'POST',
      headers: { ...KEY_HEADER, 'content-type': 'application/json' },
      body: big,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: 'Request body too large' });
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(200);
  });
});

describe('control API', () => {
  it('GET /_fakehands/health answers {"status": "ok"} without a key', async () => {
    const cli = await shared();
    expect(await get(`${cli.url}/_fakehands/health`, {})).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect((await get(`${cli.url}/_fakehands/state`, {})).status).toBe(401);
  });

  it('POST /_fakehands/reset replaces the state with a fixture', async () => {
    const cli = await shared();
    expect(await post(`${cli.url}/_fakehands/reset`, { fixture: 'empty', seed: 5 })).toEqual({ status: 200, body: { status: 'ok' } });
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).body).toEqual({ items: [], next_page_id: null });
    expect((await post(`${cli.url}/_fakehands/reset`, { fixture: 'nope-not-here' })).status).toBe(422);
    expect((await post(`${cli.url}/_fakehands/reset`, { colour: 1 })).body).toEqual({
      detail: [{ type: 'extra_forbidden', loc: ['body', 'colour'], msg: 'Extra inputs are not permitted', input: 1 }],
    });
  });

  it('GET /_fakehands/state holds everything, with tokens redacted', async () => {
    const cli = await shared('empty');
    await post(`${cli.url}/api/add-git-providers`, { provider_tokens: { github: { token: 'ghp_supersecret123' } } });
    const { body } = await get(`${cli.url}/_fakehands/state`);
    expect(JSON.stringify(body)).not.toContain('ghp_supersecret123');
    expect(body).toMatchObject({ provider_tokens: { github: { token: '**********' } }, sandbox_specs: [expect.any(Object)] });
  });

  it('POST /_fakehands/clock moves time, and time-driven steps follow', async () => {
    const cli = await shared('empty');
    const { body } = await post(`${cli.url}/api/v1/sandboxes`);
    const id = (body as { id: string }).id;
    expect(await post(`${cli.url}/_fakehands/clock`, { advance_ms: 5000 })).toMatchObject({
      status: 200,
      body: { now: expect.any(String) },
    });
    expect(((await get(`${cli.url}/api/v1/sandboxes?id=${id}`)).body as { status: string }[])[0]!.status).toBe('RUNNING');
    expect((await post(`${cli.url}/_fakehands/clock`, { advance_ms: -1 })).status).toBe(422);
  });

  it('POST /_fakehands/faults injects a status and body, once by default, and DELETE clears sticky ones', async () => {
    const cli = await shared();
    const fault = await post(`${cli.url}/_fakehands/faults`, {
      kind: 'status',
      method: 'GET',
      path: '/api/v1/sandboxes/search',
      status: 503,
      body: { detail: 'Service Unavailable' },
    });
    expect(fault).toMatchObject({ status: 200, body: { id: 1, kind: 'status', remaining: 1 } });
    expect(await get(`${cli.url}/api/v1/sandboxes/search`)).toMatchObject({ status: 503, body: { detail: 'Service Unavailable' } });
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(200);
    await post(`${cli.url}/_fakehands/faults`, { kind: 'status', path: '/api/v1/*', status: 500, sticky: true });
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(500);
    expect((await get(`${cli.url}/api/v1/sandbox-specs/search`)).status).toBe(500);
    const cleared = await fetch(`${cli.url}/_fakehands/faults`, { method: 'DELETE', headers: KEY_HEADER });
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(200);
  });

  it('injects a network error: the connection drops without an answer', async () => {
    const cli = await shared();
    await post(`${cli.url}/_fakehands/faults`, { kind: 'network', path: '/api/v1/sandboxes/search' });
    await expect(fetch(`${cli.url}/api/v1/sandboxes/search`, { headers: KEY_HEADER })).rejects.toThrow();
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(200);
  });

  it('injects a delay: the answer comes no sooner than asked', async () => {
    const cli = await shared();
    await post(`${cli.url}/_fakehands/faults`, { kind: 'delay', path: '/api/v1/sandboxes/search', delay_ms: 300 });
    const started = Date.now();
    expect((await get(`${cli.url}/api/v1/sandboxes/search`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('injects an ERROR transition of the sandbox named in the path', async () => {
    const cli = await shared('empty');
    const id = ((await post(`${cli.url}/api/v1/sandboxes`)).body as { id: string }).id;
    await post(`${cli.url}/_fakehands/faults`, { kind: 'sandbox_error', method: 'POST', path: '/api/v1/sandboxes/:sandbox_id/resume' });
    expect((await post(`${cli.url}/api/v1/sandboxes/${id}/resume`)).status).toBe(200);
    expect(((await get(`${cli.url}/api/v1/sandboxes?id=${id}`)).body as { status: string }[])[0]!.status).toBe('STARTING');
    await post(`${cli.url}/_fakehands/faults`, { kind: 'sandbox_error', method: 'GET', path: '/api/v1/sandboxes', sandbox_id: id });
    expect(((await get(`${cli.url}/api/v1/sandboxes?id=${id}`)).body as { status: string }[])[0]!.status).toBe('ERROR');
  });

  it('rejects a fault that is not one of the documented kinds with 422', async () => {
    const cli = await shared();
    const { status, body } = await post(`${cli.url}/_fakehands/faults`, { kind: 'meteor', path: '/x' });
    expect(status).toBe(422);
    expect((body as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(['body', 'kind']);
  });

  it('GET /_fakehands/requests lists the last requests with status and timing, and no header', async () => {
    const cli = await startCli(['--quiet']);
    await get(`${cli.url}/api/v1/sandboxes/search?limit=2`);
    await post(`${cli.url}/api/v1/sandboxes/nope/pause`);
    const { body } = await get(`${cli.url}/_fakehands/requests?limit=2`);
    expect(body).toEqual({
      requests: [
        {
          seq: 1,
          at: expect.any(String),
          method: 'GET',
          path: '/api/v1/sandboxes/search',
          query: '?limit=2',
          status: 200,
          duration_ms: expect.any(Number),
        },
        {
          seq: 2,
          at: expect.any(String),
          method: 'POST',
          path: '/api/v1/sandboxes/nope/pause',
          query: '',
          status: 404,
          duration_ms: expect.any(Number),
        },
      ],
    });
    expect(JSON.stringify(body)).not.toContain(DEFAULT_API_KEY);
  });
});

describe('--latency', () => {
  it('delays every answer by at least MIN milliseconds', async () => {
    const cli = await startCli(['--quiet', '--latency', '150-200']);
    const started = Date.now();
    await get(`${cli.url}/api/v1/sandbox-specs/search`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });
});

describe('--state-file', () => {
  it('keeps what was created across a clean restart', async () => {
    const file = join(await tempDir(), 'state.json');
    const first = await startCli(['--quiet', '--fixture', 'empty', '--state-file', file]);
    const id = ((await post(`${first.url}/api/v1/sandboxes`)).body as { id: string }).id;
    first.proc.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startCli(['--quiet', '--state-file', file]);
    expect(((await get(`${second.url}/api/v1/sandboxes?id=${id}`)).body as ({ id: string } | null)[])[0]!.id).toBe(id);
  });

  it('keeps every acknowledged write across kill -9', async () => {
    const file = join(await tempDir(), 'state.json');
    const first = await startCli(['--quiet', '--fixture', 'empty', '--state-file', file]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(((await post(`${first.url}/api/v1/sandboxes`)).body as { id: string }).id);
    first.proc.kill('SIGKILL');
    await first.exited;
    const second = await startCli(['--quiet', '--state-file', file]);
    const found = (await get(`${second.url}/api/v1/sandboxes?${ids.map((id) => `id=${id}`).join('&')}`)).body as ({ id: string } | null)[];
    expect(found.map((s) => s?.id)).toEqual(ids);
  });

  it('never writes a provider token to the file', async () => {
    const file = join(await tempDir(), 'state.json');
    const cli = await startCli(['--quiet', '--state-file', file]);
    await post(`${cli.url}/api/add-git-providers`, { provider_tokens: { github: { token: 'ghp_neverOnDisk' } } });
    expect(await readFile(file, 'utf8')).not.toContain('ghp_neverOnDisk');
  });

  it('refuses to start on a corrupt file, with a one-line error and exit code 2', async () => {
    const file = join(await tempDir(), 'state.json');
    await writeFile(file, '{"sandbox_specs": [');
    const { code, stderr } = await runCliInProcess(['serve', '--port', '0', '--state-file', file]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`fakehands: the state file ${file} is corrupt: not valid JSON`);
  });
});

describe('shutdown', () => {
  it('stops when `npm start` is sent SIGTERM (the parent goes, the server follows)', async () => {
    const { spawn } = await import('node:child_process');
    const npm = spawn('npm', ['start', '--silent', '--', '--port', '0', '--quiet', '--fixture', 'empty'], {
      cwd: new URL('../..', import.meta.url).pathname,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await new Promise<string>((resolve) => {
      let out = '';
      npm.stdout.on('data', (d: Buffer) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
    });
    expect((await fetch(`${url}/_fakehands/health`)).status).toBe(200);
    npm.kill('SIGTERM');
    await eventually(
      async () =>
        (await fetch(`${url}/_fakehands/health`).then(
          () => 'up',
          () => 'down',
        )) === 'down',
      5000,
    );
  });

  it('does not wait for an idle keep-alive connection to stop', async () => {
    const { Agent, request } = await import('node:http');
    const cli = await startCli(['--quiet']);
    const agent = new Agent({ keepAlive: true });
    await new Promise<void>((resolve) =>
      request(`${cli.url}/_fakehands/health`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      }).end(),
    );
    // The server holds an idle connection 300 s: had it waited for this one, the exit would come after this test's timeout.
    cli.proc.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    agent.destroy();
  });

  it('exits 0 on SIGINT, as on SIGTERM (the test above)', async () => {
    const cli = await startCli(['--quiet']);
    await get(`${cli.url}/api/v1/sandboxes/search`);
    cli.proc.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });
});

describe('bad start-up', () => {
  it.each([
    [['--port', '99999'], 'fakehands: invalid --port "99999": expected a port number 0-65535 (see fakehands serve --help)'],
    [
      ['--auth', 'maybe'],
      'fakehands: invalid --auth "maybe": Invalid option: expected one of "all"|"legacy"|"none" (see fakehands serve --help)',
    ],
    [['--latency', '300-100'], 'fakehands: invalid --latency "300-100": MIN must not exceed MAX (see fakehands serve --help)'],
    [['--bogus'], 'fakehands: unknown option --bogus (see fakehands serve --help)'],
  ])('%j exits 2 with one line', async (args, message) => {
    const { code, stderr } = await runCliInProcess(['serve', ...args]);
    expect(code).toBe(2);
    expect(stderr).toBe(`${message}\n`);
  });

  it('a bad fixture exits 2 naming the problem', async () => {
    const file = join(await tempDir(), 'bad.json');
    await writeFile(file, JSON.stringify({ sandbox_specs: [] }));
    const { code, stderr } = await runCliInProcess(['serve', '--port', '0', '--fixture', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(`fakehands: Failed to load the fixture at ${file}: sandbox_specs: a fixture needs at least one sandbox spec`);
  });

  it('a port in use exits 2 naming the port', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const { code, stderr } = await runCli(['serve', '--host', '127.0.0.1', '--port', String(port), '--agent-port', '0']);
    blocker.close();
    expect(code).toBe(2);
    expect(stderr).toBe(`fakehands: port ${port} on 127.0.0.1 is in use; pass --port 0 for a free one\n`);
  });

  it('--help and --version print and exit 0', async () => {
    const help = await runCli(['serve', '--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--host',
      '--port',
      '--api-key',
      '--auth',
      '--seed',
      '--fixture',
      '--timings',
      '--latency',
      '--state-file',
      '--cors',
      '--quiet',
      '--log',
    ]) {
      expect(help.stdout).toContain(option);
    }
    const version = await runCliInProcess(['--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('explains every command with --help: serve, verify, drift', async () => {
    expect((await runCliInProcess(['verify', '--help'])).stdout).toMatch(
      /^Usage: fakehands verify --base-url URL[\s\S]*FAKEHANDS_BASE_URL/,
    );
    expect((await runCliInProcess(['drift', '--help'])).stdout).toMatch(/^Usage: fakehands drift/);
    expect((await runCliInProcess(['serve', '--help'])).stdout).toContain('Usage: fakehands serve');
  });

  it('validates numbers and booleans in flags and environment variables with clear errors', async () => {
    expect(await runCliInProcess(['serve', '--port', '-1'])).toMatchObject({
      code: 2,
      stderr: 'fakehands: invalid --port: a value that starts with "-" is written --port=VALUE (see fakehands serve --help)\n',
    });
    expect(await runCliInProcess(['serve', '--port=-1'])).toMatchObject({
      code: 2,
      stderr: 'fakehands: invalid --port "-1": expected a port number 0-65535 (see fakehands serve --help)\n',
    });
    expect(await runCliInProcess(['serve'], { FAKEHANDS_QUIET: 'maybe' })).toMatchObject({
      code: 2,
      stderr: 'fakehands: invalid FAKEHANDS_QUIET "maybe": expected true or false (1/0, yes/no) (see fakehands serve --help)\n',
    });
    expect((await runCliInProcess(['serve', '--max-records', 'many'])).stderr).toMatch(/^fakehands: invalid --max-records "many": /);
  });

  it('knows which hosts are loopback (any other prints a warning at start-up)', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1']) expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) expect(isLoopback(host)).toBe(false);
  });
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of every endpoint, generated from the schemas', async () => {
    const cli = await shared();
    const { status, body } = await get(`${cli.url}/openapi.json`, {});
    expect(status).toBe(200);
    // One validator for both documents: building it (the OpenAPI 3.1 meta-schema) is most of its CPU.
    const validator = new Validator();
    const result = await validator.validate(body as Record<string, unknown>);
    expect({ valid: result.valid, errors: result.errors }).toEqual({ valid: true, errors: undefined });
    const broken = structuredClone(body) as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete broken.paths['/api/conversations']!.post!.responses;
    broken.paths['/api/conversations']!.post!.responses = 'none';
    expect((await validator.validate(broken)).valid).toBe(false);
    const document = body as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/api/conversations',
        '/api/add-git-providers',
        '/api/v1/app-conversations',
        '/api/v1/sandboxes/search',
        '/api/v1/sandboxes',
        '/api/v1/sandboxes/{sandbox_id}/pause',
        '/api/v1/sandboxes/{sandbox_id}/resume',
        '/api/v1/sandbox-specs/search',
      ]),
    );
    // Every route of the app server's table, once: the table is the one list (no count kept by hand).
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      apiRoutes
        .filter((route) => !route.internal)
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)\*?/g, '{$1}')}`)
        .sort(),
    );
    expect(document.paths['/api/conversations/{conversation_id}/upload-files']).toMatchObject({
      post: {
        requestBody: {
          content: {
            'multipart/form-data': { schema: { properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } } } },
          },
        },
      },
    });
  });
});
