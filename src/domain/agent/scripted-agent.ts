/**
 * The scripted agent behind every conversation's agent server: deterministic and paced by the
 * fake's clock, like a start task. Each user message that runs the agent starts a run, a script of
 * steps due at fractions of `agentRunMs` after it started: `running`, a terminal command and its
 * output, a file edit (the turn's change of the derived workspace, so git changes, diff, file and
 * download show it), the agent's answer and `finished`. Steps are published as events of the
 * conversation's log when their time comes (`settleAgentRuns`, run before every operation), so a
 * manual clock or vitest's fake timers drive a run. Event shapes follow the agent server's models
 * (openhands-sdk `openhands/sdk/event/`: `MessageEvent`, `ActionEvent`, `ObservationEvent`,
 * `ConversationStateUpdateEvent`, `PauseEvent`, `SystemPromptEvent`), written without null fields
 * as the newest server writes them. What every request needs (a run's status, publishing one
 * event) is in `agent-status.ts`; this module loads with the first run (a chunk of its own in a page).
 */
import { formatDateTime, parseDateTime } from '../../schemas/datetime.js';
import type { AgentScript } from '../../schemas/agent-server.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';
import { agentStatus, publishEvent, runStepsTotal, stateUpdate, text, type AgentEvent } from './status.js';
import type { DomainState } from '../store/state.js';
import { workspaceOf } from './workspace.js';

export { RUN_STEPS, SYSTEM_PROMPT, agentStatus, editedTurns, publishEvent, runStepsTotal, type AgentEvent } from './status.js';

/** What a run's step publishes, and when: `at` is a fraction of `agentRunMs` after the run started. */
interface RunStep {
  at: number;
  event(context: RunContext): Omit<AgentEvent, 'id' | 'timestamp'>;
}

/** What a step's event is made from: the conversation, its turn, the workspace before and after it. */
interface RunContext {
  conversation: ConversationRecord;
  turn: number;
  before: Record<string, string>;
  after: Record<string, string>;
  projectDir: string;
  /** Ids of the events this run published so far, by step index (an observation names its action). */
  ids: string[];
  callId(step: number): string;
}


/** The path the turn changed, with its content before and after (absent: the file was not there). */
function turnChange(context: RunContext): { path: string; before: string | undefined; after: string | undefined } {
  const paths = [...new Set([...Object.keys(context.before), ...Object.keys(context.after)])].sort();
  const path = paths.find((p) => context.before[p] !== context.after[p]) ?? 'PLAN.md';
  return { path, before: context.before[path], after: context.after[path] };
}

function listing(files: Record<string, string>): string {
  return Object.keys(files).sort().map((path) => `${String(files[path]!.length).padStart(6)} ${path}`).join('\n');
}

