/**
 * Replay of recorded sessions (issue 32). A V0 trajectory replays as OpenHands' `ReplayManager`
 * does (`openhands/controller/replay.py`): environment events and `NullObservation`s are dropped,
 * the first event must be the user's message (`openhands/core/main.py`, `load_replay_log`), and
 * the agent's actions (and the user's later messages) are issued again, in order. The real runtime
 * runs each action again to observe it; the fake runs nothing, so an action's recorded observation
 * is its result. Each is translated to the agent server's events (`MessageEvent`, `ActionEvent`
 * with `TerminalAction`, `FileEditorAction`, `ThinkAction`, `FinishAction`, `BrowserNavigateAction`,
 * and their `ObservationEvent`s); V0 kinds with no V1 counterpart (`run_ipython`, `recall`,
 * `system`, `change_agent_state`, `browse_interactive`, …) are skipped. A V1 event log (events
 * search) replays as it is, with new ids (references between its events follow them). Events
 * come at their recorded gaps divided by `speed` on the fake's clock (`instant`: all at once),
 * from a conversation timeline (`streaming.ts`); while they come the agent is `running`, then
 * `finished` (or the last status the log recorded). A replay lives in memory: a restart or a
 * snapshot keeps the events published so far, not the rest.
 */
import type { ReplaySpeed, ReplayStarted, V0TrajectoryEvent, V1RecordedEvent } from '../../schemas/replay.js';
import { MAX_REPLAY_EVENTS, V0Trajectory } from '../../schemas/replay.js';
import { listLongerThan } from './json-list.js';
import type { ConversationRecord } from '../../schemas/records.js';
import { breathe } from '../store/mutex.js';
import { invalid } from '../store/refusal.js';
import { toHex } from '../store/ids.js';
import type { DomainState } from '../store/state.js';
import { createSandbox } from '../sandboxes/sandboxes.js';
import { conversationUrl } from '../conversations/views.js';
import type { AgentEvent } from './status.js';
import { SYSTEM_PROMPT } from './system-prompt.js';
import { stateUpdate, text } from './vocabulary.js';
import { storeEvent } from './store-event.js';
import { newEventId, scheduleEvents, type TimelineItem } from './streaming.js';

/** An event's fields before it has an id and a timestamp. */
type EventFields = Omit<AgentEvent, 'id' | 'timestamp'>;

/** One event to replay: when it was recorded (epoch ms, or `NaN`), the key others name it by, and its fields once every key has an id. */
interface Recorded {
  atMs: number;
  key?: string;
  fields(idOf: (key: string) => string | undefined): EventFields;
}

/** A recorded timestamp in epoch ms (naive ones are UTC, as the servers write them); `NaN` when there is none. */
const recordedMs = (timestamp: string | undefined): number =>
  timestamp === undefined ? Number.NaN : Date.parse(/(Z|[+-]\d{2}:\d{2})$/.test(timestamp) ? timestamp : `${timestamp}Z`);

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

/** The V1 action (its tool and the action's fields) a V0 action becomes; `null` for kinds the agent server has no counterpart of. */
function v1Action(event: V0TrajectoryEvent): { tool: string; action: Record<string, unknown> } | null {
  const args = event.args ?? {};
  switch (event.action) {
    case 'run':
      return {
        tool: 'terminal',
        action: {
          kind: 'TerminalAction',
          command: str(args.command),
          is_input: args.is_input === true || args.is_input === 'true',
          reset: false,
        },
      };
    case 'read':
      return { tool: 'file_editor', action: { kind: 'FileEditorAction', command: 'view', path: str(args.path) } };
    case 'write':
      return {
        tool: 'file_editor',
        action: { kind: 'FileEditorAction', command: 'create', path: str(args.path), file_text: str(args.content) },
      };
    case 'edit': {
      const command = str(args.command, 'create');
      const action: Record<string, unknown> = { kind: 'FileEditorAction', command, path: str(args.path) };
      if (command === 'create') action.file_text = str(args.file_text, str(args.content));
      if (typeof args.old_str === 'string') action.old_str = args.old_str;
      if (typeof args.new_str === 'string') action.new_str = args.new_str;
      if (typeof args.insert_line === 'number') action.insert_line = args.insert_line;
      return { tool: 'file_editor', action };
    }
    case 'think':
      return { tool: 'think', action: { kind: 'ThinkAction', thought: str(args.thought) } };
    case 'finish':
      return { tool: 'finish', action: { kind: 'FinishAction', message: str(args.final_thought) || str(event.message) } };
    case 'browse':
      return { tool: 'browser_navigate', action: { kind: 'BrowserNavigateAction', url: str(args.url), new_tab: false } };
    default:
      return null;
  }
}

