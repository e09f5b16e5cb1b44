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
import type { ConversationRecord } from '../../schemas/records.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';
import { EDIT_DONE_AFTER, agentStatus, runStepsTotal, type AgentEvent } from './status.js';
import { stateUpdate, text } from './vocabulary.js';
import { publishEvent } from './publish.js';
import { tracksLastUserMessage } from './dialect.js';
import { DEFAULT_SCRIPT, type RunContext, type RunStep } from './default-script.js';
import { SHOWCASE_INDEX, SHOWCASE_MATCH, SHOWCASE_SCRIPT } from './showcase.js';
import { compileScript } from './steps.js';
import type { DomainState } from '../store/state.js';
import { workspaceOf } from './workspace.js';
import { judgeGoal } from './goal-judge.js';
import { statsForFullState, statsSnapshot, type ConversationStats } from './vocabulary-stats.js';
import { conversationStats } from './conversation-stats.js';

export { RUN_STEPS, agentStatus, editedTurns, runStepsTotal, type AgentEvent } from './status.js';
export { SYSTEM_PROMPT } from './system-prompt.js';
import { systemPromptFor } from './system-prompt.js';
export { publishEvent } from './publish.js';

/** The run steps of the script a conversation's current run follows. */
function stepsOf(state: DomainState, conversation: ConversationRecord): readonly RunStep[] {
  const script =
    conversation.agent_script === SHOWCASE_INDEX
      ? SHOWCASE_SCRIPT
      : conversation.agent_script === undefined
        ? undefined
        : state.options.agentScripts?.[conversation.agent_script];
  return script ? compileScript(script).steps : DEFAULT_SCRIPT;
}

/** The script for a message: the first user script whose `match` the text contains, else the showcase for `showcase`, or none (the built-in one). */
function scriptFor(state: DomainState, message: string): { index: number; total: number; editAfter: number } | null {
  const scripts = state.options.agentScripts ?? [];
  const lower = message.toLowerCase();
  const index = scripts.findIndex((s) => s.match === undefined || lower.includes(s.match.toLowerCase()));
  if (index < 0 && lower.includes(SHOWCASE_MATCH)) {
    const { steps, editAfter } = compileScript(SHOWCASE_SCRIPT);
    return { index: SHOWCASE_INDEX, total: steps.length, editAfter };
  }
  if (index < 0) return null;
  const { steps, editAfter } = compileScript(scripts[index]!);
  return { index, total: steps.length, editAfter };
}

/** The tools whose lone action never waits for confirmation. */
const NEVER_CONFIRMED = new Set(['finish', 'think']);

/** Whether a conversation's log holds an event besides state updates (its agent has been made ready). */
function hasHistory(state: DomainState, conversationId: string): boolean {
  for (const id of state.store.eventIdsOf(conversationId))
    if ((state.store.events.get(id)?.event as { kind?: string } | undefined)?.kind !== 'ConversationStateUpdateEvent') return true;
  return false;
}

/** When a run started, in epoch ms. */
const runStart = (conversation: ConversationRecord) => parseDateTime(conversation.agent_started_at ?? conversation.created_at);

/**
 * A user message to the agent: published as a user `MessageEvent`, then (servers since v1.11.5) the
 * state's `last_user_message_id` update naming it; with `run`, starts a run (a run still going first
 * publishes what is left of it, so one turn follows another).
 */
export async function deliverMessage(
  state: DomainState,
  conversation: ConversationRecord,
  message: string,
  run: boolean,
  atMs = state.clock.now(),
): Promise<ConversationRecord> {
  let current = conversation;
  if (agentStatus(current) === 'running') current = await publishDueSteps(state, current, Number.POSITIVE_INFINITY);
  // The agent is made ready at the first message, which publishes its system prompt (openhands-sdk
  // local_conversation.py, `_ensure_agent_ready`), after any state update set before it.
  if (!hasHistory(state, current.id)) await publishEvent(state, current.id, systemPromptFor(current.agent_host?.tools ?? null), atMs);
  const sent = await publishEvent(
    state,
    current.id,
    {
      kind: 'MessageEvent',
      source: 'user',
      activated_skills: [],
      extended_content: [],
      llm_message: { role: 'user', content: text(message), thinking_blocks: [] },
    },
    atMs,
  );
  // The state then keeps the message's id, an update published after the message (local_conversation.py,
  // `_track_last_user_message`, the callback after every other; state.py, `__setattr__` publishes the change).
  if (tracksLastUserMessage(state.options.agentServerVersion))
    await publishEvent(state, current.id, stateUpdate('last_user_message_id', sent.id), atMs);
  const now = state.stamp(atMs);
  current = await state.store.conversations.update(current.id, {
    messages: [...current.messages, message],
    updated_at: now,
    ...(run ? runFields(state, message, current.agent_turns + 1, now) : {}),
  });
  if (run) {
    state.activeRuns.add(current.id);
    current = await publishDueSteps(state, current, state.now());
  }
  return current;
}

