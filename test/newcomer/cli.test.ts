/**
 * The newcomer's path through the `fakehands` command (issue 34): what `npm start` says about
 * the key, `--log json`, the inspector's icon, `--help`, and `fakehands.config.json`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { built } from '../support/built.js';
import { BIN, type RunningCli, eventually, startCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

// The schema of the command as built (dist/cli.bundle.js, what bin/fakehands.js runs), and the fake's own document as drift reads it.
const { ConfigFile } = await built('command');
const { fakeDocument } = await built('fakehands/drift');

/**
 * One `fakehands serve --auth none` (what `npm start` runs) for the two tests that read its banner and
 * its journal; the banner's test sends no request (issue 34: a start is 0.3 to 0.9 s of CPU).
 */
let npmStart: Promise<RunningCli> | undefined;
const asNpmStart = () => (npmStart ??= startCli(['--auth', 'none'], {}, { forSuite: true }));
afterAll(async () => {
  if (!npmStart) return;
  const cli = await npmStart;
  cli.proc.kill();
  await cli.exited;
});

/** Runs the binary in `cwd` to completion. */
const runIn = (cwd: string, args: string[]) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const proc = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
    });
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** Starts `fakehands serve` in `cwd` and resolves with its stdout once it listens (then stops it). */
const bannerIn = (cwd: string, args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (stdout.includes('agent server:')) {
        proc.kill();
        resolve(stdout);
      }
    });
    proc.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });

describe('the banner of fakehands serve (finding 5)', () => {
  it('finding 5: with --auth none (npm start) it says no key is checked, not "send it as X-Session-API-Key"', async () => {
    const cli = await asNpmStart();
    const lines = cli.stdout().split('\n');
    expect(lines[1]).toBe('API key: none checked (auth: none; --auth legacy or --auth all checks X-Session-API-Key)');
    expect(cli.stdout()).not.toContain('send it as');
  });

  it('finding 5: --api-key with --auth none is a one-line error, exit 2, naming the way out', async () => {
    expect(await runCliInProcess(['serve', '--auth', 'none', '--api-key', 'K'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'fakehands: --api-key is never checked with --auth none (npm start passes --auth none): add --auth legacy or --auth all to check it, or leave the key out (see fakehands serve --help)\n',
    });
  });

  it('finding 5: npm start -- --api-key K --auth legacy checks the key (the last --auth wins)', async () => {
    const cli = await startCli(['--auth', 'none', '--api-key', 'my-key', '--auth', 'legacy', '--quiet']);
    expect((await fetch(`${cli.url}/api/conversations`)).status).toBe(401);
    expect((await fetch(`${cli.url}/api/conversations`, { headers: { 'X-Session-API-Key': 'my-key' } })).status).toBe(200);
    expect(cli.stdout()).not.toContain('my-key');
  });
});

describe('--log json and the inspector (finding 6)', () => {
  it('finding 6: --log json prints JSON lines only, the banner included, and never the key', async () => {
    const cli = await startCli(['--log', 'json', '--api-key', 'chosen-key']);
    await fetch(`${cli.url}/api/v1/sandboxes/search`);
    await eventually(() => cli.stdout().includes('"msg":"request"'));
    const lines = cli.stdout().split('\n').filter(Boolean);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed[0]).toEqual({
      level: 'info',
      msg: 'listening',
      url: cli.url,
      agent_url: cli.agentUrl,
      control_api: `${cli.url}/_fakehands/`,
      openapi: `${cli.url}/openapi.json`,
      auth: 'legacy',
      api_key: 'custom',
    });
    expect(cli.stdout()).not.toContain('chosen-key');
  });

  it('finding 6: /favicon.ico answers 204 and stays out of the request journal and the log', async () => {
    const cli = await asNpmStart();
    const icon = await fetch(`${cli.url}/favicon.ico`);
    expect([icon.status, await icon.text()]).toEqual([204, '']);
    await fetch(`${cli.url}/api/v1/sandboxes/search`);
    const journal = (await (await fetch(`${cli.url}/_fakehands/requests`)).json()) as { requests: { path: string }[] };
    expect(journal.requests.map((r) => r.path)).toEqual(['/api/v1/sandboxes/search']);
    await eventually(() => cli.stdout().includes('GET /api/v1/sandboxes/search 200'));
    expect(cli.stdout()).not.toContain('favicon');
  });
});

describe('fakehands --help (finding 8)', () => {
  it("finding 8: lists the commands first, one line each, then how to get a command's options", async () => {
    const { code, stdout } = await runCliInProcess(['--help']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.slice(2, 12)).toEqual([
      'Usage: fakehands [COMMAND] [options]',
      '',
      'Commands:',
      '  serve    Serve the fake API and the agent host on localhost (the default command)',
      '  verify   Verify the Pact contracts against a running implementation (the fake or a real server)',
      "  drift    Compare the fake's OpenAPI document with a provider's, operation by operation",
      '  llm      Serve the scripted LLM (OpenAI and Anthropic APIs answering from agent scripts) for a real agent server',
      '  record   Record a real app server or agent server session through a proxy (HAR and conversation exports), to serve it offline',
      '  real     Install and start the real OpenHands agent server and app server (pinned, on loopback), for the differential suite',
      '  canvas   Serve Agent Canvas (npm @openhands/agent-canvas, fetched on first use) routed to the fake: local and cloud backends',
    ]);
    expect(lines[13]).toBe('Run `fakehands COMMAND --help` for the options of a command (`fakehands serve --help`).');
    expect(stdout).not.toContain('--state-file');
  });
});

