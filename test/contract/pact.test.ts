/**
 * Contracts: written into a temporary folder by the consumer tests and compared with the committed contracts/, then verified with the real
 * `fakehands verify` command against the standalone fake (must pass) and against deliberately
 * broken providers (each must fail, naming the broken interaction).
 *
 * A verification costs about 3 s of CPU for the 41 interactions, more through the command (two
 * processes, Pact loaded in the second), so (issue 34): the four breakages that each break their
 * own interactions share one run of the command over all 41 (which proves too that nothing else
 * fails); a test about a few interactions verifies a pact of those and one that must pass; a test
 * not about the command's own output runs `verifyProvider` in this process; the fakes behind the
 * broken providers run in this process too. The standalone fake (`fakehands serve`) is verified
 * whole, through the command, as the README says to.
 */
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_PROVIDER_NAME, CONTRACTS_DIR, PROVIDER_NAME, verifyProvider } from '../../src/pact/verify.js';
import type { FakeServers } from '../../src/server/start.js';
import { startBrokenProvider, startDyingProvider, type Breakage } from '../support/broken-provider.js';
import { runCli, startCli } from '../support/cli.js';
import { writeContracts } from './consumer.js';

/** Interactions the contracts hold: one per behaviour a client relies on (the app server's, the agent server's). */
const APP_INTERACTIONS = 23;
const AGENT_INTERACTIONS = 18;
const EXPECTED_INTERACTIONS = APP_INTERACTIONS + AGENT_INTERACTIONS;
const CONTRACT_FILE = join(CONTRACTS_DIR, `fakehands-client-${PROVIDER_NAME}.json`);
const AGENT_CONTRACT_FILE = join(CONTRACTS_DIR, `fakehands-client-${AGENT_PROVIDER_NAME}.json`);
const KEY = 'verify-key';

/** The standalone fake as a provider under test: instant timings, nothing but the default spec. */
const startStandalone = () => startCli(['--quiet', '--timings', 'instant', '--fixture', 'empty', '--api-key', KEY]);
/** `fakehands verify` (the command, as a user runs it) against the provider at `url`. */
const verify = (url: string, extra: string[] = []) => runCli(['verify', '--base-url', url, '--api-key', KEY, ...extra]);

/**
 * The fakes behind the broken providers come from the built package (rebuilt from src/ by the global
 * setup when older), as the command's do: Node loads it, where vite would transform the whole fake
 * in src/ for this file alone (issue 34; vitest.config.ts).
 */
const SERVER_ENTRY = 'fakehands/server';
const { startFakeServers } = (await import(/* @vite-ignore */ SERVER_ENTRY)) as typeof import('../../src/server.js');

const started: FakeServers[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((servers) => servers.close()));
});
/**
 * What `fakehands serve --timings instant --fixture empty --api-key KEY` serves, started in this
 * process (without a process of its own to start): the fake behind a broken provider. Closed after the test.
 */
async function startProvider(auth?: 'none'): Promise<FakeServers> {
  const servers = await startFakeServers({ fake: { fixture: 'empty', timings: 'instant', apiKey: KEY, ...(auth ? { auth } : {}) } });
  started.push(servers);
  return servers;
}

/** `verifyProvider` in this process, its report kept: for tests about what it finds, not about the command's output. */
async function verifyHere(baseUrl: string, pactFiles: string[] | undefined, extra: { stateTimeoutMs?: number; apiKey?: string } = {}) {
  const lines: string[] = [];
  const result = await verifyProvider({
    baseUrl,
    apiKey: KEY,
    ...(pactFiles ? { pactFiles } : {}),
    report: (line) => lines.push(line),
    ...extra,
  });
  return { ...result, lines };
}

/**
 * Pact files holding only the interactions described (each must be in the committed contracts),
 * one per provider that has any, in a folder of their own: for a test about a few interactions.
 */
async function pactsOf(descriptions: string[]): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'pacts-'));
  const files: string[] = [];
  const found: string[] = [];
  for (const committed of [CONTRACT_FILE, AGENT_CONTRACT_FILE]) {
    const pact = JSON.parse(await readFile(committed, 'utf8')) as { interactions: { description: string }[] };
    pact.interactions = pact.interactions.filter((i) => descriptions.includes(i.description));
    if (pact.interactions.length === 0) continue;
    found.push(...pact.interactions.map((i) => i.description));
    files.push(join(dir, basename(committed)));
    await writeFile(files.at(-1)!, JSON.stringify(pact));
  }
  expect(found.sort(), 'an interaction named is not in the contracts').toEqual([...descriptions].sort());
  return files;
}