/** The built-in script: look around, change one file, answer. */
const DEFAULT_SCRIPT: readonly RunStep[] = Object.freeze<RunStep[]>([
  { at: 0, event: () => stateUpdate('execution_status', 'running') },
  {
    at: 0.2,
    event: (c) => ({
      kind: 'ActionEvent', source: 'agent', thought: text('Let me look at the files of the project first.'),
      action: { kind: 'TerminalAction', command: 'git ls-files | xargs wc -c', is_input: false, reset: false },
      tool_name: 'terminal', tool_call_id: c.callId(1),
      tool_call: { id: c.callId(1), name: 'terminal', arguments: JSON.stringify({ command: 'git ls-files | xargs wc -c' }), origin: 'completion' },
      llm_response_id: `resp_${c.callId(1)}`, security_risk: 'LOW',
    }),
  },
  {
    at: 0.4,
    event: (c) => ({
      kind: 'ObservationEvent', source: 'environment', tool_name: 'terminal', tool_call_id: c.callId(1), action_id: c.ids[1],
      observation: {
        kind: 'TerminalObservation', content: text(`${listing(c.before)}\n`), is_error: false, command: 'git ls-files | xargs wc -c', exit_code: 0, timeout: false,
        metadata: { exit_code: 0, pid: -1, username: 'openhands', hostname: 'sandbox', working_dir: c.projectDir, py_interpreter_path: '/usr/bin/python3', prefix: '', suffix: '' },
      },
    }),
  },
  {
    at: 0.6,
    event: (c) => {
      const change = turnChange(c);
      const action = change.before === undefined
        ? { kind: 'FileEditorAction', command: 'create', path: `${c.projectDir}/${change.path}`, file_text: change.after ?? '' }
        : { kind: 'FileEditorAction', command: 'str_replace', path: `${c.projectDir}/${change.path}`, old_str: change.before, new_str: change.after ?? '' };
      return {
        kind: 'ActionEvent', source: 'agent', thought: text(`I will update ${change.path}.`), action,
        tool_name: 'file_editor', tool_call_id: c.callId(3),
        tool_call: { id: c.callId(3), name: 'file_editor', arguments: JSON.stringify(action), origin: 'completion' },
        llm_response_id: `resp_${c.callId(3)}`, security_risk: 'LOW',
      };
    },
  },
  {
    at: 0.8,
    event: (c) => {
      const change = turnChange(c);
      const path = `${c.projectDir}/${change.path}`;
      return {
        kind: 'ObservationEvent', source: 'environment', tool_name: 'file_editor', tool_call_id: c.callId(3), action_id: c.ids[3],
        observation: {
          kind: 'FileEditorObservation', content: text(change.before === undefined ? `File created successfully at: ${path}` : `The file ${path} has been edited.`),
          is_error: false, command: change.before === undefined ? 'create' : 'str_replace', path, prev_exist: change.before !== undefined,
          ...(change.before !== undefined ? { old_content: change.before } : {}), new_content: change.after ?? '',
        },
      };
    },
  },
  { at: 1, event: () => stateUpdate('execution_status', 'finished') },
  {
    at: 1,
    event: (c) => ({
      kind: 'MessageEvent', source: 'agent', activated_skills: [], extended_content: [],
      llm_message: { role: 'assistant', content: text(`Done: I changed ${turnChange(c).path}. Have a look at the Changes tab.`) },
    }),
  },
]);


/** The events of one step of a user's script, each due at its own time within the run. */
type Scripted = { event: RunStep['event']; ends?: 'error' | 'stuck' }[];

/**
 * Turns a user's script into run steps: `running` first; then each step's events (a terminal
 * command and its output; the turn's file edit; a message; an `AgentErrorEvent`; a failure, which
 * ends the run with a `ConversationErrorEvent` and `error`; being stuck, which ends it with
 * `stuck`), spread evenly over the run; then `finished`, unless the run ended otherwise.
 */
