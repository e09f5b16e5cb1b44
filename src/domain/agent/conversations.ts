/**
 * The conversations an agent server holds, as its conversation API acts on them: created there
 * (`POST /api/conversations`), read, searched, counted, updated, deleted, run, paused, interrupted,
 * given secrets, an analyzer, an LLM, a profile or an ACP
 * model, and driven towards a goal (what is read from or made of its history, `history.ts`). Copies openhands-agent-server `conversation_router.py`,
 * `conversation_service.py` and `event_service.py`, and openhands-sdk `local_conversation.py`
 * (`pause`, `interrupt`). A conversation created here and one the app server started are the same
 * kind of record: each lives in a sandbox, whose agent server holds it.
 */
import type { AgentConversationInfo } from '../../schemas/agent-server.js';
import type { ConversationRecord } from '../../schemas/records.js';
import type { StartConversationRequest } from '../../schemas/agent-conversations.js';
import { formatDateTime } from '../../schemas/datetime.js';
import { acpAgentInfo, conversationInfo, executionStatusOf, INFO_TAIL, RUNTIME_AVAILABLE } from './agent-server.js';
import { runStepsTotal, type AgentEvent } from './status.js';
import { stateUpdate } from './vocabulary.js';
import { publishEvent } from './publish.js';
import { hostedConversations, sandboxForNewConversation, type AgentHost } from './host.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { Refusal, refuse } from '../store/refusal.js';
import { messageText } from '../conversations/start-tasks.js';
import type { DomainState } from '../store/state.js';
import { deliverMessage, runAgent, runOnWaitingMessages } from './scripted-agent.js';
import { zipArchive } from './zip.js';
import { worldOf } from '../agent-world/world.js';
import { hostConversationRecord, hostRecordSize } from './host-record.js';
import { hostState, setHostState } from './host-state.js';
import { judgeGoal } from './goal-judge.js';
import { profileUsageId, recordLlmSwitch } from './llm-usage.js';
import { DEFAULT_USAGE_ID } from './vocabulary-stats.js';

export { hostState, setHostState };
import { leafOf } from './event-tree.js';

/**
 * The id of a conversation's newest user message, found from the end (a long log is not walked for
 * it); `null` before any. A fork's state starts empty: the messages it copied do not count.
 */
export function lastUserMessageId(state: DomainState, conversationId: string): string | null {
  const ids = state.store.eventIdsOf(conversationId);
  const copied = state.store.conversations.get(conversationId)?.agent_host?.copied_events ?? 0;
  for (let i = ids.length - 1; i >= copied; i--) {
    const event = state.store.events.get(ids[i]!)!.event as AgentEvent;
    if (event.kind === 'MessageEvent' && event.source === 'user') return ids[i]!;
  }
  return null;
}

/** The conversation as its agent server describes it (`ConversationInfo`), with what the host keeps: workspace, analyzer, secret names (never values), tags, fork origin, HEAD. */
export function hostConversationInfo(state: DomainState, conversation: ConversationRecord, withRuntime = false): AgentConversationInfo {
  const host = hostState(conversation);
  // Built once, the host's values in their places (the agent's kind, the workspace, ...), what only the host knows after.
  const info = conversationInfo(state, conversation, {
    agent_kind: host.agent_kind,
    llm: host.llm,
    working_dir: host.working_dir,
    max_iterations: host.max_iterations,
    stuck_detection: host.stuck_detection,
    security_analyzer: host.security_analyzer,
    // Each secret as 1.58.2 writes it in a ConversationInfo: its value and description null, never the value.
    secret_sources: Object.fromEntries(host.secret_names.map((name) => [name, { description: null, value: null, kind: 'StaticSecret' }])),
  });
  Object.assign(info, {
    last_user_message_id: lastUserMessageId(state, conversation.id),
    leaf_event_id: leafOf(state, conversation),
    forked_from_conversation_id: host.forked_from_conversation_id,
    forked_from_event_id: host.forked_from_event_id,
    parent_conversation_id: conversation.parent_conversation_id,
    sub_conversation_ids: [...(state.store.childrenOf.get(conversation.id) ?? [])],
    tags: conversation.tags,
    current_model_id: host.acp_model,
    ...INFO_TAIL,
    runtime_info: withRuntime ? RUNTIME_AVAILABLE : null,
  });
  // An ACP agent is written with its own fields, and has no tool modules (1.58.2 `acp_agent.py`, `ACPAgent`).
  if (host.agent_kind === 'ACPAgent') Object.assign(info, { agent: acpAgentInfo(host.acp, host.acp_model), tool_module_qualnames: {} });
  return info;
}