/** The description of every interaction the verifier listed as failed (those of one provider, when named). */
function failedInteractions(stdout: string, provider?: string): string[] {
  // Pact reports the failures of each provider's run (the app server's, the agent server's) after that run.
  const failures = stdout
    .split(/^Failures:$/m)
    .slice(1)
    .join('\n');
  return [...failures.matchAll(/^\d+\) Verifying a pact between \S+ and (\S+)(?: Given .+?)? - (.+)$/gm)]
    .filter((m) => provider === undefined || m[1] === provider)
    .map((m) => m[2]!.trim());
}

describe('consumer contracts', () => {
  it('regenerate, in a folder of their own, exactly the committed contracts/ (run `npm run contracts` after changing them)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-contracts-'));
    expect(await writeContracts(dir)).toBe(EXPECTED_INTERACTIONS);
    expect((await readdir(dir)).filter((f) => f.endsWith('.json')).sort()).toEqual([
      `fakehands-client-${PROVIDER_NAME}.json`,
      `fakehands-client-${AGENT_PROVIDER_NAME}.json`,
    ]);
    for (const [file, committed, count] of [
      [`fakehands-client-${PROVIDER_NAME}.json`, CONTRACT_FILE, APP_INTERACTIONS],
      [`fakehands-client-${AGENT_PROVIDER_NAME}.json`, AGENT_CONTRACT_FILE, AGENT_INTERACTIONS],
    ] as const) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(
        JSON.parse(text),
        'the committed contracts differ from what the consumer tests write: run `npm run contracts` and commit',
      ).toEqual(JSON.parse(await readFile(committed, 'utf8')));
      expect((JSON.parse(text) as { interactions: unknown[] }).interactions).toHaveLength(count);
      expect(text.toLowerCase()).not.toContain('x-session-api-key');
      expect(text).not.toContain('consumer-test-key');
    }
    const endpoints = async (file: string) => {
      const pact = JSON.parse(await readFile(file, 'utf8')) as { interactions: { request: { method: string; path: string } }[] };
      return [
        ...new Set(
          pact.interactions.map(
            (i) =>
              `${i.request.method} ${i.request.path.replace(/oh-agent-server-\w+/, '{id}').replace(/[0-9a-f]{32}|[0-9a-f-]{36}/, '{cid}')}`,
          ),
        ),
      ].sort();
    };
    expect(await endpoints(CONTRACT_FILE)).toEqual(
      [
        'DELETE /api/v1/app-conversations/{cid}',
        'GET /api/v1/app-conversations',
        'GET /api/v1/app-conversations/search',
        'GET /api/v1/app-conversations/{cid}/file',
        'GET /api/v1/sandbox-specs/search',
        'GET /api/v1/sandboxes',
        'GET /api/v1/sandboxes/search',
        'PATCH /api/v1/app-conversations/{cid}',
        'POST /api/add-git-providers',
        'POST /api/conversations',
        'POST /api/v1/app-conversations',
        'POST /api/v1/app-conversations/{cid}/send-message',
        'POST /api/v1/sandboxes',
        'POST /api/v1/sandboxes/{id}/pause',
        'POST /api/v1/sandboxes/{id}/resume',
      ].sort(),
    );
    // The agent REST calls of the Nov 2025 web client (v1-conversation-service.api.ts, event-service.api.ts, v1-git-service.api.ts),
    // and Agent Canvas's through the TypeScript client: start a conversation, interrupt, settings, profiles, the shell (issue 31).
    expect(await endpoints(AGENT_CONTRACT_FILE)).toEqual(
      [
        'POST /api/conversations',
        'POST /api/conversations/{cid}/interrupt',
        'GET /api/settings',
        'PATCH /api/settings',
        'GET /api/profiles',
        'POST /api/bash/execute_bash_command',
        'GET /api/bash/bash_events/search',
        'GET /api/conversations/{cid}',
        'GET /api/conversations/{cid}/events/search',
        'GET /api/git/changes',
        'GET /api/git/diff',
        'GET /api/vscode/url',
        'POST /api/conversations/{cid}/events',
        'POST /api/conversations/{cid}/events/respond_to_confirmation',
        'POST /api/conversations/{cid}/pause',
        'POST /api/conversations/{cid}/run',
        'POST /api/file/upload',
      ].sort(),
    );
  });
});

