/**
 * `fakehands verify --messages`: checks the Pact V4 message contracts of the events socket
 * (contracts/messages/) against any agent server reached through an app server at `--base-url`.
 * It starts a conversation whose first message runs the agent, opens
 * `/sockets/events/{id}?resend_mode=all` with the sandbox's own session key, then drives the
 * provider through each provider state the contracts name (`MESSAGE_STATES`, in that order): a
 * frame that is not JSON, a message that runs the agent, a failing step, a rejection in
 * confirmation mode, a pause, an interrupt, the conversation's LLM streaming, a goal. Each interaction is matched against the frames that
 * arrived since its state was set up: a frame of its kind (and its tool's action or observation
 * kind, its state key and value), every field its matching rules name present and of the rule's
 * type or pattern. Hand-written: Pact's message verifier calls producer functions in-process, it
 * cannot read a provider's socket.
 */
import { readFile, readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-root.js';
import { Session, startConversation } from './message-session.js';

/** Where the message contracts are shipped. */
export const MESSAGE_CONTRACTS_DIR = fileURLToPath(packageFile('contracts/messages/'));
/** How long verify takes, at most, from the first request to the summary. */
export const MESSAGE_VERIFY_TIMEOUT_MS = 90_000;
/** How long one provider state waits for its frames, at most. */
const STATE_TIMEOUT_MS = 20_000;
/** How many times a pause or an interrupt is tried on a run that ended before it arrived. */
const RUN_ATTEMPTS = 3;

/**
 * The provider states of the message contracts, in the order verify sets them up on one
 * conversation. The first is the conversation's start; the fake's own triggers are named as such.
 */
export const MESSAGE_STATES = Object.freeze({
  /** A conversation started with a first message that runs the agent (the default run). */
  firstRun: 'a conversation whose first message ran the agent',
  /** The client sent a frame that is not JSON on the socket. */
  badFrame: 'the client sent a frame that is not JSON',
  /** A message that makes the agent use every tool the web apps render (the fake: its built-in `showcase` script). */
  everyTool: 'the agent ran a turn with every tool the web apps render',
  /** A step fails and the run ends in an error (the fake: a script with `error` and `fail` steps, through `PUT /_fakehands/agent-scripts`). */
  failingStep: "the agent's step failed and the run ended in an error",
  /** Confirmation mode on, a message, the pending action rejected (`POST .../events/respond_to_confirmation`). */
  rejection: 'the client rejected an action waiting for confirmation',
  /** `POST .../pause` on an idle or running conversation. */
  pause: 'the client paused the conversation',
  /** `POST .../interrupt` while a run is in flight. */
  interrupt: 'the client interrupted a running conversation',
  /** The conversation's LLM streams (`POST .../switch_llm` with its LLM and `"stream": true`), and a message runs the agent. */
  streaming: "the conversation's LLM streams its answers",
  /** `POST .../goal` with an objective: the goal loop starts and the agent works on it. */
  goal: 'the client started a goal',
});

/** The text of the message that runs the showcase on the fake. */
const EVERY_TOOL_TEXT = 'Run the showcase: use every tool the web apps render';
/** The `match` of the failing script verify installs on the fake for the failing-step state. */
const FAILING_MATCH = 'fakehands-verify-failing-step';

type Json = Record<string, unknown>;
interface MessageInteraction {
  type: string;
  description: string;
  providerStates?: { name: string }[];
  contents: { content: Json };
  matchingRules?: { body?: Record<string, { matchers: { match: string; regex?: string }[] }> };
}

/** The value at `path` (`a.b`) of `value`. */
const at = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Json)[key] : undefined), value);
const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
/** The fields an interaction's example fixes (when they are strings), checked first, in this order. */
const FIXED = ['kind', 'action.kind', 'observation.kind', 'llm_message.role', 'key', 'value'];