/** The secret names of a request's `secrets` (their values are never kept). */
function secretNames(secrets: Record<string, unknown>, known: readonly string[] = []): string[] {
  const given = Object.keys(secrets);
  // None known, none given (most creates): no set to make.
  if (known.length === 0 && given.length === 0) return [];
  return [...new Set([...known, ...given])].sort();
}

/**
 * `POST /api/conversations` (`start_conversation`): a new conversation on the host, its log
 * starting with the system prompt; its initial message is sent (and run when it says `run`). An id
 * the host already holds answers that conversation (200, not 201); an unknown parent is a 422;
 * an agent profile the host does not hold (by id) is a 404 (`ProfileNotFound`); one it holds is used.
 */
export async function startHostConversation<T = AgentConversationInfo>(
  state: DomainState,
  host: AgentHost,
  request: StartConversationRequest,
  describe?: (state: DomainState, conversation: ConversationRecord) => T,
): Promise<{ info: T; created: boolean } | Refusal> {
  // How the answer describes the conversation: its `ConversationInfo` (or that info's JSON text, `info-json.ts`), made at once.
  const info = describe ?? (hostConversationInfo as unknown as (state: DomainState, conversation: ConversationRecord) => T);
  const given = request.conversation_id ? toHyphenatedUuid(request.conversation_id)! : null;
  const id = given ?? state.newConversationId();
  // A drawn id is one no conversation has (`newConversationId`): looked up only when the request gives it.
  const existing = given === null ? undefined : state.store.conversations.get(id);
  if (existing) {
    if (existing.version === 'V1' && hostedConversations(state, host).some((c) => c.id === id))
      return { info: info(state, existing), created: false };
    return refuse('conflict', `Conversation already exists: ${toHex(id)}`);
  }
  const parentId = request.parent_conversation_id ? toHyphenatedUuid(request.parent_conversation_id)! : null;
  if (parentId && !hostedConversations(state, host).some((c) => c.id === parentId)) {
    const detail = `Parent conversation ${toHex(parentId)} not found`;
    return new Refusal('invalid', detail, { body: { detail } });
  }
  // An agent profile is found by its id among the host's saved ones (`agent_profiles_router.py`); its LLM, if it names one, is the conversation's.
  const profile = request.agent_profile_id
    ? [...worldOf(state).agentProfiles.values()].find((p) => p.id === request.agent_profile_id)
    : undefined;
  if (request.agent_profile_id && !profile) return refuse('not_found', `Agent profile '${request.agent_profile_id}' not found`);
  state.store.budget.assertRoom(2, 4096);
  const found = parentId
    ? state.store.sandboxes.get(state.store.conversations.get(parentId)!.sandbox_id)!
    : sandboxForNewConversation(state, host);
  const sandbox = found instanceof Promise ? await found : found;
  const now = state.stamp();
  const agent = request.agent ?? { kind: 'Agent' };
  const built = hostConversationRecord(state, request, {
    id,
    sandboxId: sandbox.id,
    parentId,
    secretNames: secretNames(request.secrets),
    now,
  });
  // Stored as built, no second parse; a model from a saved agent profile's config is parsed as ever.
  const profileModel = agent.llm?.model === undefined ? (profile?.config.llm as { model?: string } | undefined)?.model : undefined;
  const record =
    profileModel === undefined
      ? state.store.conversations.insertValidated(built, hostRecordSize(built))
      : await state.store.conversations.insert({ ...built, llm_model: profileModel });
  if (parentId) state.store.linkChild(parentId, id);
  let current = record;
  if (request.initial_message && request.initial_message.content.length > 0) {
    current = await deliverMessage(state, current, messageText(request.initial_message.content), request.initial_message.run);
  }
  return { info: info(state, current), created: true };
}

/** How a conversation search orders (`ConversationSortOrder`). */
export type HostSortOrder = 'CREATED_AT' | 'CREATED_AT_DESC' | 'UPDATED_AT' | 'UPDATED_AT_DESC';

/** `GET /api/conversations/search`: the host's conversations by status, in order, a page from `page_id` (a conversation's hex id). */
export function searchHostConversations(
  state: DomainState,
  host: AgentHost,
  query: { status?: string | undefined; sort_order: HostSortOrder; page_id?: string | undefined; limit: number },
): { items: AgentConversationInfo[]; next_page_id: string | null } {
  const field = query.sort_order.startsWith('CREATED_AT') ? 'created_at' : 'updated_at';
  const descending = query.sort_order.endsWith('_DESC');
  const records = hostedConversations(state, host)
    .filter((c) => query.status === undefined || executionStatusOf(c) === query.status)
    .sort((a, b) => (descending ? -1 : 1) * (a[field].localeCompare(b[field]) || a.id.localeCompare(b.id)));
  const start = Math.max(0, query.page_id ? records.findIndex((c) => toHex(c.id) === toHex(query.page_id!)) : 0);
  const next = records[start + query.limit];
  return {
    items: records.slice(start, start + query.limit).map((c) => hostConversationInfo(state, c, true)),
    next_page_id: next ? toHex(next.id) : null,
  };
}