/**
 * How long one verification may take in a test: a run takes about 20 s alone, several times that on
 * two busy cores beside the rest of the suite (#29 finding 17: 30 s was too little).
 */
const VERIFY_TIMEOUT_MS = 240_000;

/** The lines after the verifier's own report: the summary `fakehands verify` ends with. */
const summary = (stdout: string) =>
  stdout
    .slice(stdout.lastIndexOf('\nfakehands verify: ') + 1)
    .trimEnd()
    .split('\n');

/**
 * One verification of the committed contracts against a fresh standalone fake, and what the fake
 * holds right after: two tests read it, so the verifier runs once for both.
 */
let committedRun: Promise<{ code: number | null; stdout: string; sandboxes: unknown[] }> | undefined;
const verifyCommitted = () =>
  (committedRun ??= (async () => {
    const provider = await startStandalone();
    const { code, stdout } = await verify(provider.url);
    const state = (await (await fetch(`${provider.url}/_fakehands/state`, { headers: { 'x-session-api-key': KEY } })).json()) as {
      sandboxes: unknown[];
    };
    return { code, stdout, sandboxes: state.sandboxes };
  })());

/** Breakages of the app server, each of its own interactions (which the table names), all applied by one provider. */
const broken: [string, Breakage, string[]][] = [
  [
    'answers pause with the wrong shape',
    (req, answer) => (req.path.endsWith('/pause') && answer.status === 200 ? { status: 200, body: { paused: true } } : null),
    ['a request to pause a running sandbox'],
  ],
  [
    'loses the session_api_key field of a sandbox',
    (req, answer) =>
      req.method === 'GET' && req.path === '/api/v1/sandboxes' && Array.isArray(answer.body)
        ? {
            status: 200,
            body: answer.body.map((s: Record<string, unknown> | null) => {
              if (!s) return s;
              const { session_api_key: _gone, ...rest } = s;
              return rest;
            }),
          }
        : null,
    ['a request for a running sandbox by id'],
  ],
  [
    "answers validation errors in a shape that is not FastAPI's",
    (_req, answer) => (answer.status === 422 ? { status: 422, body: { error: 'invalid request' } } : null),
    [
      'a request for sandboxes with a limit of 0',
      'a request to create a conversation with an unknown git provider',
      'a request to store a token for a provider that does not exist',
    ],
  ],
];
/** The agent server's breakage: the VS Code URL without its token. */
const VS_CODE_INTERACTION = 'a request for the VS Code URL';

/**
 * One run of `fakehands verify` over all the contracts against a provider broken in all those ways
 * at once: an app server applying each breakage of `broken`, whose `conversation_url`s point at an
 * agent server that answers the VS Code URL without a token. Each breakage touches only its own
 * interactions, so the run names exactly theirs, and every other interaction passes.
 */
let sabotagedRun: Promise<{ code: number | null; stdout: string; stderr: string }> | undefined;
const verifySabotaged = () =>
  (sabotagedRun ??= (async () => {
    const provider = await startProvider();
    const agent = await startBrokenProvider(provider.agentUrl, (req) =>
      req.path === '/api/vscode/url' ? { status: 200, body: { url: null } } : null,
    );
    const app = await startBrokenProvider(provider.url, (req, answer) => {
      for (const [, breakage] of broken) {
        const rewritten = breakage(req, answer);
        if (rewritten) return rewritten;
      }
      return req.method === 'GET' && req.path === '/api/v1/app-conversations' && Array.isArray(answer.body)
        ? {
            status: 200,
            body: (answer.body as ({ conversation_url: string | null } | null)[]).map((c) =>
              c?.conversation_url ? { ...c, conversation_url: c.conversation_url.replace(provider.agentUrl, agent) } : c,
            ),
          }
        : null;
    });
    return verify(app);
  })());

