/**
 * The events socket's message contracts: written by the consumer tests (`messages.ts`) exactly as
 * committed in contracts/messages/, then verified with the real `fakehands verify --messages` (its
 * supervised child process) against fakes served from this process, every provider state set up
 * through the provider's own calls: the newest contract passes against the newest dialect (the
 * README's CI example) and the Nov 2025 contract against 1.1.0; the Nov 2025 contract against the
 * newest fails naming exactly the renamed kinds; a sabotaged provider fails naming each
 * interaction and field; the counts print last. The verifications run at once, one fake each.
 * Those of the Nov 2025 contract and the sabotaged provider's run the command's own
 * `runMessageVerify` in this process (without the command's two processes: issue 34); the README's
 * example and the dying provider's run the command itself.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_CONTRACTS_DIR, runMessageVerify } from '../../src/pact/messages.js';
import { CONSUMER_NAME } from '../../src/pact/verify.js';
import type { FakeServers } from '../../src/server/start.js';
import { BIN, startCli } from '../support/cli.js';
import { readmeBlocks } from '../support/readme.js';
import { startBrokenProvider } from '../support/broken-provider.js';
import { startSabotagedProvider, type SabotagedProvider } from './messages-sabotage.js';
import { messageProvider, serverMessageCount, writeMessageContracts } from './messages.js';

const KEY = 'verify-key';
const CLIENT_FRAMES = 2;
/** The provider events each dialect's contract holds: Agent Canvas 1.20's (the newest) and the Nov 2025 web app's. */
const NEWEST_EVENTS = serverMessageCount();
const NOV2025_EVENTS = serverMessageCount('1.1.0');
const file = (dialect?: string) => `${CONSUMER_NAME}-${messageProvider(dialect)}.json`;
const contract = (dialect?: string) => join(MESSAGE_CONTRACTS_DIR, file(dialect));
/**
 * The fakes verified come from the built package (rebuilt from src/ by the global setup when older),
 * as the command's do: Node loads it, where vite would transform the whole fake in src/ for this file
 * alone (issue 34; vitest.config.ts).
 */
const SERVER_ENTRY = 'fakehands/server';
const { startFakeServers } = (await import(/* @vite-ignore */ SERVER_ENTRY)) as typeof import('../../src/server.js');
/**
 * A fake to verify against, in this process: sandboxes and start tasks at once, each agent run
 * 1.2 s long, so a pause or an interrupt finds a run in flight, as on a real server.
 */
const startProvider = (agentServerVersion?: string) =>
  startFakeServers({
    fake: {
      fixture: 'empty',
      apiKey: KEY,
      timings: { sandboxStartMs: 0, startTaskStepMs: 0, agentRunMs: 1200 },
      ...(agentServerVersion ? { agentServerVersion } : {}),
    },
  });
/** `fakehands verify --messages`'s own function, run in this process: its output and exit code, as the command's. */
async function verifyHere(url: string, pactFile: string): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const code = await runMessageVerify({ baseUrl: url, apiKey: KEY, pactFiles: [pactFile] }, (text) => {
    stdout += text;
  });
  return { code, stdout };
}
const counts = (events: number, failed: number) =>
  new RegExp(`^  interactions: ${events}; passed: ${events - failed}; failed: ${failed}; frames received: \\d+$`);
const lastLine = (stdout: string) => stdout.trimEnd().split('\n').at(-1);
const failures = (stdout: string) => stdout.split('\n').filter((line) => line.includes('FAILED'));

/** What the sabotaged provider does to the newest fake's events: a kind renamed, a tool's kind renamed, kinds dropped (a stored one, a streamed one), a field dropped. */
function sabotage(event: Record<string, unknown>): Record<string, unknown> | null {
  if (event.kind === 'PauseEvent') return { ...event, kind: 'PausedEvent' };
  if (event.kind === 'HookExecutionEvent' || event.kind === 'StreamingDeltaEvent') return null;
  const action = event.action as { kind?: string } | undefined;
  if (action?.kind === 'GlobAction') return { ...event, action: { ...action, kind: 'FindFilesAction' } };
  if (event.kind === 'AgentErrorEvent') {
    const { tool_call_id: _dropped, ...rest } = event;
    return rest;
  }
  return event;
}

