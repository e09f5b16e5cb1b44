/**
 * Which sandbox a session key belongs to, as every agent-server request asks before its route
 * runs. A module of its own, so that the agent host's auth check needs nothing of the agent server
 * itself: the rest is a chunk a page loads with the first request to an agent host (issue 23).
 */
import type { SandboxRecord } from '../../schemas/records.js';
import type { DomainState } from '../store/state.js';

/** Whether a session key opens some agent server: `running` for a RUNNING sandbox's, `stopped` for a sandbox that is not running (its container is down), `none` otherwise. */
export function keyHolder(
  state: DomainState,
  key: string | null,
): { kind: 'running'; sandbox: SandboxRecord } | { kind: 'stopped' } | { kind: 'none' } {
  if (!key) return { kind: 'none' };
  const sandbox = state.store.sandboxes.all().find((s) => s.session_api_key === key);
  if (!sandbox) return { kind: 'none' };
  return state.settledNow(sandbox).status === 'RUNNING' ? { kind: 'running', sandbox } : { kind: 'stopped' };
}
