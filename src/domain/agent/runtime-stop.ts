/**
 * A sandbox's runtime stopping under a run: paused (`POST /api/v1/sandboxes/{id}/pause`, the stop
 * of Agent Canvas's cloud backend) or failed. The real app server pauses the runtime itself and
 * tells the agent server nothing (openhands `app_server/sandbox/remote_sandbox_service.py`,
 * `pause_sandbox`: the runtime API's `/pause`; `docker_sandbox_service.py`: `container.pause()`), so
 * the run stops where it is; the agent server that comes back on resume finds the conversation it
 * had saved as running stale, and marks it `error`, with an `AgentErrorEvent` for a tool call that
 * was in flight (openhands-agent-server `event_service.py`, `EventService.start`). The fake has no
 * process to restart: it does both when the runtime stops.
 */
import type { ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';
import { publishEvent } from './publish.js';
import { agentStatus, type AgentEvent } from './status.js';
import { events, stateUpdate } from './vocabulary.js';

/** The error the agent server writes for a tool call a restart cut short (`event_service.py`, `EventService.start`). */
export const RESTART_INTERRUPTED_TOOL =
  'A restart occurred while this tool was in progress. This may indicate a fatal memory error or system crash. The tool execution was interrupted and did not complete.';

/** Kinds that answer an action (`ObservationBaseEvent`): an observation, a rejection, an error. */
const ANSWERS = new Set(['ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent']);

/** The first action of a conversation's log that nothing answered (`ConversationState.get_unmatched_actions`), or null. */
function firstUnmatchedAction(state: DomainState, conversation: ConversationRecord): AgentEvent | null {
  const answered = new Set<unknown>();
  const actions: AgentEvent[] = [];
  for (const id of state.store.eventIdsOf(conversation.id)) {
    const event = state.store.events.get(id)?.event as AgentEvent | undefined;
    if (!event) continue;
    if (event.kind === 'ActionEvent') actions.push(event);
    else if (ANSWERS.has(event.kind)) answered.add(event.tool_call_id);
  }
  return actions.find((action) => !answered.has(action.tool_call_id)) ?? null;
}

/**
 * Stops the runs of `conversations` (each running in a sandbox whose runtime just stopped): what
 * was held for later (a streamed message) is lost with the runtime, a tool call in flight gets the
 * restart's `AgentErrorEvent`, and the conversation is `error`.
 */
export async function stopRuntimeRuns(state: DomainState, conversations: readonly ConversationRecord[]): Promise<void> {
  for (const conversation of conversations) {
    state.activeRuns.delete(conversation.id);
    state.timelines.delete(conversation.id);
    // A conversation with no scripted run (a fixture's, paced by time alone) has no log to write to.
    if (agentStatus(conversation) === 'running') {
      const action = firstUnmatchedAction(state, conversation);
      if (action)
        await publishEvent(state, conversation.id, {
          ...events.agentError(String(action.tool_name), String(action.tool_call_id), RESTART_INTERRUPTED_TOOL),
          parent_id: action.id,
        });
      await publishEvent(state, conversation.id, stateUpdate('execution_status', 'error'));
    }
    await state.store.conversations.update(conversation.id, { agent_status: 'error', updated_at: state.stamp() });
  }
}
