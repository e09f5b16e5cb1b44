/**
 * Hardening, round two: each finding of the attack on the server has a test that failed before
 * its fix. No accepted state is unloadable; reset reads no file it should not; the Host header is
 * checked; no input gets a 5xx; limits hold; the state file is private, tidy and free of secrets.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { FakeCore } from '../../src/index.js';
import { built } from '../support/built.js';
import { startCli, type RunningCli } from '../support/cli.js';

/**
 * The fake as users load it, the built package (rebuilt from src/ by the global setup when older):
 * Node loads it, where vite would transform src/ for this file alone (issue 34; vitest.config.ts).
 */
const { createFake, createFakeCore, createSystemClock } = await built('fakehands');
const SERVER_ENTRY = 'fakehands/server';
const { createFakeServer, readStateFile } = (await import(/* @vite-ignore */ SERVER_ENTRY)) as typeof import('../../src/server.js');

const KEY = 'hardening-key';
const headers = { 'x-session-api-key': KEY, 'content-type': 'application/json' };
const ARGS = ['--quiet', '--timings', 'instant', '--fixture', 'empty', '--api-key', KEY];
const start = (extra: string[] = []) => startCli([...ARGS, ...extra]);
/**
 * One server with the default flags, started once for the tests that need no state of their own (each
 * reads back only what it sent itself): a process start less per test (issue 34). Killed after the file.
 */
let sharedCli: Promise<RunningCli> | undefined;
const shared = () => (sharedCli ??= startCli(ARGS, {}, { forSuite: true }));
afterAll(async () => {
  const cli = await sharedCli?.catch(() => undefined);
  cli?.proc.kill('SIGKILL');
  await cli?.exited;
});
const call = async (url: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...headers, ...extra },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : undefined) as unknown, headers: response.headers };
};
const tempDir = () => mkdtemp(join(tmpdir(), 'fakehands-hardening-'));

/**
 * Writes raw bytes to the server and resolves with everything it answers before closing; with
 * `until`, the client hangs up itself once what arrived matches it (a condition, never a delay).
 */
function raw(url: string, text: string, until?: RegExp): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.on('data', (d) => {
      data += d;
      if (until?.test(data)) socket.destroy();
    });
    socket.on('error', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.write(text);
  });
}

