/**
 * Sandboxes and sandbox specs: search, batch get, start, pause, resume, delete, fail. A sandbox's
 * time-driven steps (STARTING → RUNNING) are never written; its status is derived when read.
 */
import type { Success } from '../../schemas/common.js';
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { parseDateTime } from '../../schemas/datetime.js';
import { agentStatus } from '../agent/status.js';
import type { SandboxInfo } from '../../schemas/sandbox.js';
import type { SandboxSpecInfo } from '../../schemas/sandbox-spec.js';
import { notFound } from '../store/refusal.js';
import { SANDBOX_TRANSITIONS, type SandboxAction } from '../time/lifecycle.js';
import { pageIds, toPage, type Page, type PageRequest } from '../store/paging.js';
import type { DomainState } from '../store/state.js';
import { sandboxView } from '../conversations/views.js';

/** The `status_detail` of a sandbox failed without a reason given. */
export const DEFAULT_FAILURE_DETAIL = 'Container exited unexpectedly (exit code 137)';

/** `GET /api/v1/sandbox-specs/search`: specs, newest first. */
export function searchSandboxSpecs(state: DomainState, page: PageRequest): Page<SandboxSpecInfo> {
  const table = state.store.sandboxSpecs;
  const { ids, more } = pageIds(table.orderings.all, page);
  return toPage(
    ids.map((id) => table.get(id)!),
    page,
    more,
  );
}

/** `GET /api/v1/sandbox-specs?id=`: specs aligned with `ids`, null for missing ones. */
export function getSandboxSpecs(state: DomainState, ids: string[]): (SandboxSpecInfo | null)[] {
  return ids.map((id) => state.store.sandboxSpecs.get(id) ?? null);
}

/** `GET /api/v1/sandboxes/search`: sandboxes, newest first. */
export function searchSandboxes(state: DomainState, page: PageRequest): Page<SandboxInfo> {
  const table = state.store.sandboxes;
  const { ids, more } = pageIds(table.orderings.all, page);
  return toPage(
    ids.map((id) => sandboxView(state, table.get(id)!)),
    page,
    more,
  );
}

/** `GET /api/v1/sandboxes?id=`: sandboxes aligned with `ids`, null for missing ones. */
export function getSandboxes(state: DomainState, ids: string[]): (SandboxInfo | null)[] {
  return ids.map((id) => {
    const record = state.store.sandboxes.get(id);
    return record ? sandboxView(state, record) : null;
  });
}

/** Creates a STARTING sandbox from a spec (the default one when `specId` is null). */
export async function createSandbox(state: DomainState, specId: string | null): Promise<SandboxRecord> {
  const spec = specId ?? state.store.defaultSandboxSpecId;
  if (!spec || !state.store.sandboxSpecs.get(spec)) throw notFound(`Sandbox spec ${spec}`);
  const created = state.stamp();
  const record = await state.store.sandboxes.insert({
    id: state.newSandboxId(),
    created_by_user_id: state.options.userId,
    sandbox_spec_id: spec,
    status: 'STARTING',
    status_changed_at: created,
    session_api_key: state.random.sessionKey(),
    agent_port: state.nextAgentPort(),
    created_at: created,
  });
  return record;
}

/** Applies `action` to a sandbox by the transition table (total: no action is refused in any state). */
export async function transitionSandbox(
  state: DomainState,
  id: string,
  action: SandboxAction,
  detail: string | null = null,
): Promise<SandboxRecord> {
  const stored = state.store.sandboxes.get(id);
  if (!stored) throw notFound(`Sandbox ${id}`);
  const record = state.settledNow(stored);
  const next = SANDBOX_TRANSITIONS[action][record.status];
  if (next === record.status) return record;
  const updated = await state.store.sandboxes.update(id, {
    status: next,
    status_changed_at: state.stamp(),
    status_detail: next === 'ERROR' ? detail : null,
  });
  // The runtime stops (paused or failed): the runs in it stop where they are (agent/runtime-stop.ts).
  if ((record.status === 'RUNNING' || record.status === 'STARTING') && (next === 'PAUSED' || next === 'ERROR')) {
    const running = runsIn(state, id);
    if (running.length > 0) await (await state.loadAgent()).stopRuntimeRuns(state, running);
  }
  return updated;
}

/** The conversations of a sandbox whose agent is running now: a scripted run, or a fixture's run paced by time alone. */
function runsIn(state: DomainState, sandboxId: string): ConversationRecord[] {
  const now = state.now();
  return state.store.conversations.all().filter((conversation) => {
    if (conversation.sandbox_id !== sandboxId) return false;
    const status = agentStatus(conversation);
    if (status !== null) return status === 'running';
    if (conversation.agent_turns === 0) return false;
    return now < parseDateTime(conversation.agent_started_at ?? conversation.created_at) + state.options.timings.agentRunMs;
  });
}

const SUCCESS: Success = Object.freeze({ success: true });

/** `POST /api/v1/sandboxes`: starts a sandbox from a spec (the default one when omitted); always answers STARTING, as a container is created, then starts. */
export async function startSandbox(state: DomainState, specId: string | null): Promise<SandboxInfo> {
  return sandboxView(state, await createSandbox(state, specId), { settle: false });
}

/** `POST /api/v1/sandboxes/{id}/pause`: STARTING/RUNNING → PAUSED; a PAUSED sandbox stays so, an ERROR one in ERROR. */
export async function pauseSandbox(state: DomainState, id: string): Promise<Success> {
  await transitionSandbox(state, id, 'pause');
  return SUCCESS;
}

/** `POST /api/v1/sandboxes/{id}/resume`: PAUSED or ERROR → STARTING → RUNNING; a starting or running sandbox stays so. */
export async function resumeSandbox(state: DomainState, id: string): Promise<Success> {
  await transitionSandbox(state, id, 'resume');
  return SUCCESS;
}

/** Fault injection: the sandbox enters ERROR (as when its container dies), with the runtime's reason as its `status_detail`. */
export async function failSandbox(state: DomainState, id: string, detail: string = DEFAULT_FAILURE_DETAIL): Promise<SandboxInfo> {
  return sandboxView(state, await transitionSandbox(state, id, 'fail', detail));
}

/** `DELETE /api/v1/sandboxes/{id}`: the sandbox becomes MISSING (gone from search, null in batch). */
export function deleteSandbox(state: DomainState, id: string): Success {
  if (!state.store.sandboxes.remove(id)) throw notFound(`Sandbox ${id}`);
  return SUCCESS;
}
