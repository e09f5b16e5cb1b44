/**
 * What a conversation's statistics keep besides its log (`vocabulary-stats.ts` reads them): the
 * agent's LLM switches (`switch_llm`, `switch_profile`) and the calls that publish no event
 * (`ask_agent`'s). Copies openhands-sdk 1.58.2 `conversation/impl/local_conversation.py`:
 * `switch_llm` (the LLM given is registered under its `usage_id`), `switch_profile` (under
 * `profile:NAME`) and `ask_agent` (a copy of the agent's LLM under `ask-agent-llm`).
 */
import type { ConversationRecord } from '../../schemas/records.js';
import { toHex } from '../store/ids.js';
import type { DomainState } from '../store/state.js';
import { hostState, setHostState } from './host-state.js';
import { agentUsageIdOf, DEFAULT_AGENT_MODEL, promptTokens, statsStartOf, tokenCount } from './vocabulary-stats.js';

/** The usage id of `ask_agent`'s LLM (`ASK_AGENT_LLM_USAGE_ID`). */
export const ASK_AGENT_USAGE_ID = 'ask-agent-llm';

/** The usage id of a saved LLM profile the agent switched to (`switch_profile`). */
export const profileUsageId = (name: string) => `profile:${name}`;

/** The model the conversation's agent is on. */
const agentModelOf = (conversation: ConversationRecord) => conversation.llm_model ?? DEFAULT_AGENT_MODEL;

/**
 * The agent's LLM is `model` under `usageId` from now on: kept as a switch (after the log as it is
 * now), the agent's LLM settings naming the usage id. Its model on the record is the caller's to set.
 */
export async function recordLlmSwitch(
  state: DomainState,
  conversation: ConversationRecord,
  usageId: string,
  model: string,
): Promise<ConversationRecord> {
  const host = hostState(conversation);
  const switched = {
    at: state.store.eventIdsOf(conversation.id).length,
    usage_id: usageId,
    model,
    from_usage_id: agentUsageIdOf(conversation),
    from_model: agentModelOf(conversation),
  };
  return setHostState(state, conversation, { llm_switches: [...host.llm_switches, switched], llm: { ...host.llm, usage_id: usageId } });
}

/** Keeps an `ask_agent` call: its question in the prompt after the log as it is now, its answer the completion, under `ask-agent-llm`. */
export async function recordAskCall(state: DomainState, conversation: ConversationRecord, question: string, answer: string): Promise<void> {
  const host = hostState(conversation);
  const at = state.store.eventIdsOf(conversation.id).length;
  const call = {
    at,
    usage_id: ASK_AGENT_USAGE_ID,
    model: agentModelOf(conversation),
    prompt: promptTokens(at - statsStartOf(conversation)) + tokenCount(question),
    completion: tokenCount(answer),
    response_id: `resp_ask_${toHex(state.random.uuid())}`,
    timestamp: state.clock.now() / 1000,
  };
  await setHostState(state, conversation, { llm_calls: [...host.llm_calls, call] });
}