function compileScript(script: AgentScript): { steps: RunStep[]; editAfter: number } {
  const events: Scripted = [];
  let editAfter = -1;
  for (const step of script.steps) {
    const index = events.length + 1;
    if ('terminal' in step) {
      const { command, output, exit_code } = step.terminal;
      events.push({ event: (c) => ({ ...(DEFAULT_SCRIPT[1]!.event(c) as Record<string, unknown>), action: { kind: 'TerminalAction', command, is_input: false, reset: false }, tool_call_id: c.callId(index), tool_call: { id: c.callId(index), name: 'terminal', arguments: JSON.stringify({ command }), origin: 'completion' }, llm_response_id: `resp_${c.callId(index)}` }) as Omit<AgentEvent, 'id' | 'timestamp'> });
      events.push({ event: (c) => ({ kind: 'ObservationEvent', source: 'environment', tool_name: 'terminal', tool_call_id: c.callId(index), action_id: c.ids[index], observation: { kind: 'TerminalObservation', content: text(output), is_error: exit_code !== 0, command, exit_code, timeout: false } }) });
    } else if ('edit' in step) {
      events.push({ event: (c) => ({ ...(DEFAULT_SCRIPT[3]!.event({ ...c, callId: () => c.callId(index) }) as Record<string, unknown>) }) as Omit<AgentEvent, 'id' | 'timestamp'> });
      events.push({ event: (c) => ({ ...(DEFAULT_SCRIPT[4]!.event({ ...c, callId: () => c.callId(index), ids: { ...c.ids, 3: c.ids[index] } as unknown as string[] }) as Record<string, unknown>) }) as Omit<AgentEvent, 'id' | 'timestamp'> });
      editAfter = events.length + 1;
    } else if ('message' in step) {
      events.push({ event: () => ({ kind: 'MessageEvent', source: 'agent', activated_skills: [], extended_content: [], llm_message: { role: 'assistant', content: text(step.message) } }) });
    } else if ('error' in step) {
      events.push({ event: (c) => ({ kind: 'AgentErrorEvent', source: 'agent', tool_name: 'terminal', tool_call_id: c.callId(index), error: step.error }) });
    } else if ('fail' in step) {
      events.push({ event: () => ({ kind: 'ConversationErrorEvent', source: 'environment', code: step.fail.code, detail: step.fail.detail }) });
      events.push({ event: () => stateUpdate('execution_status', 'error'), ends: 'error' });
      break;
    } else {
      events.push({ event: () => stateUpdate('execution_status', 'stuck'), ends: 'stuck' });
      break;
    }
  }
  const ended = events.at(-1)?.ends !== undefined;
  const total = events.length + (ended ? 0 : 1);
  const steps: RunStep[] = [{ at: 0, event: () => stateUpdate('execution_status', 'running') }];
  events.forEach((scripted, i) => steps.push({ at: ended && i === events.length - 1 ? 1 : (i + 1) / total, event: scripted.event }));
  if (!ended) steps.push({ at: 1, event: () => stateUpdate('execution_status', 'finished') });
  return { steps, editAfter: editAfter < 0 ? steps.length : editAfter };
}

/** The run steps of the script a conversation's current run follows. */
function stepsOf(state: DomainState, conversation: ConversationRecord): readonly RunStep[] {
  const script = conversation.agent_script === undefined ? undefined : state.options.agentScripts?.[conversation.agent_script];
  return script ? compileScript(script).steps : DEFAULT_SCRIPT;
}

/** The script for a message: the first whose `match` the text contains, or none (the built-in one). */
function scriptFor(state: DomainState, message: string): { index: number; total: number; editAfter: number } | null {
  const scripts = state.options.agentScripts ?? [];
  const lower = message.toLowerCase();
  const index = scripts.findIndex((s) => s.match === undefined || lower.includes(s.match.toLowerCase()));
  if (index < 0) return null;
  const { steps, editAfter } = compileScript(scripts[index]!);
  return { index, total: steps.length, editAfter };
}

/** When a run started, in epoch ms. */
const runStart = (conversation: ConversationRecord) => parseDateTime(conversation.agent_started_at ?? conversation.created_at);

/**
 * A user message to the agent: published as a user `MessageEvent`; with `run`, starts a run (a
 * run still going first publishes what is left of it, so one turn follows another).
 */
export async function deliverMessage(state: DomainState, conversation: ConversationRecord, message: string, run: boolean, atMs = state.clock.now()): Promise<ConversationRecord> {
  let current = conversation;
  if (agentStatus(current) === 'running') current = await publishDueSteps(state, current, Number.POSITIVE_INFINITY);
  await publishEvent(state, current.id, { kind: 'MessageEvent', source: 'user', activated_skills: [], extended_content: [], llm_message: { role: 'user', content: text(message) } }, atMs);
  const now = state.stamp(atMs);
  current = await state.store.conversations.update(current.id, {
    messages: [...current.messages, message],
    updated_at: now,
    ...(run ? runFields(state, message, current.agent_turns + 1, now) : {}),
  });
  if (run) {
    state.activeRuns.add(current.id);
    current = await publishDueSteps(state, current, state.clock.now());
  }
  return current;
}

/** What a new run sets on its conversation: its turn, start, script and progress. */
function runFields(state: DomainState, message: string, turns: number, now: string) {
  const script = scriptFor(state, message);
  return {
    agent_turns: turns, agent_started_at: now, agent_steps_done: 0, agent_status: undefined,
    agent_script: script?.index, agent_steps_total: script?.total, agent_edit_after: script?.editAfter,
  };
}