describe('1. every accepted state can be saved and loaded', () => {
  it('a start request naming an unknown parent is a 400 and stores nothing', async () => {
    const fake = await createFake({ auth: 'none', fixture: 'empty' });
    const answer = await fake.fetch(
      new Request('http://localhost:3000/api/v1/app-conversations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ parent_conversation_id: '00000000000040008000000000000000' }),
      }),
    );
    expect(answer.status).toBe(400);
    expect((await fake.snapshot()).start_tasks).toEqual([]);
  });

  it('deleting the parent of a sub-conversation leaves a state file that loads after a restart', async () => {
    const file = join(await tempDir(), 'state.json');
    const first = await start(['--state-file', file]);
    const task = (await call(first.url, 'POST', '/api/v1/app-conversations', {})).body as { id: string };
    const [parent] = (await call(first.url, 'GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`)).body as {
      app_conversation_id: string;
    }[];
    const child = (await call(first.url, 'POST', '/api/v1/app-conversations', { parent_conversation_id: parent!.app_conversation_id }))
      .body as { id: string };
    await call(first.url, 'GET', `/api/v1/app-conversations/start-tasks?ids=${child.id}`);
    expect((await call(first.url, 'DELETE', `/api/conversations/${parent!.app_conversation_id}`)).body).toBe(true);
    first.proc.kill('SIGKILL');
    await first.exited;
    const second = await start(['--state-file', file]);
    const conversations = (await call(second.url, 'GET', '/api/v1/app-conversations/search?include_sub_conversations=true')).body as {
      items: { parent_conversation_id: string }[];
    };
    expect(conversations.items.map((c) => c.parent_conversation_id)).toEqual([parent!.app_conversation_id]);
  });

  it('whatever sequence of requests is accepted, the snapshot loads again (property-based, fixed seed)', { timeout: 180_000 }, async () => {
    const step = fc.constantFrom(
      ['POST', '/api/v1/sandboxes', undefined],
      ['POST', '/api/conversations', {}],
      ['POST', '/api/conversations', { conversation_id: '' }],
      [
        'POST',
        '/api/v1/app-conversations',
        {
          secrets: { K: 'v' },
          processors: [
            { kind: 'JiraV1CallbackProcessor', svc_acc_email: 'a@b', decrypted_api_key: 'k', issue_key: 'X-1', jira_cloud_id: 'c' },
          ],
        },
      ],
      ['DELETE', '/api/conversations/{last}', undefined],
      ['POST', '/api/v1/sandboxes/{sandbox}/pause', undefined],
      ['DELETE', '/api/v1/sandboxes/{sandbox}?sandbox_id={sandbox}', undefined],
      ['POST', '/api/v1/app-conversations', { parent_conversation_id: '{last}' }],
      [
        'POST',
        '/api/add-git-providers',
        {
          provider_tokens: { github: { token: 't', host: null } },
          mcp_config: { stdio_servers: [{ name: 'x', command: 'y', env: { A: 1 } }] },
        },
      ],
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 12 }), async (steps) => {
        const fake = await createFake({ auth: 'none', fixture: 'empty', timings: 'instant' });
        let last = '00000000000040008000000000000000';
        let sandbox = 'none';
        for (const [method, path, body] of steps as [string, string, unknown][]) {
          const target = path.replaceAll('{last}', last).replaceAll('{sandbox}', sandbox);
          const payload = body === undefined ? undefined : JSON.stringify(body).replaceAll('{last}', last);
          const response = await fake.fetch(
            new Request(`http://localhost:3000${target}`, { method, headers: { 'content-type': 'application/json' }, body: payload }),
          );
          const answer = (await response.json()) as Record<string, unknown>;
          expect(response.status).toBeLessThan(500);
          if (typeof answer.conversation_id === 'string') last = answer.conversation_id;
          const searched = (await (
            await fake.fetch(new Request('http://localhost:3000/api/v1/app-conversations/search?include_sub_conversations=true'))
          ).json()) as { items: { id: string; sandbox_id: string }[] };
          if (searched.items[0]) last = searched.items[0].id;
          const sandboxes = (await (await fake.fetch(new Request('http://localhost:3000/api/v1/sandboxes/search'))).json()) as {
            items: { id: string }[];
          };
          sandbox = sandboxes.items[0]?.id ?? sandbox;
        }
        const snapshot = await fake.snapshot();
        // Loaded as a fixture, as a state file is: every record checked again.
        await createFake({ auth: 'none', fixture: JSON.parse(JSON.stringify(snapshot)) as typeof snapshot });
      }),
      { numRuns: 40, seed: 13 },
    );
  });
});

describe('2. reset reads only fixtures by name', () => {
  it('loads NAME.json of --fixtures-dir, refuses a FIFO or a link without hanging, never quotes content, and a failed reset changes nothing', async () => {
    const dir = await tempDir();
    await writeFile(
      join(dir, 'two.json'),
      JSON.stringify({
        sandbox_specs: [{ id: 'spec', command: null, created_at: '2025-01-01T00:00:00Z', initial_env: {}, working_dir: '/w' }],
        sandboxes: [],
      }),
    );
    await writeFile(join(dir, 'bad.json'), 'SECRET-FIRST-LINE\n{');
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    await symlink('/etc/passwd', join(dir, 'link.json'));
    const cli = await start(['--fixtures-dir', dir]);
    await call(cli.url, 'POST', '/api/v1/sandboxes');
    for (const name of ['pipe', 'link', 'bad', 'nope']) {
      const answer = await call(cli.url, 'POST', '/_fakehands/reset', { fixture: name });
      expect(answer.status).toBe(422);
      expect(answer.text).not.toContain('SECRET-FIRST-LINE');
      expect(answer.text).not.toContain('root:');
    }
    expect(((await call(cli.url, 'GET', '/_fakehands/state')).body as { sandboxes: unknown[] }).sandboxes).toHaveLength(1);
    expect((await call(cli.url, 'POST', '/_fakehands/reset', { fixture: 'two' })).status).toBe(200);
    expect(
      ((await call(cli.url, 'GET', '/api/v1/sandbox-specs/search')).body as { items: { id: string }[] }).items.map((s) => s.id),
    ).toEqual(['spec']);
    expect((await call(cli.url, 'POST', '/_fakehands/reset', {})).status).toBe(200);
    expect((await call(cli.url, 'GET', '/_fakehands/health')).status).toBe(200);
  });
});

