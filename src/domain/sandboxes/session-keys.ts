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
): { kind: 'running'; sandbox: SandboxRecord } | { kind: 'stopped'; sandbox: SandboxRecord } | { kind: 'none' } {
  if (!key) return { kind: 'none' };
  // Every agent-server request asks, often twice: the sandboxes read in order without a list made of them (`all()`).
  const { sandboxes } = state.store;
  const order = sandboxes.orderings.all;
  let sandbox: SandboxRecord | undefined;
  for (let i = 0; i < order.size && !sandbox; i++) {
    const candidate = sandboxes.get(order.idAt(i)!)!;
    if (candidate.session_api_key === key) sandbox = candidate;
  }
  if (!sandbox) return { kind: 'none' };
  const settled = state.settledNow(sandbox);
  return settled.status === 'RUNNING' ? { kind: 'running', sandbox } : { kind: 'stopped', sandbox: settled };
}

/** The longest close reason a WebSocket close frame carries, in bytes (RFC 6455: 125 bytes less the code's 2). */
const MAX_CLOSE_REASON_BYTES = 123;

/**
 * Why a stopped sandbox's agent server does not answer, as a socket's close reason: its status and,
 * for a failed one, the runtime's reason (`status_detail`), cut to fit a close frame.
 * @example
 * stoppedReason(sandbox) // 'Sandbox ERROR: Container exited with code 137 (out of memory)'
 */
export function stoppedReason(sandbox: SandboxRecord): string {
  const full = `Sandbox ${sandbox.status}${sandbox.status === 'ERROR' && sandbox.status_detail ? `: ${sandbox.status_detail}` : ''}`;
  const bytes = new TextEncoder().encode(full);
  if (bytes.length <= MAX_CLOSE_REASON_BYTES) return full;
  // A character cut in two decodes as U+FFFD: dropped.
  return `${new TextDecoder().decode(bytes.slice(0, MAX_CLOSE_REASON_BYTES - 3)).replace(/\uFFFD$/, '')}...`;
}
