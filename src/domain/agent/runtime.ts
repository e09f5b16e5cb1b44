/**
 * The scripted agent as a state loads it (`AgentRuntime`): statically imported by
 * `service.ts`, so a page loads it with the service facade's chunk, the first time a state holds a
 * start task delivers its first message or a run goes on (issue 30).
 */
import type { AgentRuntime } from '../store/state.js';
import { deliverMessage, settleAgentRuns } from './scripted-agent.js';

/** The scripted agent's entry points the time-driven steps call. */
export const agentRuntime: AgentRuntime = { deliverMessage, settleAgentRuns };