/** The V1 observation a recorded V0 observation becomes, for the action it answers; `null` when none. */
function v1Observation(event: V0TrajectoryEvent, action: Record<string, unknown>): Record<string, unknown> | null {
  const extras = event.extras ?? {};
  const content = text(str(event.content));
  switch (event.observation) {
    case 'run': {
      const metadata = (extras.metadata ?? {}) as { exit_code?: unknown };
      const exitCode =
        typeof metadata.exit_code === 'number' ? metadata.exit_code : typeof extras.exit_code === 'number' ? extras.exit_code : 0;
      return {
        kind: 'TerminalObservation',
        content,
        is_error: exitCode !== 0,
        command: str(extras.command, str(action.command)),
        exit_code: exitCode,
        timeout: false,
      };
    }
    case 'read':
    case 'write':
    case 'edit':
      return {
        kind: 'FileEditorObservation',
        content,
        is_error: false,
        command: action.command,
        path: str(extras.path, str(action.path)),
        prev_exist: extras.prev_exist === true,
        ...(typeof extras.old_content === 'string' ? { old_content: extras.old_content } : {}),
        ...(typeof extras.new_content === 'string' ? { new_content: extras.new_content } : {}),
      };
    case 'think':
      return { kind: 'ThinkObservation', content };
    case 'browse':
      return { kind: 'BrowserObservation', content, is_error: false };
    default:
      return null;
  }
}

/**
 * A V0 trajectory's replayable events as the agent server's: the first the user's message. Throws
 * a 422 `invalid` at `loc` for a trajectory that has none first.
 */
export function fromTrajectory(trajectory: readonly V0TrajectoryEvent[], loc: readonly (string | number)[]): Recorded[] {
  const kept = trajectory.filter((e) => e.source !== 'environment' && e.observation !== 'null');
  const first = kept[0];
  if (!first || first.action !== 'message' || first.source !== 'user') {
    throw invalid([
      {
        type: 'value_error',
        loc: [...loc],
        msg: "Value error, the first event of a trajectory to replay must be the user's message (a `message` action from `user`)",
        input: first ?? null,
        ctx: { error: {} },
      },
    ]);
  }
  const out: Recorded[] = [];
  const actions = new Map<number, { tool: string; action: Record<string, unknown>; key: string }>();
  kept.forEach((event, index) => {
    const atMs = recordedMs(event.timestamp);
    if (event.action === 'message') {
      const role = event.source === 'user' ? 'user' : 'assistant';
      const body = str(event.args?.content, str(event.message));
      out.push({
        atMs,
        fields: () => ({
          kind: 'MessageEvent',
          source: role === 'user' ? 'user' : 'agent',
          activated_skills: [],
          extended_content: [],
          llm_message: { role, content: text(body) },
        }),
      });
      // The agent server says it runs once the user's first message is in.
      if (index === 0) out.push({ atMs, fields: () => stateUpdate('execution_status', 'running') });
      return;
    }
    if (event.action !== undefined) {
      const translated = v1Action(event);
      if (!translated) return;
      const key = `v0:${event.id ?? `#${index}`}`;
      const callId = `call_replay_${index}`;
      if (event.id !== undefined) actions.set(event.id, { ...translated, key });
      const thought = str(event.args?.thought);
      out.push({
        atMs,
        key,
        fields: () => ({
          kind: 'ActionEvent',
          source: 'agent',
          thought: text(thought),
          action: translated.action,
          tool_name: translated.tool,
          tool_call_id: callId,
          tool_call: { id: callId, name: translated.tool, arguments: JSON.stringify(translated.action), origin: 'completion' },
          llm_response_id: `resp_${callId}`,
          security_risk: 'LOW',
        }),
      });
      if (event.action === 'finish') {
        out.push({
          atMs,
          fields: (idOf) => ({
            kind: 'ObservationEvent',
            source: 'environment',
            tool_name: 'finish',
            tool_call_id: callId,
            action_id: idOf(key),
            observation: { kind: 'FinishObservation', content: text(str(translated.action.message)), is_error: false },
          }),
        });
      }
      return;
    }
    const answered = event.cause === undefined || event.cause === null ? undefined : actions.get(event.cause);
    if (!answered) return;
    const observation = v1Observation(event, answered.action);
    if (!observation) return;
    const callId = `call_replay_${kept.findIndex((e) => e.id === event.cause)}`;
    out.push({
      atMs,
      fields: (idOf) => ({
        kind: 'ObservationEvent',
        source: 'environment',
        tool_name: answered.tool,
        tool_call_id: callId,
        action_id: idOf(answered.key),
        observation,
      }),
    });
  });
  return out;
}

