/**
 * Sandboxes and sandbox specs: search, batch get, start, pause, resume, delete, fail. A sandbox's
 * time-driven steps (STARTING → RUNNING) are never written; its status is derived when read.
 */
import type { SandboxRecord } from '../schemas/records.js';
import type { SandboxInfo } from '../schemas/sandbox.js';
import type { SandboxSpecInfo } from '../schemas/sandbox-spec.js';
import { conflict, notFound } from './errors.js';
import { agentPortFor } from './ids.js';
import { SANDBOX_TRANSITIONS, type SandboxAction } from './lifecycle.js';
import { pageIds, toPage, type Page, type PageRequest } from './paging.js';
import type { DomainState } from './state.js';
import { sandboxView } from './views.js';

/** The `status_detail` of a sandbox failed without a reason given. */
export const DEFAULT_FAILURE_DETAIL = 'Container exited unexpectedly (exit code 137)';

/** How an action reads in a refusal. */
const ACTION_PAST: Record<SandboxAction, string> = { pause: 'paused', resume: 'resumed', fail: 'failed' };

/** `GET /api/v1/sandbox-specs/search`: specs, newest first. */
export function searchSandboxSpecs(state: DomainState, page: PageRequest): Page<SandboxSpecInfo> {
  const table = state.store.sandboxSpecs;
  const { ids, more } = pageIds(table.orderings.all, page);
  return toPage(ids.map((id) => table.get(id)!), page, more);
}

/** `GET /api/v1/sandbox-specs?id=`: specs aligned with `ids`, null for missing ones. */
export function getSandboxSpecs(state: DomainState, ids: string[]): (SandboxSpecInfo | null)[] {
  return ids.map((id) => state.store.sandboxSpecs.get(id) ?? null);
}

/** `GET /api/v1/sandboxes/search`: sandboxes, newest first. */
export function searchSandboxes(state: DomainState, page: PageRequest): Page<SandboxInfo> {
  const table = state.store.sandboxes;
  const { ids, more } = pageIds(table.orderings.all, page);
  return toPage(ids.map((id) => sandboxView(state, table.get(id)!)), page, more);
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
    id: state.random.sandboxId(),
    created_by_user_id: state.options.userId,
    sandbox_spec_id: spec,
    status: 'STARTING',
    status_changed_at: created,
    session_api_key: state.random.sessionKey(),
    agent_port: agentPortFor(state.sandboxCount),
    created_at: created,
  });
  state.sandboxCount++;
  return record;
}

/** Applies `action` to a sandbox by the transition table; refuses what the table does not allow. */
export async function transitionSandbox(state: DomainState, id: string, action: SandboxAction, detail: string | null = null): Promise<SandboxRecord> {
  const stored = state.store.sandboxes.get(id);
  if (!stored) throw notFound(`Sandbox ${id}`);
  const record = state.settledNow(stored);
  const next = SANDBOX_TRANSITIONS[action][record.status];
  if (!next) throw conflict(`Sandbox ${id} is ${record.status} and cannot be ${ACTION_PAST[action]}`);
  if (next === record.status) return record;
  return state.store.sandboxes.update(id, { status: next, status_changed_at: state.stamp(), status_detail: next === 'ERROR' ? detail : null });
}

/** `DELETE /api/v1/sandboxes/{id}`: the sandbox becomes MISSING (gone from search, null in batch). */
export function deleteSandbox(state: DomainState, id: string): void {
  if (!state.store.sandboxes.remove(id)) throw notFound(`Sandbox ${id}`);
}