/** Why `frame` does not satisfy `interaction`, as the first field that fails; null when it does. */
export function mismatch(interaction: MessageInteraction, frame: unknown): { field: string; reason: string } | null {
  const example = interaction.contents.content;
  for (const field of FIXED) {
    const wanted = at(example, field);
    if (typeof wanted === 'string' && at(frame, field) !== wanted)
      return { field, reason: `expected ${JSON.stringify(wanted)}, got ${JSON.stringify(at(frame, field))}` };
  }
  for (const [rulePath, { matchers }] of Object.entries(interaction.matchingRules?.body ?? {})) {
    // `$.a.b[*].c`: the first item of each list stands for all (`a.b.0.c`).
    const field = rulePath.replace(/^\$\.?/, '').replace(/\[\*\]|\[\d+\]/g, '.0');
    if (!field || field.includes('*')) continue;
    const value = at(frame, field);
    if (value === undefined) return { field, reason: 'missing' };
    for (const matcher of matchers) {
      if (matcher.match === 'type' && jsonType(value) !== jsonType(at(example, field)))
        return { field, reason: `expected a ${jsonType(at(example, field))}, got ${jsonType(value)}` };
      if (matcher.match === 'regex' && !new RegExp(matcher.regex ?? '').test(String(value)))
        return { field, reason: `${JSON.stringify(value)} does not match /${matcher.regex}/` };
    }
  }
  return null;
}

/** How many of the interaction's fields `frame` has right (its fixed fields and ruled fields, present with the example's type), the example's own values counting once more. */
function likeness(interaction: MessageInteraction, frame: unknown): number {
  const example = interaction.contents.content;
  const ruled = Object.keys(interaction.matchingRules?.body ?? {}).map((path) =>
    path.replace(/^\$\.?/, '').replace(/\[\*\]|\[\d+\]/g, '.0'),
  );
  let score = 0;
  for (const field of [...FIXED, ...ruled]) {
    const wanted = at(example, field);
    const value = at(frame, field);
    if (wanted === undefined || value === undefined) continue;
    if (jsonType(value) === jsonType(wanted)) score++;
    if (value === wanted) score++;
  }
  return score;
}

/** Why none of `frames` satisfies `interaction`: the first failing field of the frame most like it. */
function nearestMismatch(interaction: MessageInteraction, frames: readonly unknown[]): { field: string; reason: string } {
  const kind = interaction.contents.content.kind;
  const sameKind = frames.filter((frame) => at(frame, 'kind') === kind);
  if (sameKind.length === 0)
    return {
      field: 'kind',
      reason: `no ${JSON.stringify(kind)} frame arrived (kinds: ${[...new Set(frames.map((frame) => String(at(frame, 'kind'))))].sort().join(', ') || 'none'})`,
    };
  // The first of the likeliest (the earliest on a tie).
  const nearest = sameKind.reduce((best, frame) => (likeness(interaction, frame) > likeness(interaction, best) ? frame : best));
  return mismatch(interaction, nearest) ?? { field: 'kind', reason: 'no frame arrived' };
}

/** The outcome of one verification. */
export interface MessageVerifyResult {
  ok: boolean;
  /** Interactions verified (the provider's events; the client's frames are not). */
  expected: number;
  passed: number;
  failed: { description: string; field: string; reason: string }[];
}

/** How far a verification got (sent to a supervising process). */
export interface MessageVerifyProgress {
  expected: number;
  passed: number;
  failed: number;
}

/** Sets up one provider state on `session`; `satisfied` tells whether its interactions have all arrived. */
type StateSetup = (session: Session, satisfied: () => boolean, deadline: number) => Promise<void>;

/**
 * Pauses or interrupts a run: on a conversation idle or running (pause) or running (interrupt) at
 * once, else after a message has started a run; tried again when the run ended before the call.
 */
const onRun =
  (route: '/pause' | '/interrupt'): StateSetup =>
  async (session, satisfied, deadline) => {
    const ready = (status: string | undefined) => status === 'running' || (route === '/pause' && status === 'idle');
    let caught = false;
    for (let attempt = 0; attempt < RUN_ATTEMPTS && !satisfied() && Date.now() < deadline; attempt++) {
      if (!ready(session.status())) {
        const from = session.frames.length;
        session.sendMessage(`Verify the ${route.slice(1)}: run for a while`);
        await session.until(() => session.frames.slice(from).some((f) => (f as Json).key === 'execution_status'), deadline);
        // The run ended before the call could catch it: start another.
        if (!ready(session.status())) continue;
      }
      await session.agent(route, {});
      await session.until(() => satisfied() || session.quiet(), deadline);
      // The call caught the run (it is paused): what came is the provider's answer, right or wrong.
      caught = session.status() === 'paused';
      if (caught) break;
    }
    if (!caught && !satisfied())
      throw new Error(
        `POST ${route} paused no run in ${RUN_ATTEMPTS} tries (the status stayed ${JSON.stringify(session.status())}): the provider's runs end too soon to be caught`,
      );
  };