describe('3. the Host header is checked', () => {
  it('serves loopback names, answers 421 in the documented shape for any other, and serves names given with --allowed-host', async () => {
    const cli = await shared();
    const asHost = (host: string) => raw(cli.url, `GET /_fakehands/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    expect(await asHost('localhost:3000')).toMatch(/^HTTP\/1\.1 200/);
    expect(await asHost('127.0.0.1')).toMatch(/^HTTP\/1\.1 200/);
    const rebound = await asHost('attacker.example:3000');
    expect(rebound).toMatch(/^HTTP\/1\.1 421/);
    expect(JSON.parse(/\{.*\}/.exec(rebound)![0])).toEqual({
      detail: 'Misdirected Request: this host name is not served (fakehands serves loopback names; add others with --allowed-host)',
    });
    const allowed = await start(['--allowed-host', 'fake.test']);
    expect(await raw(allowed.url, 'GET /_fakehands/health HTTP/1.1\r\nHost: fake.test\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 200/,
    );
  });
});

describe('4. no 5xx from any input', () => {
  it('answers each input that used to be a 500 with a 4xx in the real format', async () => {
    const cli = await shared();
    expect((await call(cli.url, 'GET', '/api/v1/app-conversations/count?created_at__gte=253402300800')).body).toMatchObject({
      detail: [{ type: 'datetime_from_date_parsing', loc: ['query', 'created_at__gte'] }],
    });
    const empty = await call(cli.url, 'POST', '/api/conversations', { conversation_id: '' });
    expect(empty).toMatchObject({ status: 200, body: { status: 'ok', conversation_id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    const many = await call(cli.url, 'POST', '/api/v1/app-conversations', { pr_number: Array(1_500).fill('a') });
    expect(many.status).toBe(422);
    expect((many.body as { detail: unknown[] }).detail).toHaveLength(100);
    // Past 2,000 values the body is refused before it is parsed: bounded work (round three, finding 6).
    const huge = await call(cli.url, 'POST', '/api/v1/app-conversations', { pr_number: Array(130_000).fill('a') });
    expect(huge).toMatchObject({
      status: 422,
      body: {
        detail: [
          {
            type: 'too_long',
            loc: ['body'],
            msg: 'Body should have at most 2000 values (lists, maps, their items and entries)',
            input: {},
            ctx: { max_length: 2000 },
          },
        ],
      },
    });
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const path of ['/_fakehands/reset', '/_fakehands/clock', '/_fakehands/faults']) {
      expect((await call(cli.url, 'POST', path, `{"x": ${deep}}`)).status).toBe(422);
    }
    expect((await call(cli.url, 'GET', '/_fakehands/faults')).status).toBe(200);
  });

  it('moves the clock a year at a time up to the last instant a date can hold, refuses the move past it with a 422, and a create there answers 200', async () => {
    // Through the fake's own fetch (the same control route, without a socket each way), on the
    // dev server's kind of clock (wall-clock time plus what moves add) set ten years before the end:
    // from today the same moves would take about 8,000 calls, with the same answers (issue 34).
    const clock = createSystemClock();
    clock.set(Date.parse('9990-01-01T00:00:00.000Z'));
    const fake = await createFake({ fixture: 'empty', timings: 'instant', apiKey: KEY, clock });
    const local = async (method: string, path: string, body?: unknown) => {
      const response = await fake.fetch(
        new Request(`http://localhost:3000${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
      );
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const statuses: number[] = [];
    let refused: { status: number; body: unknown } | undefined;
    while (!refused && statuses.length < 20) {
      const moved = await local('POST', '/_fakehands/clock', { advance_ms: 365 * 24 * 3600 * 1000 });
      statuses.push(moved.status);
      if (moved.status !== 200) refused = moved;
    }
    // Every move answered 200 until the one past the last instant, answered 422 in FastAPI's shape.
    expect(statuses).toEqual([...Array(statuses.length - 1).fill(200), 422]);
    expect(refused).toMatchObject({ body: { detail: [{ type: 'less_than_equal', loc: ['body', 'advance_ms'] }] } });
    expect(((await local('GET', '/_fakehands/clock')).body as { now: string }).now.slice(0, 4)).toBe('9999');
    expect((await local('POST', '/api/v1/sandboxes')).status).toBe(200);
    expect((await local('POST', '/_fakehands/reset', {})).status).toBe(200);
  });

  it('answers what the HTTP parser refuses (a 100 KB query string, an unknown method) in the documented JSON shape', async () => {
    const cli = await shared();
    const long = await raw(cli.url, `GET /api/v1/sandboxes/search?x=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1\.1 431/);
    expect(JSON.parse(/\{.*\}/.exec(long)![0])).toEqual({ detail: 'Request Header Fields Too Large' });
    const method = await raw(cli.url, 'BREW /api/v1/sandboxes HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(JSON.parse(/\{.*\}/.exec(method)![0])).toEqual({ detail: 'Bad Request' });
  });

  it('a 5xx that still happens is answered with a request id, logged and journaled', async () => {
    const fake = await createFakeCore({ auth: 'none', fixture: 'empty' });
    const errors: { request_id: string; error: string }[] = [];
    const broken: FakeCore = {
      ...fake,
      answer: async () => {
        throw new Error('boom');
      },
    };
    const server = createFakeServer(broken, { onError: (line) => void errors.push(line) });
    const url = await server.listen(0, '127.0.0.1');
    try {
      const answer = await fetch(`${url}/api/v1/sandboxes/search`);
      const requestId = answer.headers.get('x-request-id')!;
      expect([answer.status, await answer.json()]).toEqual([500, { detail: `Internal Server Error (request id ${requestId})` }]);
      expect(errors).toEqual([{ request_id: requestId, method: 'GET', path: '/api/v1/sandboxes/search', error: 'boom' }]);
      expect(fake.journal.entries().at(-1)).toMatchObject({ method: 'GET', path: '/api/v1/sandboxes/search', status: 500 });
    } finally {
      await server.close();
    }
  });
});

describe('5. limits', () => {
  it('checks the key before reading a body: a keyless client sending a big body is answered 401 before it finishes', async () => {
    const cli = await shared();
    const answer = raw(
      cli.url,
      `POST /api/conversations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"repository": "`,
      /\r\n\r\n\{"detail":"Unauthorized"\}/,
    );
    expect(await answer).toMatch(/^HTTP\/1\.1 401[\s\S]*\{"detail":"Unauthorized"\}/);
  });

  it('keeps a 422 small: a 200 KB body answers at most 100 items with inputs cut at 1 KiB', async () => {
    const cli = await shared();
    const answer = await call(cli.url, 'POST', '/api/conversations', {
      mcp_config: { sse_servers: Array(2000).fill({ url: 1, api_key: 'x'.repeat(100) }) },
      repository: 'y'.repeat(100_000),
      git_provider: 'z'.repeat(50_000),
    });
    expect(answer.status).toBe(422);
    expect(answer.text.length).toBeLessThan(200_000);
  });

  it('refuses a body over the limit with 413, and closes a client whose body stalls with 408', async () => {
    const cli = await start(['--max-body-kb', '4', '--body-timeout-ms', '300']);
    expect((await call(cli.url, 'POST', '/api/conversations', { repository: 'x'.repeat(5000) })).status).toBe(413);
    const stalled = await raw(
      cli.url,
      `POST /api/conversations HTTP/1.1\r\nHost: localhost\r\nX-Session-API-Key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"repo`,
    );
    expect(stalled).toMatch(/^HTTP\/1\.1 408[\s\S]*\{"detail":"Request body timeout"\}/);
  });

  it('answers health while big bodies are still arriving', async () => {
    const cli = await shared();
    const { port } = new URL(cli.url);
    // Six uploads of 1 MB that stop half-way: they are still arriving (unanswered, open) until the client hangs up.
    const uploads = Array.from({ length: 6 }, () => {
      const socket = connect(Number(port), '127.0.0.1');
      const upload = { socket, answered: false };
      socket.on('error', () => undefined);
      socket.on('data', () => {
        upload.answered = true;
      });
      socket.on('close', () => {
        upload.answered = true;
      });
      socket.write(
        `POST /api/conversations HTTP/1.1\r\nHost: localhost\r\nX-Session-API-Key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"repository": "${'a'.repeat(500_000)}`,
      );
      return upload;
    });
    try {
      const health = await call(cli.url, 'GET', '/_fakehands/health');
      expect(health.status).toBe(200);
      // Health was answered while every upload was still waiting for the rest of its body.
      expect(uploads.map((u) => u.answered)).toEqual(Array(6).fill(false));
    } finally {
      for (const u of uploads) u.socket.destroy();
    }
  });

  it('caps the store: past --max-records a create answers 507 in the documented shape and changes nothing', async () => {
    const cli = await start(['--max-records', '4']);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await call(cli.url, 'POST', '/api/v1/sandboxes')).status);
    expect(statuses).toEqual([200, 200, 200, 507, 507]);
    const refused = await call(cli.url, 'POST', '/api/conversations', {});
    expect(refused).toMatchObject({ status: 507, body: { detail: expect.stringContaining('Insufficient Storage') } });
    expect(((await call(cli.url, 'GET', '/api/v1/sandboxes/search')).body as { items: unknown[] }).items).toHaveLength(3);
  });
});