describe("the events socket's message contracts", () => {
  it("regenerate exactly the committed contracts/messages/ (one per dialect), one interaction per event kind and tool, and the client's frames", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fakehands-messages-'));
    expect(await writeMessageContracts(dir)).toBe(NEWEST_EVENTS + CLIENT_FRAMES);
    expect(await writeMessageContracts(dir, '1.1.0')).toBe(NOV2025_EVENTS + CLIENT_FRAMES);
    expect((await readdir(dir)).sort()).toEqual([file(), file('1.1.0')].sort());
    for (const [name, events] of [
      [file(), NEWEST_EVENTS],
      [file('1.1.0'), NOV2025_EVENTS],
    ] as const) {
      const written = JSON.parse(await readFile(join(dir, name), 'utf8')) as {
        interactions: { type: string; providerStates?: { name: string }[] }[];
      };
      expect(
        written,
        'the committed contracts differ from what the consumer tests write: regenerate contracts/messages/ and commit',
      ).toEqual(JSON.parse(await readFile(join(MESSAGE_CONTRACTS_DIR, name), 'utf8')));
      expect(written.interactions.map((i) => i.type)).toEqual(Array(events + CLIENT_FRAMES).fill('Asynchronous/Messages'));
      expect(written.interactions.filter((i) => i.providerStates?.length).length).toBe(events);
    }
    expect(await readFile(join(dir, file('1.1.0')), 'utf8')).toContain('"ExecuteBashAction"');
    expect(await readFile(join(dir, file()), 'utf8')).not.toContain('ExecuteBash');
  });

  it('hold one interaction per tool and event kind each app renders, under the provider state that makes it', async () => {
    const states = async (name: string) =>
      (
        JSON.parse(await readFile(contract(name === 'newest' ? undefined : name), 'utf8')) as {
          interactions: { description: string; providerStates?: { name: string }[] }[];
        }
      ).interactions.map((i): [string, string] => [i.providerStates?.[0]?.name ?? 'the client sends', i.description]);
    const newest = await states('newest');
    const nov2025 = await states('1.1.0');
    // Agent Canvas renders the newer tools and events; the Nov 2025 web app a subset, with the terminal's old names.
    for (const description of [
      'a glob call (GlobAction: isActionEvent)',
      'a hook run (HookExecutionEvent: isHookExecutionEvent)',
      'the interrupt of the run (InterruptEvent)',
      "a piece of the agent's answer (StreamingDeltaEvent: isStreamingDeltaEvent)",
      'the LLM statistics (isStatsConversationStateUpdateEvent, key stats: conversation-metrics.js, combineUsageMetrics)',
      "the goal loop's status (isGoalConversationStateUpdateEvent, key goal: GoalStatus)",
      'a canvas_ui_control call (ClientAction_canvas_ui_control: isActionEvent)',
      'its inspect_image_with_vision result (VisionInspectObservation: isObservationEvent)',
    ])
      expect([newest.map(([, d]) => d).includes(description), nov2025.map(([, d]) => d).includes(description)]).toEqual([true, false]);
    // The rest of the browser tool set, both apps (Nov 2025 get-action-content.ts; Agent Canvas core/base/base.d.ts).
    for (const description of [
      'a browser call (BrowserScrollAction: isActionEvent)',
      'a browser call (BrowserCloseTabAction: isActionEvent)',
    ])
      expect([newest.map(([, d]) => d).includes(description), nov2025.map(([, d]) => d).includes(description)]).toEqual([true, true]);
    expect(new Set(newest.map(([state]) => state))).toEqual(
      new Set([
        'a conversation whose first message ran the agent',
        'the client sent a frame that is not JSON',
        'the agent ran a turn with every tool the web apps render',
        "the agent's step failed and the run ended in an error",
        'the client rejected an action waiting for confirmation',
        'the client paused the conversation',
        'the client interrupted a running conversation',
        "the conversation's LLM streams its answers",
        'the client started a goal',
        'the client sends',
      ]),
    );
    expect(nov2025.find(([, d]) => d.startsWith('a terminal command'))).toEqual([
      'a conversation whose first message ran the agent',
      'a terminal command (ExecuteBashAction: isActionEvent)',
    ]);
  });
});

/**
 * Runs the README's CI example against the provider (its URLs and `npx fakehands` replaced), in a
 * fresh directory, with the Nov 2025 dialect's document as `nov2025`'s agent host serves it.
 */