describe('fakehands verify', { timeout: VERIFY_TIMEOUT_MS }, () => {
  it('passes the committed contracts against the standalone fake', async () => {
    const { code, stdout } = await verifyCommitted();
    expect(failedInteractions(stdout)).toEqual([]);
    expect(stdout).toContain(`interactions in the contracts: ${EXPECTED_INTERACTIONS}; verified: ${EXPECTED_INTERACTIONS}`);
    expect(stdout).toContain('OK: every interaction passed');
    expect(code).toBe(0);
  });

  it('cleans up what the provider states created', async () => {
    const { sandboxes } = await verifyCommitted();
    expect(sandboxes).toEqual([]);
  });

  it('fails against a provider that skips auth, naming the 401 interactions, with a hint that it does not ask for a key (#29 finding 15)', async () => {
    // The three interactions that expect a 401, and one of each contract that must pass.
    const pacts = await pactsOf([
      'a request to create a conversation without a session API key',
      'a request to store git providers without a session API key',
      "a request for the events without the sandbox's session key",
      'a request for the sandbox specs',
      'a request for the conversation',
    ]);
    // No key checked: with auth none no route asks for one (and fakehands serve refuses --api-key with --auth none).
    const provider = await startProvider('none');
    const { code, stdout } = await verify(
      provider.url,
      pacts.flatMap((file) => ['--pact', file]),
    );
    expect(code).toBe(1);
    expect(failedInteractions(stdout).sort()).toEqual([
      "a request for the events without the sandbox's session key",
      'a request to create a conversation without a session API key',
      'a request to store git providers without a session API key',
    ]);
    const hint =
      'HINT: the provider answered GET /api/conversations without a session API key: it does not ask for one, so the interactions that expect a 401 fail. ' +
      'Start it with keys checked (fakehands serve --api-key KEY, not --auth none as npm start does) and pass the same key with --api-key.';
    // Said before the verifier's long report, and again in the summary, which ends the output.
    expect(stdout.split('\n')).toContain(`fakehands verify: ${hint}`);
    expect(summary(stdout)).toEqual([
      `fakehands verify: ${provider.url} against 2 pact file(s)`,
      '  interactions in the contracts: 5; verified: 5; failed: 3; passed: 2',
      '  FAILED: interaction failed: Given the client sends no session API key - a request to create a conversation without a session API key (status: expected 401 but was 200; and 1 more difference)',
      '  FAILED: interaction failed: Given the client sends no session API key - a request to store git providers without a session API key (status: expected 401 but was 200; and 1 more difference)',
      "  FAILED: interaction failed: Given a conversation whose agent has finished a run And the client sends no session API key - a request for the events without the sandbox's session key (status: expected 401 but was 200; and 1 more difference)",
      `  ${hint}`,
      '  verification FAILED',
    ]);
  });

  it('fails fast against a provider that answers every success in a wrong shape: each state names the route and the field, the agent contract runs too, the summary counts (#29 finding 15)', async () => {
    // An interaction under each state named below; two pass (a 401 and a 404 are no successes).
    const pacts = await pactsOf([
      'a request for a running sandbox by id',
      'a request for an app conversation by id',
      'a request to pause a sandbox that does not exist',
      'a request to store a git provider token',
      'a request to create a conversation without a session API key',
      'a request for the conversation',
    ]);
    const provider = await startProvider();
    const url = await startBrokenProvider(provider.url, (_req, answer) =>
      answer.status < 300 ? { status: 200, body: { unexpected: true } } : null,
    );
    const { code, stdout, stderr } = await verify(
      url,
      pacts.flatMap((file) => ['--pact', file]),
    );
    expect(code).toBe(1);
    const lines = summary(stdout);
    expect(lines[0]).toBe(`fakehands verify: ${url} against 2 pact file(s)`);
    expect(lines[1]).toBe('  interactions in the contracts: 6; verified: 6; failed: 4; passed: 2');
    expect(lines.at(-1)).toBe('  verification FAILED');
    // Each state fails at its first wrong answer, naming it, instead of waiting out its deadline.
    for (const line of [
      '  FAILED: provider state "a RUNNING sandbox exists" failed: POST /api/v1/sandboxes answered a sandbox in the wrong shape: `id`: Invalid input: expected string, received undefined (got {"unexpected":true})',
      '  FAILED: provider state "an app conversation exists" failed: POST /api/v1/app-conversations answered a start task in the wrong shape: `id`: Invalid input: expected string, received undefined (got {"unexpected":true})',
      '  FAILED: provider state "no sandbox has the given id" failed: GET /api/v1/sandboxes answered a list of sandboxes in the wrong shape: the body: Invalid input: expected array, received object (got {"unexpected":true})',
      '  FAILED: provider state "a conversation whose agent has finished a run" failed: POST /api/v1/app-conversations answered a start task in the wrong shape: `id`: Invalid input: expected string, received undefined (got {"unexpected":true})',
      // Each failed interaction with its difference.
      '  FAILED: interaction failed: Given the service is up - a request to store a git provider token ($: Actual map is missing the following keys: message)',
    ])
      expect(lines).toContain(line);
    // The agent server's contract ran too.
    expect(
      lines.some((l) =>
        l.startsWith(
          '  FAILED: interaction failed: Given a conversation whose agent has finished a run - a request for the conversation (',
        ),
      ),
    ).toBe(true);
    expect(stdout).not.toMatch(/timed out after|is not iterable|task undefined|without a summary/);
    expect(stderr).toBe('');
  });

  it('fails fast, naming the key, when the provider refuses the session API key', async () => {
    const provider = await startProvider();
    // In this process: the refusal is found before Pact's verifier runs, so the report is all there is to read.
    const result = await verifyHere(provider.url, undefined, { apiKey: 'not-the-key' });
    expect([result.ok, result.expected, result.verified]).toEqual([false, EXPECTED_INTERACTIONS, 0]);
    expect(result.lines).toContain(`  interactions in the contracts: ${EXPECTED_INTERACTIONS}; verified: 0; failed: 0; passed: 0`);
    expect(result.lines).toContain(
      '  FAILED: the provider refused the session API key (401 on GET /api/conversations): pass the key it expects with --api-key (or apiKey)',
    );
    expect(result.lines.at(-1)).toBe('  verification FAILED');
    expect(result.lines.join('\n')).not.toContain('not-the-key');
  });

  it(`fails against a provider broken in ${broken.length + 1} ways at once, naming exactly the broken interactions among all ${EXPECTED_INTERACTIONS}, every other one passing`, async () => {
    const { code, stdout } = await verifySabotaged();
    const expected = [...broken.flatMap(([, , names]) => names), VS_CODE_INTERACTION];
    expect(failedInteractions(stdout).sort()).toEqual(expected.sort());
    expect(stdout).toContain(
      `interactions in the contracts: ${EXPECTED_INTERACTIONS}; verified: ${EXPECTED_INTERACTIONS}; failed: ${expected.length}; passed: ${EXPECTED_INTERACTIONS - expected.length}`,
    );
    expect(summary(stdout).at(-1)).toBe('  verification FAILED');
    expect(code).toBe(1);
  });

  it.each(broken)('fails against a provider that %s, naming the broken interaction', async (_name, _breakage, expected) => {
    const { code, stdout } = await verifySabotaged();
    expect(failedInteractions(stdout, PROVIDER_NAME)).toEqual(expect.arrayContaining(expected));
    // Each named with its difference in the summary.
    for (const name of expected)
      expect(summary(stdout).some((l) => l.startsWith('  FAILED: interaction failed: ') && l.includes(` - ${name} (`))).toBe(true);
    expect(code).toBe(1);
  });

  it('verifies the agent server behind conversation_url and fails against one that answers the VS Code URL without a token, naming that interaction alone', async () => {
    const { code, stdout } = await verifySabotaged();
    expect(failedInteractions(stdout, AGENT_PROVIDER_NAME)).toEqual([VS_CODE_INTERACTION]);
    expect(stdout).toContain(`interactions in the contracts: ${EXPECTED_INTERACTIONS}; verified: ${EXPECTED_INTERACTIONS}`);
    expect(code).toBe(1);
  });

  it("fails with the state handler's own error when a provider state cannot be set up", async () => {
    const pacts = await pactsOf(['a request for a running sandbox by id', 'a request for the sandbox specs']);
    const provider = await startProvider();
    const url = await startBrokenProvider(provider.url, (req) =>
      req.method === 'POST' && req.path === '/api/v1/sandboxes' ? { status: 500, body: { detail: 'boom' } } : null,
    );
    const result = await verifyHere(url, pacts);
    expect([result.ok, result.verified, result.failed]).toEqual([false, 2, 1]);
    expect(result.lines).toContain(
      '  FAILED: provider state "a RUNNING sandbox exists" failed: POST /api/v1/sandboxes answered 500: boom {"detail":"boom"}',
    );
  });

  it('fails when a pact names a state it has no handler for', async () => {
    const provider = await startProvider();
    const dir = await mkdtemp(join(tmpdir(), 'pacts-'));
    const pact = JSON.parse(await readFile(CONTRACT_FILE, 'utf8')) as { interactions: { providerStates: { name: string }[] }[] };
    pact.interactions[0]!.providerStates = [{ name: 'a unicorn exists' }];
    await writeFile(join(dir, 'unicorn.json'), JSON.stringify(pact));
    const result = await verifyHere(provider.url, [join(dir, 'unicorn.json')]);
    expect(result.ok).toBe(false);
    expect(result.lines).toContain(`  FAILED: no state handler for the ${PROVIDER_NAME} provider state "a unicorn exists"`);
  });

  it('fails when a pact is for another provider, instead of silently verifying nothing', async () => {
    const provider = await startProvider();
    const dir = await mkdtemp(join(tmpdir(), 'pacts-'));
    const pact = JSON.parse(await readFile(CONTRACT_FILE, 'utf8')) as { provider: { name: string } };
    pact.provider.name = 'some-other-service';
    await writeFile(join(dir, 'other.json'), JSON.stringify(pact));
    const result = await verifyHere(provider.url, [join(dir, 'other.json')]);
    expect([result.ok, result.verified]).toEqual([false, 0]);
    expect(result.lines.some((l) => l.includes(`is for the provider "some-other-service", not "${PROVIDER_NAME}"`))).toBe(true);
  });

  it('fails when fewer interactions are verified than the contracts hold (here a PACT_DESCRIPTION filter skips all but one)', async () => {
    const provider = await startProvider();
    // Read by Pact when the verifier is set up (as in a user's CI, from the environment).
    process.env.PACT_DESCRIPTION = 'a request to pause a running sandbox';
    const result = await verifyHere(provider.url, undefined).finally(() => {
      delete process.env.PACT_DESCRIPTION;
    });
    expect([result.ok, result.expected, result.verified]).toEqual([false, EXPECTED_INTERACTIONS, 1]);
    expect(result.lines).toContain(`  interactions in the contracts: ${EXPECTED_INTERACTIONS}; verified: 1; failed: 0; passed: 1`);
    expect(result.lines).toContain(`  FAILED: 1 ${PROVIDER_NAME} interactions were verified, but the contracts hold ${APP_INTERACTIONS}`);
    expect(result.lines).toContain(
      `  FAILED: 0 ${AGENT_PROVIDER_NAME} interactions were verified, but the contracts hold ${AGENT_INTERACTIONS}`,
    );
  });

  it('ends with its summary when the provider dies mid-run (a proxy that exits on the first pause), instead of retrying forever', async () => {
    const provider = await startProvider();
    const proxy = await startDyingProvider(provider.url, (req) => req.method === 'POST' && /\/pause$/.test(req.url ?? ''));
    const { code, stdout } = await verify(proxy);
    expect(code).toBe(1);
    expect(stdout).toContain(`FAILED: the provider at ${proxy} stopped answering (connection refused): verification stopped`);
    expect(stdout).toContain('verification FAILED');
  });

  it("names the provider state that never came true, within Pact's own state timeout (a sandbox that never runs)", async () => {
    // An interaction under the state, and one that must pass.
    const pacts = await pactsOf(['a request for a running sandbox by id', 'a request for the sandbox specs']);
    const provider = await startProvider();
    const url = await startBrokenProvider(provider.url, (req, answer) =>
      req.method === 'GET' && req.path === '/api/v1/sandboxes' && Array.isArray(answer.body)
        ? {
            status: 200,
            body: (answer.body as { status: string }[]).map((s) => (s && s.status === 'RUNNING' ? { ...s, status: 'STARTING' } : s)),
          }
        : null,
    );
    // A short deadline: the sandbox never runs, and the state that needs one waits it out.
    const result = await verifyHere(url, pacts, { stateTimeoutMs: 500 });
    expect([result.ok, result.verified, result.failed]).toEqual([false, 2, 1]);
    expect(
      result.problems.some((p) =>
        /^provider state "a RUNNING sandbox exists" failed: timed out after 500 ms waiting for sandbox oh-agent-server-\w+ to be RUNNING \(last seen: "STARTING"\)$/.test(
          p,
        ),
      ),
    ).toBe(true);
    expect(result.lines.at(-1)).toBe('  verification FAILED');
  });

  it('exits 2 without --base-url', async () => {
    const { code, stderr } = await runCli(['verify']);
    expect([code, stderr]).toEqual([2, 'fakehands: verify needs --base-url URL (see fakehands verify --help)\n']);
  });
});
