/**
 * `POST /api/conversations/{id}/children` (openhands-agent-server 1.58.2 `conversation_router.py`,
 * start_child_conversation; `conversation_service.py`, start_child_conversation): a child of a
 * conversation the host holds, with the parent's agent, LLM, condenser, limits and workspace and
 * a history of its own, linked by `parent_conversation_id`; its task is its first user message,
 * which it runs. The fake's workspaces are no git repositories, so a child always shares its
 * parent's folder (`isolation: shared`, as the real one for a folder outside git).
 */
import type { ConversationRecord } from '../../schemas/records.js';
import type { StartConversationRequest } from '../../schemas/agent-conversations.js';
import { hostConversationInfo, hostState, runHostConversation, startHostConversation } from './conversations.js';
import type { AgentHost } from './host.js';
import { isRefusal, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** `StartChildConversationResponse`. */
export interface ChildConversation {
  conversation_id: string;
  parent_conversation_id: string;
  status: string;
  title: string | null;
  url: null;
  workspace: string;
  isolation: 'shared';
}

/** Starts a child of `parent` working on `task`; answers it as launched (its status before its run). */
export async function startChildConversation(
  state: DomainState,
  host: AgentHost,
  parent: ConversationRecord,
  request: { task: string; title?: string | null | undefined },
): Promise<ChildConversation | Refusal> {
  const parentHost = hostState(parent);
  const workspace = hostConversationInfo(state, parent).workspace.working_dir;
  const start: StartConversationRequest = {
    agent: {
      kind: parentHost.agent_kind,
      llm: { ...parentHost.llm, model: parent.llm_model ?? 'anthropic/claude-sonnet-4-5-20250929' },
      ...(parentHost.condenser === null ? {} : { condenser: { kind: parentHost.condenser } }),
    },
    workspace: { working_dir: workspace },
    parent_conversation_id: parent.id,
    initial_message: { role: 'user', content: [{ type: 'text', text: request.task, cache_prompt: false }], run: false },
    max_iterations: parentHost.max_iterations,
    stuck_detection: parentHost.stuck_detection,
    secrets: {},
    tags: parent.tags ?? {},
  };
  const started = await startHostConversation(state, host, start);
  if (isRefusal(started)) return started;
  const id = started.info.id;
  let child = state.store.conversations.get(id)!;
  if (request.title) child = await state.store.conversations.update(id, { title: request.title, updated_at: state.stamp() });
  const status = started.info.execution_status;
  await runHostConversation(state, child);
  return {
    conversation_id: id,
    parent_conversation_id: parent.id,
    status,
    title: child.title,
    url: null,
    workspace,
    isolation: 'shared',
  };
}