/** How verify sets up each state (the first one, the conversation's start, is done before the socket opens). */
const STATE_SETUPS: Record<string, StateSetup> = {
  [MESSAGE_STATES.firstRun]: async () => undefined,
  [MESSAGE_STATES.badFrame]: async (session) => session.sendRaw('{not json'),
  [MESSAGE_STATES.everyTool]: async (session) => session.sendMessage(EVERY_TOOL_TEXT),
  [MESSAGE_STATES.failingStep]: async (session, satisfied, deadline) => {
    const before = await session.control('GET', '/agent-scripts');
    if (!before) throw new Error('the provider has no agent-script control route (PUT /_fakehands/agent-scripts) to make a step fail');
    if (!Array.isArray(before.scripts)) {
      throw new Error(
        `GET /_fakehands/agent-scripts answered without a "scripts" list (got ${JSON.stringify(before).slice(0, 120)}): the provider's agent-script control route does not answer as fakehands' does`,
      );
    }
    const failing = {
      match: FAILING_MATCH,
      steps: [{ error: 'The command failed: verify made it fail.' }, { fail: { code: 'AgentError', detail: 'verify made the run fail' } }],
    };
    await session.control('PUT', '/agent-scripts', { scripts: [failing, ...(before.scripts as unknown[])] });
    try {
      session.sendMessage(`${FAILING_MATCH}: make a step fail`);
      await session.until(() => satisfied() || session.quiet(), deadline);
    } finally {
      await session.control('PUT', '/agent-scripts', { scripts: before.scripts });
    }
  },
  [MESSAGE_STATES.rejection]: async (session, satisfied, deadline) => {
    await session.agent('/confirmation_policy', { policy: { kind: 'AlwaysConfirm' } });
    try {
      const from = session.frames.length;
      session.sendMessage('Verify the rejection: run a command that waits for confirmation');
      await session.until(() => session.frames.slice(from).some((f) => (f as Json).value === 'waiting_for_confirmation'), deadline);
      await session.agent('/events/respond_to_confirmation', { accept: false, reason: 'Not that command, please.' });
      await session.until(() => satisfied() || session.quiet(), deadline);
    } finally {
      await session.agent('/confirmation_policy', { policy: { kind: 'NeverConfirm' } });
    }
  },
  [MESSAGE_STATES.pause]: onRun('/pause'),
  [MESSAGE_STATES.interrupt]: onRun('/interrupt'),
  [MESSAGE_STATES.streaming]: async (session, satisfied, deadline) => {
    // The conversation's own LLM, streaming (`conversation_router.py`, switch_conversation_llm), then as it was.
    const llm = ((await session.agentGet('')).agent as Json | undefined)?.llm as Json | undefined;
    if (!llm) throw new Error('GET /api/conversations/{id} named no agent LLM to switch to streaming');
    await session.agent('/switch_llm', { llm: { ...llm, stream: true } });
    try {
      session.sendMessage('Verify the streaming: answer in a few words');
      await session.until(() => satisfied() || session.quiet(), deadline);
    } finally {
      await session.agent('/switch_llm', { llm });
    }
  },
  [MESSAGE_STATES.goal]: async (session, satisfied, deadline) => {
    await session.agent('/goal', { objective: 'Verify the goal loop: make the tests pass' });
    try {
      await session.until(() => satisfied() || session.quiet(), deadline);
    } finally {
      await session.agent('/goal/stop', {});
    }
  },
};