/** Kinds of a V1 log the replay leaves out: the new conversation's own system prompt and state, and deltas (never stored). */
const NOT_REPLAYED = new Set(['SystemPromptEvent', 'StreamingDeltaEvent']);

/** A V1 event log's events to replay: as recorded, every field naming another recorded event's id following its new id. */
export function fromEvents(events: readonly V1RecordedEvent[]): Recorded[] {
  const recordedIds = new Set(events.map((e) => e.id).filter((id): id is string => typeof id === 'string'));
  const remap = (value: unknown, idOf: (key: string) => string | undefined): unknown => {
    if (typeof value === 'string' && recordedIds.has(value)) return idOf(`v1:${value}`) ?? value;
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' && recordedIds.has(v) ? (idOf(`v1:${v}`) ?? v) : v));
    return value;
  };
  return events
    .filter((e) => !NOT_REPLAYED.has(e.kind) && !(e.kind === 'ConversationStateUpdateEvent' && e.key === 'full_state'))
    .map((event) => ({
      atMs: recordedMs(event.timestamp),
      ...(event.id ? { key: `v1:${event.id}` } : {}),
      fields: (idOf) => {
        const { id: _id, timestamp: _timestamp, ...rest } = event;
        return Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, remap(value, idOf)])) as EventFields;
      },
    }));
}

/** The statuses a log's last `execution_status` may leave the agent in. */
const FINAL_STATUSES = new Set(['finished', 'paused', 'error', 'stuck', 'idle', 'waiting_for_confirmation']);

/**
 * The longest a replay lasts on the fake's clock: a year. A recorded gap divided by `speed` 1e-300,
 * or a timestamp of year +275760, would put an event past the last date JavaScript can write
 * ("Invalid time value" on every later request of the conversation); such events come a year after
 * the replay's start instead.
 */
export const MAX_REPLAY_SPAN_MS = 365 * 24 * 3600 * 1000;

/**
 * Puts a recording on a conversation's timeline from now: each event at its recorded gap from the
 * first divided by `speed`; at the end the agent's status is the last one recorded when final,
 * else `finished` (published when the log did not say so).
 */
export async function replayOnConversation(
  state: DomainState,
  conversation: ConversationRecord,
  recorded: readonly Recorded[],
  speed: ReplaySpeed = 1,
): Promise<void> {
  const start = state.clock.now();
  const base = recorded.map((r) => r.atMs).find((ms) => Number.isFinite(ms)) ?? 0;
  const ids = new Map<string, string>();
  for (const r of recorded) if (r.key !== undefined) ids.set(r.key, newEventId(state));
  const idOf = (key: string) => ids.get(key);
  let last = start;
  const items: TimelineItem[] = [];
  for (const r of recorded) {
    // A recording of thousands of events: the event loop gets a turn every 10 ms.
    await breathe();
    // A gap divided by a tiny speed, or a timestamp far in the future, is held to a year: past it no date can be written.
    if (speed !== 'instant' && Number.isFinite(r.atMs)) last = start + Math.min(MAX_REPLAY_SPAN_MS, Math.max(0, r.atMs - base) / speed);
    const fields = r.fields(idOf);
    items.push({ kind: 'event', dueMs: last, id: (r.key !== undefined ? ids.get(r.key) : undefined) ?? newEventId(state), fields });
  }
  const statuses = items.flatMap((i) =>
    i.kind === 'event' && i.fields.kind === 'ConversationStateUpdateEvent' && i.fields.key === 'execution_status'
      ? [String(i.fields.value)]
      : [],
  );
  const final = statuses.at(-1);
  const ends = final !== undefined && FINAL_STATUSES.has(final) ? final : 'finished';
  if (!statuses.includes('running'))
    items.unshift({ kind: 'event', dueMs: start, id: newEventId(state), fields: stateUpdate('execution_status', 'running') });
  items.push({
    kind: 'step',
    dueMs: last,
    run: async (now) => {
      if (ends !== final) await storeEvent(now, conversation.id, stateUpdate('execution_status', ends), last);
      const current = now.store.conversations.get(conversation.id);
      if (current?.agent_status === 'running')
        await now.store.conversations.update(conversation.id, { agent_status: ends as ConversationRecord['agent_status'] });
    },
  });
  await state.store.conversations.update(conversation.id, { agent_status: 'running', agent_turns: Math.max(conversation.agent_turns, 1) });
  await scheduleEvents(state, conversation.id, items);
}

