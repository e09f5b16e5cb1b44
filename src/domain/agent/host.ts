/**
 * Which agent server a request reaches on the agent host, and what it holds. With a RUNNING
 * sandbox's session key: that sandbox's agent server (its conversations, whoever started them).
 * Under `--auth none`, a request with no key (or one no sandbox holds) reaches the local agent
 * server, as Agent Canvas's local backend talks to one: it holds the V1 conversations of every
 * RUNNING sandbox, and a conversation created there goes to the newest RUNNING sandbox (a new one,
 * running at once, when none runs: the agent server answering is running).
 */
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { refuse, type Refusal } from '../store/refusal.js';
import { keyHolder } from '../sandboxes/session-keys.js';
import type { DomainState } from '../store/state.js';

/** The agent server a request reaches: one sandbox's, or (under `--auth none`, without a sandbox's key) the local one. */
export type AgentHost = { kind: 'sandbox'; sandbox: SandboxRecord } | { kind: 'local' };

/** The agent server `key` opens; with `anyKey` (auth none) a key no RUNNING sandbox holds opens the local one; `null` otherwise. */
export function agentHostFor(state: DomainState, key: string | null, anyKey: boolean): AgentHost | null {
  const holder = keyHolder(state, key);
  if (holder.kind === 'running') return { kind: 'sandbox', sandbox: holder.sandbox };
  return anyKey && holder.kind === 'none' ? { kind: 'local' } : null;
}

/**
 * Whether the host holds `conversation`: a V1 conversation of its sandbox (local: of any RUNNING
 * sandbox), or a V0 one whose agent publishes events there (a `replay_json` replay: its `url`
 * names the host); other V0 conversations have no agent in the fake.
 */
export function hostHolds(state: DomainState, host: AgentHost, conversation: ConversationRecord): boolean {
  if (conversation.version !== 'V1' && state.store.eventIdsOf(conversation.id).length === 0 && !state.timelines.has(conversation.id))
    return false;
  if (host.kind === 'sandbox') return conversation.sandbox_id === host.sandbox.id;
  const sandbox = state.store.sandboxes.get(conversation.sandbox_id);
  return sandbox !== undefined && state.settledNow(sandbox).status === 'RUNNING';
}

/** The conversation `id` the host holds, or the route's 404 `Not Found`. */
export function heldConversation(state: DomainState, host: AgentHost, id: string): ConversationRecord | Refusal {
  const uuid = toHyphenatedUuid(id);
  const conversation = uuid ? state.store.conversations.get(uuid) : undefined;
  return conversation && hostHolds(state, host, conversation) ? conversation : refuse('not_found', 'Not Found');
}

/** Every conversation the host holds. */
export function hostedConversations(state: DomainState, host: AgentHost): ConversationRecord[] {
  return state.store.conversations.all().filter((c) => hostHolds(state, host, c));
}

/** The newest RUNNING sandbox (of those created at the same time, the last listed), found in one pass; `undefined` when none runs. */
export function newestRunningSandbox(state: DomainState): SandboxRecord | undefined {
  let newest: SandboxRecord | undefined;
  for (const sandbox of state.store.sandboxes.all())
    if (
      state.settledNow(sandbox).status === 'RUNNING' &&
      (newest === undefined || sandbox.created_at.localeCompare(newest.created_at) >= 0)
    )
      newest = sandbox;
  return newest;
}

/** The sandbox a conversation created on the host runs in: the host's own; locally the newest RUNNING one, or a new one that runs. */
export function sandboxForNewConversation(state: DomainState, host: AgentHost): SandboxRecord | Promise<SandboxRecord> {
  if (host.kind === 'sandbox') return host.sandbox;
  // No promise when one runs.
  return newestRunningSandbox(state) ?? newSandbox(state);
}

/**
 * The machine the host's files, editor and repositories are on: a sandbox's agent server's own; the
 * local agent server's, the newest RUNNING sandbox (with `create`, a new one when none runs, as a
 * conversation created there gets; otherwise `missing`, by default 404 `Not Found`).
 */
export async function hostMachine(
  state: DomainState,
  host: AgentHost,
  create: boolean,
  missing: () => Refusal = () => refuse('not_found', 'Not Found'),
): Promise<SandboxRecord | Refusal> {
  if (host.kind === 'sandbox') return host.sandbox;
  return newestRunningSandbox(state) ?? (create ? newSandbox(state) : missing());
}

/** A new RUNNING sandbox for the local agent host's conversations. */
async function newSandbox(state: DomainState): Promise<SandboxRecord> {
  const spec = state.store.defaultSandboxSpecId;
  const created = state.stamp();
  if (!spec) throw refuse('unavailable', 'No sandbox spec to run the agent server in');
  return state.store.sandboxes.insert({
    id: state.newSandboxId(),
    created_by_user_id: state.options.userId,
    sandbox_spec_id: spec,
    status: 'RUNNING',
    status_changed_at: created,
    session_api_key: state.random.sessionKey(),
    agent_port: state.nextAgentPort(),
    created_at: created,
  });
}