describe('fakehands record --help and its flags', () => {
  it('prints every option of the command', async () => {
    const { code, stdout } = await runCliInProcess(['record', '--help']);
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 10)).toEqual([
      'Usage: fakehands record --target URL --out DIR [options]',
      '',
      '  --target URL        The real app server or agent server to record (http or https)',
      '  --out DIR           Folder the recording is written to (made when missing; one holding a recording is refused)',
      '  --port N            Port of the proxy (default 0: a free one; the address is printed)',
      '  --host H            Interface to bind (default 127.0.0.1)',
      '  --allowed-host N    Host names served besides loopback ones: NAME[,NAME] or * (others get 421, against DNS rebinding)',
      '  --max-bytes N       Most bytes the recording holds (default 268435456, 256 MiB); past it bodies, then exchanges, are no longer recorded, and it says so',
      '  --compare           Also ask an in-process fake every request and open every event socket on it; print each difference (answers, socket events) and write DIR/differences.jsonl',
      "  --agent-scripts F   The agent scripts the compared fake plays (a JSON array), as the real agent's scripted LLM does",
    ]);
  });

  it('refuses a missing or bad flag in one line, exit 2', async () => {
    expect(await runCliInProcess(['record', '--out', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: --target URL is required: the server to record (see fakehands record --help)\n',
    });
    expect(await runCliInProcess(['record', '--target', 'ftp://x', '--out', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: invalid --target "ftp://x": expected an http or https URL (see fakehands record --help)\n',
    });
    expect(await runCliInProcess(['record', '--target', 'http://127.0.0.1:1', '--out', 'x', '--max-bytes', '10'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: invalid --max-bytes "10": expected a whole number from 4096 to 9007199254740991 (see fakehands record --help)\n',
    });
    expect((await runCliInProcess(['record', '--target', 'http://127.0.0.1:1', '--out', 'x', '--nope'])).stderr).toBe(
      'fakehands: unknown option --nope (see fakehands record --help)\n',
    );
  });
});

describe('fakehands.config.json (finding 8)', () => {
  it('finding 8: serve reads the file in the working folder, and a flag wins over it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-config-'));
    await writeFile(
      join(dir, 'fakehands.config.json'),
      JSON.stringify({
        $schema: './node_modules/fakehands/fakehands.config.schema.json',
        port: 0,
        'agent-port': 0,
        auth: 'none',
        fixture: 'empty',
        quiet: true,
        latency: '0-1',
      }),
    );
    const banner = await bannerIn(dir, []);
    expect(banner).toContain('API key: none checked');
    expect(banner).toContain(`options from ${join(dir, 'fakehands.config.json')} (flags and environment variables win)`);
    const url = /listening on (\S+)/.exec(banner)![1]!;
    expect(url).not.toMatch(/:0$/);
    const overridden = await bannerIn(dir, ['--auth', 'all']);
    expect(overridden).toContain('send it as X-Session-API-Key (auth: all)');
  });

  it('finding 8: a bad file is one line and exit 2 naming the key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-config-'));
    const file = join(dir, 'fakehands.config.json');
    await writeFile(file, JSON.stringify({ port: 'three thousand' }));
    expect(await runIn(dir, ['serve'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'fakehands: invalid fakehands.config.json: "port": expected a port number 0-65535 (see fakehands serve --help)\n',
    });
    // The file's other errors in-process (the command's own work, where it looks for the file: dir).
    await writeFile(file, JSON.stringify({ prot: 3000 }));
    expect((await runCliInProcess(['serve'], {}, dir)).stderr).toBe(
      'fakehands: invalid fakehands.config.json: unknown option "prot" (see fakehands serve --help)\n',
    );
    await writeFile(file, '{ "port": 3000,');
    expect((await runCliInProcess(['serve'], {}, dir)).stderr).toMatch(
      /^fakehands: invalid fakehands\.config\.json: not valid JSON \(.+\) \(see fakehands serve --help\)\n$/,
    );
    await writeFile(file, JSON.stringify({ 'api-key': 'k', auth: 'none' }));
    expect((await runCliInProcess(['serve'], {}, dir)).stderr).toBe(
      'fakehands: "api-key" of fakehands.config.json is never checked with --auth none (npm start passes --auth none): add --auth legacy or --auth all to check it, or leave the key out (see fakehands serve --help)\n',
    );
  });

  it('finding 8: the committed JSON schema for editors is the one generated from the zod schema', async () => {
    const committed = JSON.parse(await readFile(new URL('../../fakehands.config.schema.json', import.meta.url), 'utf8')) as {
      properties: Record<string, { description?: string }>;
    };
    expect(committed).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(ConfigFile, { io: 'input' }))));
    expect(Object.keys(committed.properties)).toEqual(
      expect.arrayContaining(['port', 'agent-port', 'api-key', 'auth', 'fixture', 'timings', 'log', 'state-file']),
    );
    expect(committed.properties.auth!.description).toMatch(/^legacy/);
  });
});