/** `GET /api/conversations/count`. */
export function countHostConversations(state: DomainState, host: AgentHost, status: string | undefined): number {
  return hostedConversations(state, host).filter((c) => status === undefined || executionStatusOf(c) === status).length;
}

/** `GET /api/conversations?ids=`: each conversation the host holds, `null` for the others. */
export function batchGetHostConversations(state: DomainState, host: AgentHost, ids: string[]): (AgentConversationInfo | null)[] {
  const held = new Map(hostedConversations(state, host).map((c) => [c.id, c]));
  return ids.map((id) => {
    const record = held.get(toHyphenatedUuid(id) ?? '');
    return record ? hostConversationInfo(state, record, true) : null;
  });
}

/** `PATCH /api/conversations/{id}` (`update_conversation`): the title (trimmed) and tags given; `false` for one the host does not hold (answered `{"success": false}`). */
export async function updateHostConversation(
  state: DomainState,
  conversation: ConversationRecord | null,
  patch: { title?: string | null | undefined; tags?: Record<string, string> | null | undefined },
): Promise<boolean> {
  if (!conversation) return false;
  const changes: Partial<ConversationRecord> = { updated_at: state.stamp() };
  if (patch.title !== undefined && patch.title !== null) changes.title = patch.title.trim();
  if (patch.tags !== undefined && patch.tags !== null) changes.tags = patch.tags;
  const updated = await state.store.conversations.update(conversation.id, changes);
  // The title is the conversation's stored metadata, no state field (1.58.2 `conversation_service.py`, update_conversation:
  // `save_meta`); the tags are the state's too, published when they change (`state.py`, `__setattr__`).
  if (changes.tags !== undefined && JSON.stringify(changes.tags) !== JSON.stringify(conversation.tags))
    await publishEvent(state, updated.id, stateUpdate('tags', changes.tags));
  return true;
}

/** `DELETE /api/conversations/{id}`: removes it and its events (its sandbox stays: the agent server still runs). */
export function deleteHostConversation(state: DomainState, conversation: ConversationRecord): void {
  state.store.conversations.remove(conversation.id);
  state.store.removeEventsOf(conversation.id);
  if (conversation.parent_conversation_id) state.store.unlinkChild(conversation.parent_conversation_id, conversation.id);
  state.store.childrenOf.delete(conversation.id);
  state.activeRuns.delete(conversation.id);
}

/** Pauses it: `paused`, then `kind` (`PauseEvent` or `InterruptEvent`), as `pause` and `arun` set the status before they publish the event. */
async function pauseWith(state: DomainState, conversation: ConversationRecord, kind: 'PauseEvent' | 'InterruptEvent'): Promise<void> {
  await publishEvent(state, conversation.id, stateUpdate('execution_status', 'paused'));
  await publishEvent(state, conversation.id, { kind, source: 'user' });
  const paused = await state.store.conversations.update(conversation.id, {
    agent_status: 'paused',
    agent_paused_at: formatDateTime(state.clock.now()),
    updated_at: state.stamp(),
  });
  state.activeRuns.delete(conversation.id);
  // A goal whose run is paused stops there, interrupted (`_run_goal_loop`: a paused run halts the loop).
  await judgeGoal(state, paused);
}

/**
 * `POST .../pause` (`local_conversation.py`, `pause`): an idle or running conversation is paused
 * (`paused`, then a `PauseEvent`); a paused one stays as it is, and so does one that finished,
 * failed, is stuck or waits for a confirmation.
 */
export async function pauseHostConversation(state: DomainState, conversation: ConversationRecord): Promise<void> {
  const status = executionStatusOf(conversation);
  if (status === 'idle' || status === 'running') await pauseWith(state, conversation, 'PauseEvent');
}

/**
 * `POST .../interrupt` (`local_conversation.py`, `interrupt`): a run in flight is cancelled at once
 * (`paused`, then an `InterruptEvent`); without a run it falls back to `pause`.
 */
export async function interruptHostConversation(state: DomainState, conversation: ConversationRecord): Promise<void> {
  if (executionStatusOf(conversation) === 'running') await pauseWith(state, conversation, 'InterruptEvent');
  else await pauseHostConversation(state, conversation);
}

/**
 * `POST .../run` (`event_service.py`, `run`): 409 while it runs; messages sent with `run: false`
 * are worked on; a paused run goes on; a paused conversation with nothing to do is what it was.
 */
