/**
 * The agent host's part of a conversation (`agent_host`: what the agent server keeps besides the
 * conversation's record — its analyzer, secret names, goal, fork origin ...), read with its
 * defaults and changed. Its own module so the scripted agent can read a conversation's goal
 * without the conversations' module (which runs the scripted agent).
 */
import type { AgentHostState, ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';

/** The agent host's part of a conversation, with its defaults. */
export function hostState(conversation: ConversationRecord): AgentHostState {
  return {
    created_here: false,
    agent_kind: 'Agent',
    max_iterations: 500,
    stuck_detection: true,
    security_analyzer: null,
    secret_names: [],
    leaf_event_id: null,
    head_is_empty: false,
    copied_events: 0,
    copied_metrics: false,
    forked_from_conversation_id: null,
    forked_from_event_id: null,
    acp_model: null,
    acp: null,
    marketplaces: [],
    goal: null,
    llm: {},
    condenser: 'LLMSummarizingCondenser',
    tools: null,
    llm_switches: [],
    llm_calls: [],
    ...conversation.agent_host,
  };
}

/** Changes the agent host's part of a conversation. */
export async function setHostState(
  state: DomainState,
  conversation: ConversationRecord,
  changes: Partial<AgentHostState>,
): Promise<ConversationRecord> {
  return state.store.conversations.update(conversation.id, {
    agent_host: { ...hostState(conversation), ...changes },
    updated_at: state.stamp(),
  });
}