/** Verifies the message interactions of `files` against the provider; reports one line each and the counts last. */
export async function verifyMessages(options: {
  baseUrl: string;
  apiKey: string;
  files: string[];
  report: (line: string) => void;
  timeoutMs?: number;
  onProgress?: (progress: MessageVerifyProgress) => void;
}): Promise<MessageVerifyResult> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const interactions: MessageInteraction[] = [];
  for (const file of options.files)
    interactions.push(
      ...(JSON.parse(await readFile(file, 'utf8')) as { interactions: MessageInteraction[] }).interactions.filter(
        (i) => i.type === 'Asynchronous/Messages' && (i.providerStates?.length ?? 0) > 0,
      ),
    );
  // Interactions without a provider state are the frames the client sends: the provider receives them, they are not verified here.
  const stateOf = (interaction: MessageInteraction) => interaction.providerStates![0]!.name;
  const order = Object.values(MESSAGE_STATES) as string[];
  const states = [...new Set(interactions.map(stateOf))].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  const failed: MessageVerifyResult['failed'] = [];
  const passed = new Set<MessageInteraction>();
  const progress = () => options.onProgress?.({ expected: interactions.length, passed: passed.size, failed: failed.length });
  const fail = (interaction: MessageInteraction, field: string, reason: string) => {
    failed.push({ description: interaction.description, field, reason });
    options.report(`  FAILED: ${interaction.description}: field ${field}: ${reason}`);
  };
  progress();
  const deadline = Date.now() + (options.timeoutMs ?? MESSAGE_VERIFY_TIMEOUT_MS);
  const started = await startConversation(baseUrl, options.apiKey, deadline);
  const session = new Session(started.agentUrl, started.id, started.key, baseUrl, options.apiKey);
  try {
    await session.open(deadline);
    for (const state of states) {
      const mine = interactions.filter((i) => stateOf(i) === state);
      const stateDeadline = Math.min(deadline, Date.now() + STATE_TIMEOUT_MS);
      // A state is set up once the run before it is over, so none of its frames count for this one.
      await session.until(() => session.status() !== 'running', stateDeadline);
      // The first state's frames are the whole history; every other state's, those since its setup.
      const from = state === MESSAGE_STATES.firstRun ? 0 : session.frames.length;
      const since = () => session.frames.slice(from);
      const satisfied = () => mine.every((i) => since().some((frame) => mismatch(i, frame) === null));
      const setup = STATE_SETUPS[state];
      let why: string | null = !setup
        ? `no state handler for the provider state "${state}"`
        : session.closed
          ? `the provider closed the socket before the state "${state}" was set up`
          : null;
      if (setup && why === null) {
        await setup(session, satisfied, stateDeadline).catch((error: unknown) => {
          why = `the provider state "${state}" could not be set up: ${(error as Error).message}`;
        });
        // Until every interaction of the state has its frame, or the provider has nothing more to send.
        if (why === null) await session.until(() => satisfied() || session.quiet(), stateDeadline);
      }
      for (const interaction of mine) {
        if (why !== null) fail(interaction, 'providerState', why);
        else if (since().some((frame) => mismatch(interaction, frame) === null)) {
          passed.add(interaction);
          options.report(`  ok: ${interaction.description}`);
        } else {
          const nearest = nearestMismatch(interaction, since());
          fail(interaction, nearest.field, nearest.reason);
        }
        progress();
      }
    }
  } finally {
    await session.close();
  }
  options.report(`fakehands verify --messages: ${baseUrl}`);
  options.report(messageCounts(interactions.length, passed.size, failed.length, session.frames.length));
  return { ok: failed.length === 0 && passed.size === interactions.length, expected: interactions.length, passed: passed.size, failed };
}

/** The summary's last line: the counts. */
export function messageCounts(expected: number, passed: number, failed: number, frames: number | null): string {
  return `  interactions: ${expected}; passed: ${passed}; failed: ${failed}; frames received: ${frames ?? 'unknown'}`;
}

/** The default message contracts: the newest dialect's (the other dialects' are passed with `--pact`). */
async function defaultMessageFiles(): Promise<string[]> {
  return (await readdir(MESSAGE_CONTRACTS_DIR))
    .filter((f) => f.endsWith('.json') && !/-\d+\.\d+\.\d+\.json$/.test(f))
    .sort()
    .map((f) => `${MESSAGE_CONTRACTS_DIR}${f}`);
}

/** Runs `fakehands verify --messages --base-url URL [--api-key KEY] [--pact FILE ...]`; resolves with the exit code. */
export async function runMessageVerify(
  config: { baseUrl: string; apiKey?: string; pactFiles?: string[] },
  write: (text: string) => void,
  onProgress?: (progress: MessageVerifyProgress) => void,
): Promise<number> {
  const result = await verifyMessages({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey ?? '',
    files: config.pactFiles ?? (await defaultMessageFiles()),
    report: (line) => write(`${line}\n`),
    ...(onProgress ? { onProgress } : {}),
  });
  return result.ok ? 0 : 1;
}