export async function runHostConversation(state: DomainState, conversation: ConversationRecord): Promise<Refusal | null> {
  if (executionStatusOf(conversation) === 'running')
    return refuse('conflict', 'Conversation already running. Wait for completion or pause first.');
  if (await runOnWaitingMessages(state, conversation)) return null;
  if (conversation.agent_status === 'paused') {
    if (conversation.agent_steps_done !== undefined && conversation.agent_steps_done < runStepsTotal(conversation)) {
      await runAgent(state, conversation);
      return null;
    }
    const resumed = await state.store.conversations.update(conversation.id, {
      agent_status: undefined,
      agent_paused_at: undefined,
      updated_at: state.stamp(),
    });
    await publishEvent(state, conversation.id, stateUpdate('execution_status', executionStatusOf(resumed)));
  }
  return null;
}

/** `POST .../secrets` (`update_secrets`): the names are added to the conversation's registry; values are never kept. */
export async function updateSecrets(state: DomainState, conversation: ConversationRecord, secrets: Record<string, unknown>): Promise<void> {
  await setHostState(state, conversation, { secret_names: secretNames(secrets, hostState(conversation).secret_names) });
}

/** `POST .../security_analyzer` (`set_security_analyzer`): kept, and published when it changes (`null` removes it). */
export async function setSecurityAnalyzer(
  state: DomainState,
  conversation: ConversationRecord,
  analyzer: Record<string, unknown> | null,
): Promise<void> {
  const before = hostState(conversation).security_analyzer;
  const updated = await setHostState(state, conversation, { security_analyzer: analyzer });
  // A state field's update is published when its value changes (1.58.2 `state.py`, `__setattr__`: `old != value`).
  if (JSON.stringify(before) !== JSON.stringify(analyzer))
    await publishEvent(state, updated.id, stateUpdate('security_analyzer', analyzer));
}

/**
 * `POST .../switch_llm` (`switch_llm`): the conversation's LLM is the one given from now on, its
 * `stream` too when given (the agent's answers then stream as `StreamingDeltaEvent`s, `streaming.ts`);
 * its calls count under its `usage_id` (`default` unless given), a usage seen before keeping its metrics.
 */
export async function switchLlm(
  state: DomainState,
  conversation: ConversationRecord,
  model: string,
  stream?: boolean,
  usageId: string = DEFAULT_USAGE_ID,
): Promise<void> {
  const switched = await recordLlmSwitch(state, conversation, usageId, model);
  await state.store.conversations.update(switched.id, {
    llm_model: model,
    updated_at: state.stamp(),
    ...(stream === undefined ? {} : { agent_stream: stream ? true : undefined }),
  });
}

/**
 * `POST .../switch_profile` (`switch_profile`; openhands-sdk `local_conversation.py`, which loads it
 * from the host's `LLMProfileStore`): the model of the LLM profile the user saved under that name
 * (`/api/profiles`), its calls counted under `profile:NAME`; 404 `Profile '<name>' not found` for one not saved.
 */
export async function switchProfile(state: DomainState, conversation: ConversationRecord, name: string): Promise<Refusal | null> {
  const profiles = state.store.settings?.llm_profiles ?? {};
  const model = Object.hasOwn(profiles, name) ? profiles[name]?.model : null;
  if (!model) return refuse('not_found', `Profile '${name}' not found`);
  await switchLlm(state, conversation, model, undefined, profileUsageId(name));
  return null;
}

/** `POST .../switch_acp_model` (`switch_acp_model`): only an ACP agent switches models (400 otherwise). */
export async function switchAcpModel(state: DomainState, conversation: ConversationRecord, model: string): Promise<Refusal | null> {
  if (hostState(conversation).agent_kind !== 'ACPAgent')
    return refuse('bad_request', 'switch_acp_model is only supported for ACP conversations.');
  await setHostState(state, conversation, { acp_model: model });
  return null;
}

/**
 * `GET /api/file/download-trajectory/{id}` (`file_router.py`, `download_trajectory`): a ZIP of the
 * conversation's persistence folder: `base_state.json` and one file per event, in order.
 */
export async function trajectoryZip(state: DomainState, conversation: ConversationRecord): Promise<Uint8Array> {
  const files: Record<string, string> = { 'base_state.json': `${JSON.stringify(hostConversationInfo(state, conversation), null, 2)}\n` };
  state.store.eventIdsOf(conversation.id).forEach((id, i) => {
    const event = state.store.events.get(id)!.event as AgentEvent;
    files[`events/event-${String(i).padStart(5, '0')}-${id}.json`] = `${JSON.stringify(event)}\n`;
  });
  return zipArchive(files, state.clock.now());
}