describe('6. state file hygiene', () => {
  it('is private (0600), removes the temp files a crash left, and holds no secret of any type', async () => {
    const dir = await tempDir();
    const file = join(dir, 'state.json');
    await writeFile(`${file}.deadbeef.tmp`, 'left by a crash');
    const cli = await start(['--state-file', file]);
    await call(cli.url, 'POST', '/api/add-git-providers', {
      provider_tokens: { github: { token: 'ghp_hygiene' } },
      mcp_config: {
        stdio_servers: [{ name: 's', command: 'run', args: ['--token', 'argsecret', 'API_KEY=argsecret2'], env: { TOKEN: 'envsecret' } }],
        shttp_servers: [{ url: 'https://m', api_key: 'mcpsecret' }],
      },
    });
    const task = await call(cli.url, 'POST', '/api/v1/app-conversations', {
      secrets: { STRIPE: 'sk_secret' },
      processors: [
        { kind: 'JiraV1CallbackProcessor', svc_acc_email: 'a@b.c', decrypted_api_key: 'jirasecret', issue_key: 'X-1', jira_cloud_id: 'c' },
      ],
    });
    expect(task.text).not.toMatch(/sk_secret|jirasecret/);
    const numeric = await call(cli.url, 'POST', '/api/add-git-providers', {
      mcp_config: { shttp_servers: [{ url: 5, api_key: 123456789 }], stdio_servers: [{ name: 's', command: 'c', env: { A: 987654321 } }] },
    });
    expect(numeric.status).toBe(422);
    expect(numeric.text).not.toMatch(/123456789|987654321/);
    expect((await readdir(dir)).sort()).toEqual(['state.json', 'state.json.log']);
    for (const name of ['state.json', 'state.json.log']) expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    const onDisk = `${await readFile(file, 'utf8')}${await readFile(`${file}.log`, 'utf8')}`;
    const snapshot = (await call(cli.url, 'GET', '/_fakehands/state')).text;
    for (const secret of ['ghp_hygiene', 'argsecret', 'argsecret2', 'envsecret', 'mcpsecret', 'sk_secret', 'jirasecret']) {
      expect(onDisk).not.toContain(secret);
      expect(snapshot).not.toContain(secret);
    }
    expect((await readStateFile(file)) as object).toMatchObject({ start_tasks: [{ request: { secrets: { STRIPE: '**********' } } }] });
  });
});
