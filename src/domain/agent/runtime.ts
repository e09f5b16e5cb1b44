/**
 * The scripted agent as a state loads it (`AgentRuntime`): statically imported by
 * `service.ts`, so a page loads it with the service facade's chunk, the first time a start task
 * turns READY, a run goes on or a replay's or a streamed message's events come due (issue 30).
 */
import { startReadyConversation } from '../conversations/ready-conversation.js';
import type { AgentRuntime } from '../store/state.js';
import { stopRuntimeRuns } from './runtime-stop.js';
import { deliverMessage, settleAgentRuns } from './scripted-agent.js';
import { settleTimelines } from './streaming.js';
import { combinedMetrics } from './conversation-stats.js';

/** The scripted agent's entry points the time-driven steps call. */
export const agentRuntime: AgentRuntime = {
  deliverMessage,
  settleAgentRuns,
  settleTimelines,
  startConversation: startReadyConversation,
  combinedMetrics,
  stopRuntimeRuns,
};
