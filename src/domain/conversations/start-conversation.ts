/**
 * What starts an app conversation (`POST /api/v1/app-conversations`: a WORKING start task, which
 * `start-tasks.ts` then steps on with time). What waits for one that is starting (its pending
 * messages) is `pending-messages.ts`.
 */
import type { AppConversationStartRequest, AppConversationStartTask } from '../../schemas/app-conversation.js';
import { badRequest } from '../store/refusal.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { createSandbox, transitionSandbox } from '../sandboxes/sandboxes.js';
import type { DomainState } from '../store/state.js';
import { startTaskView } from './views.js';

/**
 * A sub-conversation inherits from its parent what the request leaves out: the sandbox (so both
 * share one workspace), repository, branch, provider and model (`_inherit_configuration_from_parent`).
 * An unknown parent is a 400 here; the real server raises a ValueError (500), a declared difference.
 */
function inheritFromParent(state: DomainState, request: AppConversationStartRequest): AppConversationStartRequest {
  if (!request.parent_conversation_id) return request;
  const key = toHyphenatedUuid(request.parent_conversation_id);
  const parent = key ? state.store.conversations.get(key) : undefined;
  if (!parent || parent.version !== 'V1') throw badRequest(`Parent conversation not found: ${toHex(request.parent_conversation_id)}`);
  return {
    ...request,
    sandbox_id: request.sandbox_id || parent.sandbox_id,
    selected_repository: request.selected_repository || parent.selected_repository,
    selected_branch: request.selected_branch || parent.selected_branch,
    git_provider: request.git_provider ?? parent.git_provider,
    llm_model: request.llm_model || parent.llm_model,
  };
}

/** `POST /api/v1/app-conversations`: a WORKING start task, in a new sandbox or the one named (resumed when paused). */
export async function startAppConversation(state: DomainState, given: AppConversationStartRequest): Promise<AppConversationStartTask> {
  const request = inheritFromParent(state, given);
  // A sandbox, the task and later its conversation: refused at once when they would not fit.
  state.store.budget.assertRoom(3, 2 * JSON.stringify(request).length + 2048);
  const conversationId = request.conversation_id ? toHyphenatedUuid(request.conversation_id)! : state.newConversationId();
  if (state.store.conversations.get(conversationId)) throw badRequest(`Conversation already exists: ${toHex(conversationId)}`);
  let sandboxId: string | null = request.sandbox_id;
  if (sandboxId === null) {
    sandboxId = (await createSandbox(state, null)).id;
  } else {
    const existing = state.store.sandboxes.get(sandboxId);
    if (existing && state.settledNow(existing).status === 'PAUSED') await transitionSandbox(state, sandboxId, 'resume');
  }
  const created = state.stamp();
  const task = await state.store.startTasks.insert({
    id: state.newStartTaskId(),
    created_by_user_id: state.options.userId,
    status: 'WORKING',
    status_changed_at: created,
    detail: null,
    app_conversation_id: conversationId,
    sandbox_id: sandboxId,
    request,
    steps: [{ status: 'WORKING', at: created, detail: null }],
    created_at: created,
    updated_at: created,
  });
  state.trackTask(task.id, task.sandbox_id, state.sinceMs(task) + state.options.timings.startTaskStepMs);
  return startTaskView(state, task);
}