/** What a new run sets on its conversation: its turn, start, script and progress. */
function runFields(state: DomainState, message: string, turns: number, now: string) {
  const script = scriptFor(state, message);
  return {
    agent_turns: turns,
    agent_started_at: now,
    agent_steps_done: 0,
    agent_status: undefined,
    agent_script: script?.index,
    agent_steps_total: script?.total,
    agent_edit_after: script?.editAfter,
  };
}

/** Publishes the steps of a conversation's run due by `nowMs`; returns the conversation as it then is. */
async function publishDueSteps(state: DomainState, conversation: ConversationRecord, nowMs: number): Promise<ConversationRecord> {
  if (conversation.agent_steps_done === undefined || conversation.agent_status) return conversation;
  const started = runStart(conversation);
  const runMs = state.options.timings.agentRunMs;
  const turn = conversation.agent_turns - 1;
  const workingDir =
    state.store.sandboxSpecs.get(state.store.sandboxes.get(conversation.sandbox_id)?.sandbox_spec_id ?? '')?.working_dir ??
    DEFAULT_WORKING_DIR;
  const before = workspaceOf(conversation, turn, workingDir);
  const after = workspaceOf(conversation, turn + 1, workingDir);
  const ids = runEventIds(state, conversation);
  const context: RunContext = {
    turn,
    before: before.current,
    after: after.current,
    projectDir: before.projectDir,
    ids,
    callId: (step) => `call_${conversation.id.slice(0, 8)}_${turn}_${step}`,
    stats: () => statsSnapshot(conversationStats(state, conversation)),
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
    // Confirmation mode: an action is published, not run, until the client answers; a lone finish or think never waits
    // (openhands-sdk 1.58.2 `agent.py`, `_analyze_for_confirmation`).
    if (conversation.agent_confirm && fields.kind === 'ActionEvent' && !NEVER_CONFIRMED.has(String(fields.tool_name))) {
      await publishEvent(
        state,
        conversation.id,
        stateUpdate('execution_status', 'waiting_for_confirmation'),
        Math.min(nowMs, started + step.at * runMs),
      );
      state.activeRuns.delete(conversation.id);
      return state.store.conversations.update(conversation.id, {
        agent_steps_done: done,
        agent_status: 'waiting_for_confirmation',
        agent_paused_at: formatDateTime(Math.min(nowMs, started + step.at * runMs)),
      });
    }
  }
  if (done === conversation.agent_steps_done) return conversation;
  if (done >= script.length) state.activeRuns.delete(conversation.id);
  const updated = await state.store.conversations.update(conversation.id, {
    agent_steps_done: done,
    ...(ended ? { agent_status: ended } : {}),
  });
  // A run under a goal is judged when it ends, as the goal loop audits each run (`goal-judge.ts`).
  return done >= script.length || ended ? judgeGoal(state, updated) : updated;
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
  const now = state.now();
  for (const id of [...state.activeRuns]) {
    const conversation = state.store.conversations.get(id);
    if (!conversation || agentStatus(conversation) !== 'running') {
      state.activeRuns.delete(id);
      continue;
    }
    await publishDueSteps(state, conversation, now);
  }
}

/** `POST .../pause` on the agent server: a running agent stops where it is (`paused`, then a `PauseEvent`: local_conversation.py, `pause`). */
export async function pauseAgent(state: DomainState, conversation: ConversationRecord): Promise<void> {
  if (agentStatus(conversation) !== 'running') return;
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'paused'));
  await publishEvent(state, conversation.id, { kind: 'PauseEvent', source: 'user' });
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
    agent_status: undefined,
    agent_paused_at: undefined,
    agent_started_at: formatDateTime(runStart(conversation) + pausedFor),
  });
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'running'));
  state.activeRuns.add(resumed.id);
  await publishDueSteps(state, resumed, state.now());
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
    updated_at: now,
    agent_paused_at: undefined,
    ...runFields(state, conversation.messages.at(-1)!, conversation.messages.length, now),
  });
  state.activeRuns.add(current.id);
  await publishDueSteps(state, current, state.now());
  return true;
}

/** `POST .../confirmation_policy`: `AlwaysConfirm` makes each action wait for the client's answer; anything else runs them. */
export async function setConfirmationPolicy(state: DomainState, conversation: ConversationRecord, kind: string): Promise<void> {
  const before = conversation.agent_confirm ? 'AlwaysConfirm' : 'NeverConfirm';
  await state.store.conversations.update(conversation.id, { agent_confirm: kind === 'AlwaysConfirm' });
  // Published when the policy changes, as a state field's update is (1.58.2 `state.py`, `__setattr__`: `old != value`).
  if (kind !== before) await publishEvent(state, conversation.id, stateUpdate('confirmation_policy', { kind }));
}