/** Publishes the steps of a conversation's run due by `nowMs`; returns the conversation as it then is. */
async function publishDueSteps(state: DomainState, conversation: ConversationRecord, nowMs: number): Promise<ConversationRecord> {
  if (conversation.agent_steps_done === undefined || conversation.agent_status) return conversation;
  const started = runStart(conversation);
  const runMs = state.options.timings.agentRunMs;
  const turn = conversation.agent_turns - 1;
  const workingDir = state.store.sandboxSpecs.get(state.store.sandboxes.get(conversation.sandbox_id)?.sandbox_spec_id ?? '')?.working_dir ?? DEFAULT_WORKING_DIR;
  const before = workspaceOf(conversation, turn, workingDir);
  const after = workspaceOf(conversation, turn + 1, workingDir);
  const ids = runEventIds(state, conversation);
  const context: RunContext = {
    conversation, turn, before: before.current, after: after.current, projectDir: before.projectDir, ids,
    callId: (step) => `call_${conversation.id.slice(0, 8)}_${turn}_${step}`,
  };
  const script = stepsOf(state, conversation);
  let done = conversation.agent_steps_done;
  let ended: 'error' | 'stuck' | undefined;
  while (done < script.length && started + script[done]!.at * runMs <= nowMs) {
    const step = script[done]!;
    const fields = step.event(context);
    const event = await publishEvent(state, conversation.id, fields, Math.min(nowMs, started + step.at * runMs));
    if (fields.kind === 'ConversationStateUpdateEvent' && (fields.value === 'error' || fields.value === 'stuck')) ended = fields.value;
    ids.push(event.id);
    done++;
    // Confirmation mode: an action is published, not run, until the client answers.
    if (conversation.agent_confirm && fields.kind === 'ActionEvent') {
      await publishEvent(state, conversation.id, stateUpdate('execution_status', 'waiting_for_confirmation'), Math.min(nowMs, started + step.at * runMs));
      state.activeRuns.delete(conversation.id);
      return state.store.conversations.update(conversation.id, { agent_steps_done: done, agent_status: 'waiting_for_confirmation', agent_paused_at: formatDateTime(Math.min(nowMs, started + step.at * runMs)) });
    }
  }
  if (done === conversation.agent_steps_done) return conversation;
  if (done >= script.length) state.activeRuns.delete(conversation.id);
  return state.store.conversations.update(conversation.id, { agent_steps_done: done, ...(ended ? { agent_status: ended } : {}) });
}

/** The ids of the events the current run published, in step order (the last `agent_steps_done` run events of the log). */
function runEventIds(state: DomainState, conversation: ConversationRecord): string[] {
  const done = conversation.agent_steps_done ?? 0;
  const all = state.store.eventIdsOf(conversation.id);
  return done === 0 ? [] : all.slice(all.length - done);
}

/** Publishes every run step due by now, for every conversation with a run going (called before every operation). */
export async function settleAgentRuns(state: DomainState): Promise<void> {
  if (state.activeRuns.size === 0) return;
  const now = state.clock.now();
  for (const id of [...state.activeRuns]) {
    const conversation = state.store.conversations.get(id);
    if (!conversation || agentStatus(conversation) !== 'running') {
      state.activeRuns.delete(id);
      continue;
    }
    await publishDueSteps(state, conversation, now);
  }
}

/** `POST .../pause` on the agent server: a running agent stops where it is (`PauseEvent`, then `paused`). */
export async function pauseAgent(state: DomainState, conversation: ConversationRecord): Promise<void> {
  if (agentStatus(conversation) !== 'running') return;
  await publishEvent(state, conversation.id, { kind: 'PauseEvent', source: 'user' });
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'paused'));
  await state.store.conversations.update(conversation.id, { agent_status: 'paused', agent_paused_at: formatDateTime(state.clock.now()) });
}

/**
 * `POST .../run` on the agent server: a paused agent goes on from the step it stopped at (its
 * remaining steps keep their spacing); `false` when it is already running (the route's 409).
 */