describe('fakehands drift for a consumer (finding 7)', () => {
  const REAL_V1 = 'test/drift/real-app-server.openapi.json';
  const REAL_V0 = 'test/drift/real-app-server-v0.openapi.json';

  it('finding 7: the V1 document alone reports no legacy route as "provider absent"; they are counted as not covered', async () => {
    const both = await runCliInProcess(['drift', '--spec', REAL_V1, '--spec', REAL_V0]);
    const alone = await runCliInProcess(['drift', '--spec', REAL_V1]);
    expect(alone.stdout.split('\n').filter((line) => line.includes('operation: provider absent') && !line.includes('[known: '))).toEqual(
      [],
    );
    expect(alone.stdout).toMatch(
      /\n {2}operations: \d+ compared, 0 of the provider's not served by the fake, \d+ of the fake's under paths no given document covers \(not compared; give that document with another --spec\)\n/,
    );
    expect(alone.code).toBe(both.code);
  });

  it('finding 7: the fake against itself asks nobody to edit a file of the installed package, and says what its numbers mean', async () => {
    // The fake's document as GET /openapi.json serves it (test/drift/drift.test.ts drifts the served one).
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-drift-'));
    const own = join(dir, 'own.json');
    await writeFile(own, JSON.stringify(fakeDocument()));
    const { code, stdout } = await runCliInProcess(['drift', '--spec', own]);
    expect(code).toBe(0);
    expect(stdout).not.toContain('known-differences.ts');
    expect(stdout).not.toContain('stale declaration:');
    const summary = stdout.trim().split('\n').slice(-3);
    expect(summary[0]).toBe(
      'drift: 0 undeclared difference(s) (the check passes with 100.0% of facts agreeing and 0.0% differing as declared), 0 declared (known, with a reason), 0 stale declaration(s) of yours',
    );
    expect(summary[2]).toMatch(
      /^ {2}facts of the compared operations: (\d+) of \1 agree \(100\.0%\), 0 differ as declared \(0\.0%\), 0 undeclared \(0\.0%\); \d+ of fakehands' own declarations did not apply \(nothing to do: your document agrees with the fake there\)$/,
    );
  });

  it('finding 7: --known FILE declares your own differences (reported with their reason, exit 0); a stale one names FILE', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-drift-'));
    const doc = JSON.parse(await readFile(REAL_V1, 'utf8')) as { paths: Record<string, unknown> };
    delete doc.paths['/api/v1/sandbox-specs/search'];
    const spec = join(dir, 'ours.json');
    await writeFile(spec, JSON.stringify(doc));
    const known = join(dir, 'drift-known.json');
    await writeFile(
      known,
      JSON.stringify([
        { operation: 'GET /api/v1/sandbox-specs/search', location: 'operation', reason: 'our server lists no sandbox specs' },
        { operation: 'GET /api/v1/sandboxes/search', location: 'response items[].nickname', reason: 'an old one' },
      ]),
    );
    const without = await runCliInProcess(['drift', '--spec', spec, '--spec', REAL_V0]);
    expect(without.code).toBe(1);
    const { code, stdout } = await runCliInProcess(['drift', '--spec', spec, '--spec', REAL_V0, '--known', known]);
    expect(stdout).toContain(
      'GET /api/v1/sandbox-specs/search → operation: provider absent, fake served [known: our server lists no sandbox specs]',
    );
    expect(stdout).toContain(
      `stale declaration: GET /api/v1/sandboxes/search → response items[].nickname no longer differs; remove it from ${known}`,
    );
    expect(stdout).toMatch(
      /\ndrift: 0 undeclared difference\(s\) \(the check passes with \d+\.\d% of facts agreeing and \d+\.\d% differing as declared\), \d+ declared \(known, with a reason\), 1 stale declaration\(s\) of yours\n/,
    );
    expect(code).toBe(0);
  });

  it('finding 7: a bad --known file is one line and exit 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-drift-'));
    const known = join(dir, 'known.json');
    await writeFile(known, JSON.stringify([{ operation: 'sandboxes', location: 'x', reason: 'r' }]));
    expect(await runCliInProcess(['drift', '--spec', REAL_V1, '--known', known])).toEqual({
      code: 2,
      stdout: '',
      stderr: `fakehands: invalid --known ${known}: [0].operation: expected "METHOD /path" (expected [{"operation": "METHOD /path", "location", "aspect"?, "reason"}])\n`,
    });
  });
});
