/**
 * Start tasks' and the scripted agent's time-driven steps as the runner hands them to a state (`AgentRuntime`): statically imported by
 * `service.ts`, so a page loads it with the service facade's chunk, the first time a state holds a
 * start task or a run (issue 30).
 */
import type { AgentRuntime } from '../store/state.js';
import { settleStartTasks } from '../conversations/settle-start-tasks.js';
import { settleAgentRuns } from './scripted-agent.js';

/** The time-driven steps of start tasks and of the agent's runs. */
export const agentRuntime: AgentRuntime = { settleStartTasks, settleAgentRuns };
