/**
 * The conversation of a start task that turned READY (`settle-start-tasks.ts` steps the task): stored,
 * its log started, its first message handed to the scripted agent. Loaded with the scripted agent
 * (`agent/runtime.ts`, `AgentRuntime.startConversation`): in a page, the service facade's chunk,
 * never the first chunks (issue 30).
 */
import type { StartTaskRecord } from '../../schemas/records.js';
import { RUN_STEPS } from '../agent/status.js';
import { toHyphenatedUuid } from '../store/ids.js';
import type { DomainState } from '../store/state.js';
import { messageText } from './start-tasks.js';
import { v1DefaultTitle } from './views.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';

/**
 * The tags the app server gives a conversation it starts (live_status_app_conversation_service.py,
 * openhands-ai 1.11.0): where its workspace is (`archiveworkspacepath`, read when it is deleted), and
 * its repository, provider and branch when the request names them.
 */
function conversationTags(request: StartTaskRecord['request']): Record<string, string> {
  const tags: Record<string, string> = { archiveworkspacepath: DEFAULT_WORKING_DIR };
  if (request.selected_repository) tags.repo_name = request.selected_repository;
  if (request.git_provider) tags.git_provider = request.git_provider;
  if (request.selected_branch) tags.selected_branch = request.selected_branch;
  return tags;
}

/**
 * Stores the conversation a READY task started, as the real SQL service stores it
 * (`live_status_app_conversation_service.py`, `_start_app_conversation`): titled
 * `Conversation <32-hex id>` whatever the request said, with the request's trigger (null by default).
 * Its agent confirms each action when the saved settings say `confirmation_mode`, as the real
 * `_build_start_conversation_request_for_user` starts it with `AlwaysConfirm` then (`NeverConfirm` otherwise).
 */
export async function startReadyConversation(state: DomainState, task: StartTaskRecord, atMs: number): Promise<void> {
  const request = task.request;
  const at = state.stamp(atMs);
  const parent = request.parent_conversation_id ? toHyphenatedUuid(request.parent_conversation_id) : null;
  const hasMessage = Boolean(request.initial_message?.content.length);
  const record = await state.store.conversations.insert({
    id: task.app_conversation_id,
    version: 'V1',
    sandbox_id: task.sandbox_id!,
    created_by_user_id: task.created_by_user_id,
    title: v1DefaultTitle(task.app_conversation_id),
    selected_repository: request.selected_repository,
    selected_branch: request.selected_branch,
    git_provider: request.git_provider,
    trigger: request.trigger,
    pr_number: request.pr_number,
    // The model the agent was started with: the request's, else the user's saved one (live_status_app_conversation_service.py: `request_agent.llm.model`).
    llm_model: request.llm_model ?? state.store.settings?.llm_model ?? null,
    parent_conversation_id: parent,
    tags: conversationTags(request),
    agent_type: request.agent_type,
    public: request.public,
    launched_agent_profile: request.agent_profile_id ? { agent_profile_id: request.agent_profile_id, revision: 1 } : null,
    has_initial_message: hasMessage,
    agent_turns: 0,
    messages: [],
    agent_started_at: at,
    agent_steps_done: RUN_STEPS,
    agent_steps_total: RUN_STEPS,
    ...(state.store.settings?.confirmation_mode ? { agent_confirm: true } : {}),
    created_at: at,
    updated_at: at,
  });
  if (record.parent_conversation_id) state.store.linkChild(record.parent_conversation_id, record.id);
  // A new conversation's log is empty until its first message, which publishes the system prompt first (`deliverMessage`).
  if (!hasMessage && state.store.queuedCount(record.id) === 0) return;
  const { deliverMessage } = await state.loadAgent();
  let current = hasMessage ? await deliverMessage(state, record, messageText(request.initial_message!.content), true, atMs) : record;
  // Messages queued while it started (POST /api/v1/conversations/{id}/pending-messages) reach it now, in order.
  for (const queued of state.store.takeQueued(record.id)) current = await deliverMessage(state, current, queued.text, true, atMs);
}
