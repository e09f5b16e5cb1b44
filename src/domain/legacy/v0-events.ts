/**
 * A V0 conversation's event stream (`GET /api/conversations/{id}/events`, `/trajectory`), read from
 * the agent-server events its agent published (a `replay_json` replay's, `agent/replay.ts`): each as
 * the V0 event it stands for, as openhands `events/serialization/event.py` (`event_to_dict`) writes
 * it: `id`, `timestamp`, `source`, `message`, then `action` and `args`, or `observation`, `content`,
 * `extras` and the `cause` it answers. An event's id is its place in the conversation's log (the V0
 * stream numbers its events so); one with no V0 counterpart (a `FinishObservation`, a state update
 * other than the agent's status) leaves its place empty, as a missing event does in the V0 store.
 * Searched as `EventStore.search_events` searches (`events/event_store.py`): from `start_id`, up to
 * `end_id` included, or from the end down with `reverse`.
 */
import type { DomainState } from '../store/state.js';

type Json = Record<string, unknown>;

/** `ActionSecurityRisk` by the agent server's name (`UNKNOWN` is -1). */
const RISK: Record<string, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

/** The text of a content list (`[{type: 'text', text}]`), or a string as it is. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value
    .map((part) => (typeof part === 'object' && part !== null && (part as Json).type === 'text' ? String((part as Json).text ?? '') : ''))
    .join('');
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** An `ActionEvent`'s action as the V0 action (`action`, `message`, `args`); `null` for a tool V0 has none of. */
function v0Action(event: Json): Json | null {
  const action = (event.action ?? {}) as Json;
  const thought = textOf(event.thought);
  const security_risk = RISK[str(event.security_risk)] ?? -1;
  switch (action.kind) {
    case 'TerminalAction': {
      const command = str(action.command);
      return {
        message: `Running command: ${command}`,
        action: 'run',
        args: {
          command,
          is_input: action.is_input === true,
          thought,
          blocking: false,
          is_static: false,
          cwd: null,
          hidden: false,
          confirmation_state: 'confirmed',
          security_risk,
        },
      };
    }
    case 'FileEditorAction': {
      const path = str(action.path);
      if (action.command === 'view')
        return {
          message: `Reading file: ${path}`,
          action: 'read',
          args: { path, start: 0, end: -1, thought, security_risk, impl_source: 'oh_aci', view_range: null },
        };
      return {
        message: '',
        action: 'edit',
        args: {
          path,
          command: str(action.command),
          file_text: typeof action.file_text === 'string' ? action.file_text : null,
          old_str: typeof action.old_str === 'string' ? action.old_str : null,
          new_str: typeof action.new_str === 'string' ? action.new_str : null,
          insert_line: typeof action.insert_line === 'number' ? action.insert_line : null,
          content: '',
          start: 1,
          end: -1,
          thought,
          security_risk,
          impl_source: 'oh_aci',
        },
      };
    }
    case 'ThinkAction': {
      const said = str(action.thought) || thought;
      return { message: `I am thinking...: ${said}`, action: 'think', args: { thought: said } };
    }
    case 'FinishAction':
      return {
        message: thought || "All done! What's next on the agenda?",
        action: 'finish',
        args: { final_thought: str(action.message), outputs: {}, thought },
      };
    case 'BrowserNavigateAction': {
      const url = str(action.url);
      return {
        message: `I am browsing the URL: ${url}`,
        action: 'browse',
        args: { url, thought, security_risk, return_axtree: false },
      };
    }
    default:
      return null;
  }
}

/** An `ObservationEvent`'s observation as the V0 one (`observation`, `message`, `content`, `extras`); `null` when V0 has none. */
function v0Observation(event: Json): Json | null {
  const observation = (event.observation ?? {}) as Json;
  const content = textOf(observation.content);
  switch (observation.kind) {
    case 'TerminalObservation': {
      const command = str(observation.command);
      const exitCode = typeof observation.exit_code === 'number' ? observation.exit_code : -1;
      return {
        message: `Command \`${command}\` executed with exit code ${exitCode}.`,
        observation: 'run',
        content,
        extras: { command, metadata: { exit_code: exitCode }, hidden: false },
        success: exitCode === 0,
      };
    }
    case 'FileEditorObservation': {
      const path = str(observation.path);
      if (observation.command === 'view')
        return { message: `I read the file ${path}.`, observation: 'read', content, extras: { path, impl_source: 'oh_aci' } };
      return {
        message: `I edited the file ${path}.`,
        observation: 'edit',
        content,
        extras: {
          path,
          prev_exist: observation.prev_exist === true,
          old_content: typeof observation.old_content === 'string' ? observation.old_content : null,
          new_content: typeof observation.new_content === 'string' ? observation.new_content : null,
          impl_source: 'oh_aci',
          diff: null,
        },
      };
    }
    case 'ThinkObservation':
      return { message: content, observation: 'think', content, extras: {} };
    case 'BrowserObservation':
      // The agent server's observation names no URL: the V0 one's is left empty.
      return { message: '', observation: 'browse', content, extras: { url: '', trigger_by_action: 'browse', error: false } };
    default:
      return null;
  }
}