async function runReadmeExample(provider: FakeServers, nov2025: FakeServers): Promise<{ stdout: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'fakehands-ci-'));
  const document = await fetch(`${nov2025.agentUrl}/asyncapi.json`);
  expect(document.status).toBe(200);
  await writeFile(join(dir, 'nov2025-asyncapi.json'), await document.text());
  const block = readmeBlocks('sh').find((b) => b.includes('verify --messages'))!;
  const script = block
    .replaceAll('http://127.0.0.1:8000', provider.agentUrl)
    .replaceAll('http://127.0.0.1:3000', provider.url)
    .replaceAll('npx fakehands', `node ${BIN}`);
  return promisify(execFile)('bash', ['-c', `set -eo pipefail\n${script}`], {
    cwd: dir,
    env: { ...process.env, FAKEHANDS_API_KEY: KEY },
  });
}

describe('fakehands verify --messages', { timeout: 240_000 }, () => {
  // One fake per verification, all run at once: each is a child process that mostly waits on the
  // agent's runs. The README's CI example is the newest contract's verification against the newest fake.
  const providers: FakeServers[] = [];
  let sabotaged: SabotagedProvider | undefined;
  let runs: {
    readme: Promise<{ stdout: string }>;
    nov2025: ReturnType<typeof verifyHere>;
    nov2025OnNewest: ReturnType<typeof verifyHere>;
    sabotaged: ReturnType<typeof verifyHere>;
  };
  beforeAll(async () => {
    const [newest, nov2025, newest2, newest3] = await Promise.all([
      startProvider(),
      startProvider('1.1.0'),
      startProvider(),
      startProvider(),
    ]);
    providers.push(newest!, nov2025!, newest2!, newest3!);
    sabotaged = await startSabotagedProvider(newest3!.url, newest3!.agentUrl, sabotage);
    runs = {
      readme: runReadmeExample(newest!, nov2025!),
      nov2025: verifyHere(nov2025!.url, contract('1.1.0')),
      nov2025OnNewest: verifyHere(newest2!.url, contract('1.1.0')),
      sabotaged: verifyHere(sabotaged.url, contract()),
    };
    // Each test reads its own run; none is left unhandled should one test fail first.
    for (const run of Object.values(runs)) run.catch(() => undefined);
  });
  afterAll(async () => {
    await Promise.allSettled(Object.values(runs ?? {}));
    await sabotaged?.close();
    await Promise.all(providers.map((p) => p.close()));
  });

  it("passes each dialect's contract against the fake speaking that dialect, every provider state set up, the counts last", async () => {
    // The newest: the README's example below, which exits 0 only when verify does.
    const newest = await runs.readme;
    expect(failures(newest.stdout)).toEqual([]);
    expect(lastLine(newest.stdout)).toMatch(counts(NEWEST_EVENTS, 0));
    const nov2025 = await runs.nov2025;
    expect(failures(nov2025.stdout)).toEqual([]);
    expect(lastLine(nov2025.stdout)).toMatch(counts(NOV2025_EVENTS, 0));
    expect(nov2025.code).toBe(0);
  });

  it('fails the Nov 2025 contract against the newest dialect naming exactly the renamed kinds and the field', async () => {
    const { code, stdout } = await runs.nov2025OnNewest;
    expect(failures(stdout)).toEqual([
      '  FAILED: a terminal command (ExecuteBashAction: isActionEvent): field action.kind: expected "ExecuteBashAction", got "TerminalAction"',
      '  FAILED: its output (ExecuteBashObservation: isObservationEvent): field observation.kind: expected "ExecuteBashObservation", got "TerminalObservation"',
    ]);
    expect(lastLine(stdout)).toMatch(counts(NOV2025_EVENTS, 2));
    expect(code).toBe(1);
  });

  it('fails against a provider that renames or drops a kind or a field, naming each interaction and the field', async () => {
    const { code, stdout } = await runs.sabotaged;
    expect(failures(stdout)).toEqual([
      '  FAILED: a glob call (GlobAction: isActionEvent): field action.kind: expected "GlobAction", got "FindFilesAction"',
      '  FAILED: a hook run (HookExecutionEvent: isHookExecutionEvent): field kind: no "HookExecutionEvent" frame arrived (kinds: ACPToolCallEvent, ActionEvent, AgentErrorEvent, Condensation, CondensationRequest, CondensationSummaryEvent, ConversationErrorEvent, ConversationStateUpdateEvent, InterruptEvent, LLMCompletionLogEvent, MessageEvent, ObservationEvent, PausedEvent, TokenEvent, UserRejectObservation)',
      "  FAILED: a tool's error (AgentErrorEvent: isAgentErrorEvent): field tool_call_id: missing",
      '  FAILED: the pause (PauseEvent): field kind: no "PauseEvent" frame arrived (kinds: ConversationStateUpdateEvent, PausedEvent)',
      '  FAILED: a piece of the agent\'s answer (StreamingDeltaEvent: isStreamingDeltaEvent): field kind: no "StreamingDeltaEvent" frame arrived (kinds: ActionEvent, ConversationStateUpdateEvent, MessageEvent, ObservationEvent)',
    ]);
    expect(lastLine(stdout)).toMatch(counts(NEWEST_EVENTS, 5));
    expect(code).toBe(1);
  });

  it('ends with the counts last, each interaction left failing, when the provider dies during the verification', async () => {
    const cli = await startCli(['--quiet', '--timings', 'instant', '--fixture', 'empty', '--api-key', KEY]);
    const proc = spawn(process.execPath, [BIN, 'verify', '--messages', '--base-url', cli.url, '--api-key', KEY], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    proc.stdout.on('data', (d: Buffer) => {
      stdout += d;
      // Once the first state is verified, the provider dies.
      if (stdout.includes('  ok: ')) cli.proc.kill('SIGKILL');
    });
    const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
    expect(code).toBe(1);
    const [, passed, failed] = /^ {2}interactions: (\d+); passed: (\d+); failed: (\d+); frames received: \d+$/
      .exec(lastLine(stdout)!)!
      .slice(1);
    expect(Number(passed) + Number(failed)).toBe(NEWEST_EVENTS);
    expect(Number(failed)).toBeGreaterThan(0);
    expect(failures(stdout)).toContain(
      '  FAILED: the interrupt of the run (InterruptEvent): field providerState: the provider closed the socket before the state "the client interrupted a running conversation" was set up',
    );
  });

  describe("the README's CI example for the event stream", () => {
    it('runs as written against the fake: the drift of the dialects, then verify --messages passing, the counts last', async () => {
      const { stdout } = await runs.readme;
      expect(stdout).toContain(
        '  renamed: ExecuteBashAction → TerminalAction\n  renamed: ExecuteBashObservation → TerminalObservation\nkinds renamed: 2; removed: 0; added: 0; fields changed: 0\nthe dialects differ\n',
      );
      expect(lastLine(stdout)).toMatch(counts(NEWEST_EVENTS, 0));
    });
  });
});

describe('fakehands verify --messages against a provider whose agent-script control route answers otherwise', () => {
  it('names what the provider got wrong (no "scripts" list), not a TypeError of its own', async () => {
    const provider = await startProvider();
    try {
      const broken = await startBrokenProvider(provider.url, (request) =>
        request.method === 'GET' && request.path.startsWith('/_fakehands/agent-scripts') ? { status: 200, body: { success: true } } : null,
      );
      // Only the failing step's interactions: the state that reads the scripts.
      const whole = JSON.parse(await readFile(contract(), 'utf8')) as { interactions: { providerStates?: { name: string }[] }[] };
      const failing = whole.interactions.filter(
        (i) => i.providerStates?.[0]?.name === "the agent's step failed and the run ended in an error",
      );
      expect(failing.length).toBeGreaterThan(0);
      const dir = await mkdtemp(join(tmpdir(), 'fakehands-messages-scripts-'));
      const pact = join(dir, 'failing-step.json');
      await writeFile(pact, JSON.stringify({ ...whole, interactions: failing }));
      const { code, stdout } = await verifyHere(broken, pact);
      expect(code).toBe(1);
      expect(stdout).toContain(
        'GET /_fakehands/agent-scripts answered without a "scripts" list (got {"success":true}): the provider\'s agent-script control route does not answer as fakehands\' does',
      );
      expect(stdout).not.toContain('is not iterable');
    } finally {
      await provider.close();
    }
  }, 120_000);
});