export async function runAgent(state: DomainState, conversation: ConversationRecord): Promise<boolean> {
  const status = agentStatus(conversation);
  if (status === 'running') return false;
  if (status !== 'paused' || conversation.agent_steps_done === undefined) return true;
  const pausedFor = state.clock.now() - parseDateTime(conversation.agent_paused_at ?? formatDateTime(state.clock.now()));
  const resumed = await state.store.conversations.update(conversation.id, {
    agent_status: undefined, agent_paused_at: undefined,
    agent_started_at: formatDateTime(runStart(conversation) + pausedFor),
  });
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'running'));
  state.activeRuns.add(resumed.id);
  await publishDueSteps(state, resumed, state.clock.now());
  return true;
}

/**
 * `POST .../run` when messages wait (sent with `run: false`): one run works on them, as the real
 * `event_service.py` (`run`) runs the agent on what its state holds; `false` when none waits.
 */
export async function runOnWaitingMessages(state: DomainState, conversation: ConversationRecord): Promise<boolean> {
  if (conversation.messages.length <= conversation.agent_turns) return false;
  const now = state.stamp();
  const current = await state.store.conversations.update(conversation.id, {
    updated_at: now, agent_paused_at: undefined, ...runFields(state, conversation.messages.at(-1)!, conversation.messages.length, now),
  });
  state.activeRuns.add(current.id);
  await publishDueSteps(state, current, state.clock.now());
  return true;
}

/** `POST .../confirmation_policy`: `AlwaysConfirm` makes each action wait for the client's answer; anything else runs them. */
export async function setConfirmationPolicy(state: DomainState, conversation: ConversationRecord, kind: string): Promise<void> {
  await state.store.conversations.update(conversation.id, { agent_confirm: kind === 'AlwaysConfirm' });
  await publishEvent(state, conversation.id, stateUpdate('confirmation_policy', { kind }));
}

/**
 * `POST .../events/respond_to_confirmation` (`event_service.py`, respond_to_confirmation): accept
 * runs the waiting action and the run goes on; reject publishes a `UserRejectObservation` for it
 * and the agent is `idle`, waiting for the next message. Nothing waiting: nothing happens.
 */
export async function respondToConfirmation(state: DomainState, conversation: ConversationRecord, accept: boolean, reason: string): Promise<void> {
  if (conversation.agent_status !== 'waiting_for_confirmation') return;
  if (accept) {
    const waited = state.clock.now() - parseDateTime(conversation.agent_paused_at ?? formatDateTime(state.clock.now()));
    const resumed = await state.store.conversations.update(conversation.id, {
      agent_status: undefined, agent_paused_at: undefined, agent_started_at: formatDateTime(runStart(conversation) + waited),
    });
    await publishEvent(state, conversation.id, stateUpdate('execution_status', 'running'));
    state.activeRuns.add(resumed.id);
    await publishDueSteps(state, resumed, state.clock.now());
    return;
  }
  const action = state.store.events.get(state.store.eventIdsOf(conversation.id).at(-2) ?? '')?.event as AgentEvent | undefined;
  await publishEvent(state, conversation.id, {
    kind: 'UserRejectObservation', source: 'user', tool_name: String(action?.tool_name ?? 'terminal'), tool_call_id: String(action?.tool_call_id ?? ''),
    action_id: action?.id ?? '', rejection_reason: reason, rejection_source: 'user',
  });
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'idle'));
  await state.store.conversations.update(conversation.id, { agent_status: 'idle', agent_paused_at: undefined, agent_steps_done: runStepsTotal(conversation) });
}

/** The `full_state` a socket's first frame carries: the conversation's state as the agent server holds it. */
export function fullState(conversation: ConversationRecord, executionStatus: string): Omit<AgentEvent, 'id' | 'timestamp'> {
  return stateUpdate('full_state', {
    id: conversation.id,
    execution_status: executionStatus,
    confirmation_policy: { kind: conversation.agent_confirm ? 'AlwaysConfirm' : 'NeverConfirm' },
    max_iterations: 500,
    stuck_detection: true,
    title: conversation.title,
    activated_knowledge_skills: [],
    blocked_actions: {},
    blocked_messages: {},
  });
}