/** The V0 trajectory in a `replay_json` string, checked: throws a 422 `invalid` at `body.replay_json` for one that is no trajectory. */
export function readReplayJson(replayJson: string): V0TrajectoryEvent[] {
  const loc = ['body', 'replay_json'];
  // Too many events is told before the text is parsed or any event checked (330,000 items: ~0.2 s).
  if (listLongerThan(replayJson, MAX_REPLAY_EVENTS)) throw tooManyEvents(loc);
  let parsed: unknown;
  try {
    parsed = JSON.parse(replayJson);
  } catch (error) {
    throw invalid([
      {
        type: 'json_invalid',
        loc,
        msg: `JSON decode error: ${(error as Error).message}`,
        input: replayJson.slice(0, 200),
        ctx: { error: (error as Error).message },
      },
    ]);
  }
  const result = V0Trajectory.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw invalid([
      {
        type: 'value_error',
        loc: [...loc, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
        msg: `Value error, ${issue.message}`,
        input: null,
        ctx: { error: {} },
      },
    ]);
  }
  fromTrajectory(result.data, loc);
  return result.data;
}

/** The 422 of a trajectory of more than `MAX_REPLAY_EVENTS` events (zod's words for the list's bound). */
const tooManyEvents = (loc: string[]) =>
  invalid([
    {
      type: 'value_error',
      loc,
      msg: `Value error, Too big: expected array to have <=${MAX_REPLAY_EVENTS} items`,
      input: null,
      ctx: { error: {} },
    },
  ]);

/**
 * `POST /_fakehands/replay` and `serve --replay`: a new V1 conversation on a sandbox that is RUNNING
 * at once, its agent host publishing the recording. Throws a 422 `invalid` for a V0 trajectory
 * that does not start with the user's message.
 */
export async function startReplay(
  state: DomainState,
  source: { trajectory?: readonly V0TrajectoryEvent[]; events?: readonly V1RecordedEvent[]; speed?: ReplaySpeed },
): Promise<ReplayStarted> {
  const recorded = source.trajectory ? fromTrajectory(source.trajectory, ['body', 'trajectory']) : fromEvents(source.events ?? []);
  state.store.budget.assertRoom(2 + recorded.length, 4096);
  const created = await createSandbox(state, null);
  const now = state.stamp();
  const sandbox = await state.store.sandboxes.update(created.id, { status: 'RUNNING', status_changed_at: now });
  const id = state.newConversationId();
  const conversation = await state.store.conversations.insert({
    id,
    version: 'V1',
    sandbox_id: sandbox.id,
    created_by_user_id: state.options.userId,
    title: null,
    has_initial_message: true,
    agent_turns: 1,
    messages: [],
    created_at: now,
    updated_at: now,
  });
  await storeEvent(state, id, SYSTEM_PROMPT);
  await replayOnConversation(state, conversation, recorded, source.speed ?? 1);
  return {
    app_conversation_id: toHex(id),
    conversation_id: toHex(id),
    conversation_url: conversationUrl(state, sandbox, id),
    session_api_key: sandbox.session_api_key,
  };
}
