/**
 * The record of a conversation created on the agent host (`POST /api/conversations`), built whole:
 * every field its schema's output already (`ConversationRecord`, its defaults given, in its key
 * order), so `startHostConversation` stores it without a second parse (`Table.insertValidated`).
 */
import type { StartConversationRequest } from '../../schemas/agent-conversations.js';
import type { ConversationRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';
import { registeredMarketplaces } from './plugins.js';

/**
 * A new host conversation's record: the request's values (validated by its own schema, as strict
 * as the record's), the state's ids and stamp, the record's defaults.
 */
export function hostConversationRecord(
  state: DomainState,
  request: StartConversationRequest,
  made: { id: string; sandboxId: string; parentId: string | null; secretNames: string[]; now: string },
): ConversationRecord {
  const agent = request.agent ?? { kind: 'Agent' };
  return {
    id: made.id,
    version: 'V1',
    sandbox_id: made.sandboxId,
    created_by_user_id: state.options.userId,
    title: null,
    selected_repository: null,
    selected_branch: null,
    git_provider: null,
    trigger: null,
    pr_number: [],
    llm_model: agent.llm?.model ?? null,
    parent_conversation_id: made.parentId,
    agent_type: 'default',
    agent_kind: 'openhands',
    public: null,
    tags: request.tags,
    acp_server: null,
    launched_agent_profile: null,
    has_initial_message: Boolean(request.initial_message?.content.length),
    agent_turns: 0,
    messages: [],
    agent_stream: agent.llm?.stream === true ? true : undefined,
    agent_confirm: request.confirmation_policy?.kind === 'AlwaysConfirm' ? true : undefined,
    agent_host: {
      created_here: true,
      agent_kind: agent.kind,
      working_dir: request.workspace.working_dir,
      max_iterations: request.max_iterations,
      stuck_detection: request.stuck_detection,
      security_analyzer: request.security_analyzer ?? null,
      secret_names: made.secretNames,
      leaf_event_id: null,
      forked_from_conversation_id: null,
      forked_from_event_id: null,
      acp_model: null,
      marketplaces: registeredMarketplaces(request),
      goal: null,
    },
    created_at: made.now,
    updated_at: made.now,
  };
}