/**
 * One agent-server event of a V0 conversation's log as the V0 event it stands for, numbered `id`;
 * `placeOf` gives the place of the event an observation answers (its `cause`). `null` when V0 has
 * no counterpart.
 */
export function v0EventOf(event: Json, id: number, placeOf: (eventId: string) => number | undefined): Json | null {
  const head = { id, timestamp: event.timestamp };
  switch (event.kind) {
    case 'MessageEvent': {
      const message = (event.llm_message ?? {}) as Json;
      const text = textOf(message.content);
      const source = event.source === 'user' ? 'user' : 'agent';
      return {
        ...head,
        source,
        message: text,
        action: 'message',
        args: { content: text, file_urls: null, image_urls: null, wait_for_response: false, security_risk: -1 },
      };
    }
    case 'SystemPromptEvent': {
      const text = textOf([event.system_prompt]);
      return {
        ...head,
        source: 'agent',
        message: text,
        action: 'system',
        args: { content: text, tools: null, openhands_version: null, agent_class: null },
      };
    }
    case 'ActionEvent': {
      const action = v0Action(event);
      return action && { ...head, source: 'agent', ...action };
    }
    case 'ObservationEvent': {
      const observation = v0Observation(event);
      if (!observation) return null;
      const cause = typeof event.action_id === 'string' ? placeOf(event.action_id) : undefined;
      return { ...head, source: 'agent', ...(cause === undefined ? {} : { cause }), ...observation };
    }
    case 'ConversationStateUpdateEvent':
      if (event.key !== 'execution_status') return null;
      return {
        ...head,
        source: 'environment',
        message: '',
        observation: 'agent_state_changed',
        content: '',
        extras: { agent_state: str(event.value), reason: '' },
      };
    default:
      return null;
  }
}

/** How `GET /api/conversations/{id}/events` searches (`EventStore.search_events`). */
export interface V0EventSearch {
  start_id: number;
  end_id?: number | undefined;
  reverse: boolean;
  limit: number;
}

/** The V0 events of a conversation's log at places `[from, to)`, in order (or from the end with `reverse`), made as they are asked for. */
function* v0Events(state: DomainState, conversationId: string, from: number, to: number, reverse: boolean): Generator<Json> {
  const ids = state.store.eventIdsOf(conversationId);
  const placeOf = (id: string) => state.store.eventPosition(id);
  const end = Math.min(to, ids.length);
  for (let i = 0; i < end - Math.max(0, from); i++) {
    const at = reverse ? end - 1 - i : Math.max(0, from) + i;
    const record = state.store.events.get(ids[at]!);
    const event = record && v0EventOf(record.event, at, placeOf);
    if (event) yield event;
  }
}

/** `GET /api/conversations/{id}/events`: a page of `limit` V0 events and whether more match (`search_events`). */
export function v0EventPage(state: DomainState, conversationId: string, search: V0EventSearch): { events: Json[]; has_more: boolean } {
  const to = search.end_id === undefined ? Number.POSITIVE_INFINITY : search.end_id + 1;
  const found: Json[] = [];
  for (const event of v0Events(state, conversationId, search.start_id, to, search.reverse)) {
    found.push(event);
    if (found.length > search.limit) break;
  }
  return { events: found.slice(0, search.limit), has_more: found.length > search.limit };
}

/** `GET /api/conversations/{id}/trajectory`: every V0 event of the conversation, in order. */
export function v0Trajectory(state: DomainState, conversationId: string): Json[] {
  return [...v0Events(state, conversationId, 0, Number.POSITIVE_INFINITY, false)];
}