/**
 * `POST .../events/respond_to_confirmation` (`event_service.py`, respond_to_confirmation): accept
 * runs the waiting action and the run goes on; reject publishes a `UserRejectObservation` for it
 * and the agent is `idle`, waiting for the next message. Nothing waiting: nothing happens.
 */
export async function respondToConfirmation(
  state: DomainState,
  conversation: ConversationRecord,
  accept: boolean,
  reason: string,
): Promise<void> {
  if (conversation.agent_status !== 'waiting_for_confirmation') return;
  if (accept) {
    const waited = state.clock.now() - parseDateTime(conversation.agent_paused_at ?? formatDateTime(state.clock.now()));
    const resumed = await state.store.conversations.update(conversation.id, {
      agent_status: undefined,
      agent_paused_at: undefined,
      agent_started_at: formatDateTime(runStart(conversation) + waited),
    });
    await publishEvent(state, conversation.id, stateUpdate('execution_status', 'running'));
    state.activeRuns.add(resumed.id);
    await publishDueSteps(state, resumed, state.now());
    return;
  }
  const action = state.store.events.get(state.store.eventIdsOf(conversation.id).at(-2) ?? '')?.event as AgentEvent | undefined;
  // The status first, then the observation, an observation's source (local_conversation.py, `reject_pending_actions`), as the running 1.58.2 publishes them.
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'idle'));
  await publishEvent(state, conversation.id, {
    kind: 'UserRejectObservation',
    source: 'environment',
    tool_name: String(action?.tool_name ?? 'terminal'),
    tool_call_id: String(action?.tool_call_id ?? ''),
    action_id: action?.id ?? '',
    rejection_reason: reason,
    rejection_source: 'user',
  });
  // A run rejected before its edit ran never edits: the workspace shows the turn without it.
  const editAfter = conversation.agent_edit_after ?? EDIT_DONE_AFTER;
  await state.store.conversations.update(conversation.id, {
    agent_status: 'idle',
    agent_paused_at: undefined,
    agent_steps_done: runStepsTotal(conversation),
    ...(conversation.agent_steps_done! <= editAfter ? { agent_edit_after: runStepsTotal(conversation) + 1 } : {}),
  });
}

/** A value dumped without its `None` fields, at every depth of its objects (pydantic's `exclude_none`). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) if (field !== null) out[key] = withoutNulls(field);
  return out;
}

/** What a `full_state` shows of the conversation that the agent host keeps (its `ConversationInfo`'s). */
export interface FullStateHost {
  readonly agent?: unknown;
  readonly workspace?: unknown;
  readonly persistence_dir?: unknown;
  readonly max_iterations?: unknown;
  readonly stuck_detection?: unknown;
  readonly security_analyzer?: unknown;
  readonly secret_registry?: unknown;
  readonly tags?: unknown;
}

/**
 * The `full_state` a socket's first frame carries: the conversation's state as the agent server
 * holds it, with its `stats` when given and its `last_user_message_id` once there is one
 * (openhands-sdk 1.58.2 `event/conversation_state.py`, `from_conversation_state`: the
 * `ConversationState` dumped without `None` fields, in its fields' order; the title is no state field).
 */
export function fullState(
  conversation: ConversationRecord,
  executionStatus: string,
  stats?: ConversationStats,
  lastUserMessageId?: string,
  host?: FullStateHost,
): Omit<AgentEvent, 'id' | 'timestamp'> {
  return stateUpdate('full_state', {
    id: conversation.id,
    ...(host ? { agent: withoutNulls(host.agent), workspace: withoutNulls(host.workspace), persistence_dir: host.persistence_dir } : {}),
    max_iterations: host?.max_iterations ?? 500,
    stuck_detection: host?.stuck_detection ?? true,
    execution_status: executionStatus,
    confirmation_policy: { kind: conversation.agent_confirm ? 'AlwaysConfirm' : 'NeverConfirm' },
    ...(host?.security_analyzer ? { security_analyzer: host.security_analyzer } : {}),
    activated_knowledge_skills: [],
    activated_path_rules: [],
    invoked_skills: [],
    blocked_actions: {},
    blocked_messages: {},
    ...(lastUserMessageId !== undefined ? { last_user_message_id: lastUserMessageId } : {}),
    head_is_empty: false,
    ...(stats ? { stats: statsForFullState(stats) } : {}),
    ...(host ? { secret_registry: withoutNulls(host.secret_registry), tags: host.tags } : {}),
    agent_state: {},
  });
}
