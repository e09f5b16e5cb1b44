/**
 * Operations on one app conversation that the real app server serves by reaching the
 * conversation's agent server (rename, delete, send a message, switch the model, read its
 * workspace, skills and hooks, download it), and a sandbox's secret names. Each follows the
 * sandbox's state as the real router's agent-server context does (`app_conversation_router.py`,
 * `_get_agent_server_context`): a paused sandbox is "closed", a starting, failed or gone one is
 * "not ready". The workspace is derived (`workspace.ts`), so every answer agrees with the others.
 */
import type { AppConversation } from '../../schemas/app-conversation.js';
import type { SandboxStatus } from '../../schemas/common.js';
import type {
  AppConversationUpdateRequest,
  AppSendMessageRequest,
  GitChange,
  GitChangeDiff,
  SecretNamesResponse,
} from '../../schemas/conversation-ops.js';
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';
import { toHex, toHyphenatedUuid } from '../store/ids.js';
import { deleteConversation } from '../legacy/conversations.js';
import { messageText } from './start-tasks.js';
import { isRefusal, refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { appConversationView, finishedTurns, sandboxStatusOf } from './views.js';
import { projectDirOf, resolveInWorkspace, workspaceOf, type Workspace } from '../agent/workspace.js';
import { deliverMessage } from '../agent/scripted-agent.js';
import { zipPieces } from '../agent/zip.js';

/** LLM profiles a user has saved (the fake's user settings): name → model. */
export const LLM_PROFILES: Readonly<Record<string, string>> = {
  default: 'anthropic/claude-sonnet-4-5-20250929',
  fast: 'openai/gpt-5-mini-2025-08-07',
  reasoning: 'openai/gpt-5-2025-08-07',
};

/** The agent server of a conversation, reachable or why not. */
export type AgentServerContext =
  | { kind: 'ready'; conversation: ConversationRecord; sandbox: SandboxRecord; workingDir: string; workspace: Workspace }
  /** Paused: the conversation is closed. */
  | { kind: 'paused' }
  /** Unknown conversation, or a sandbox that is gone, starting or failed: the real `{"error": ...}` message. */
  | { kind: 'unreachable'; error: string };

/** A reachable agent server: the conversation, its running sandbox and its workspace. */
export type ReadyContext = Extract<AgentServerContext, { kind: 'ready' }>;

function findV1(state: DomainState, id: string): ConversationRecord | undefined {
  const key = toHyphenatedUuid(id);
  const record = key ? state.store.conversations.get(key) : undefined;
  return record?.version === 'V1' ? record : undefined;
}

/** An agent server reached, before its workspace is derived; or why not. */
type ReachedServer =
  | { kind: 'ready'; conversation: ConversationRecord; sandbox: SandboxRecord; workingDir: string }
  | Exclude<AgentServerContext, ReadyContext>;

/** `agentServerContext` up to the workspace, which only some callers read (deriving it is most of the cost). */
function reachServer(state: DomainState, id: string): ReachedServer {
  const conversation = findV1(state, id);
  const hex = toHyphenatedUuid(id) ? toHex(id) : id;
  if (!conversation) return { kind: 'unreachable', error: `Conversation ${hex} not found` };
  const { status, sandbox } = sandboxStatusOf(state, conversation);
  if (!sandbox) return { kind: 'unreachable', error: `Sandbox not found for conversation ${hex}` };
  if (status === 'PAUSED') return { kind: 'paused' };
  if (status !== 'RUNNING') return { kind: 'unreachable', error: `Sandbox not ready for conversation ${hex}` };
  const workingDir = state.store.sandboxSpecs.get(sandbox.sandbox_spec_id)?.working_dir ?? DEFAULT_WORKING_DIR;
  return { kind: 'ready', conversation, sandbox, workingDir };
}

/** The agent-server context of a conversation, as the real router's helper decides it. */
export function agentServerContext(state: DomainState, id: string): AgentServerContext {
  const reached = reachServer(state, id);
  if (reached.kind !== 'ready') return reached;
  const { conversation, sandbox, workingDir } = reached;
  return {
    ...reached,
    workspace: workspaceOf(conversation, finishedTurns(state, conversation), workingDir, sandbox.uploaded_files),
  };
}

/**
 * The project directory of a conversation's agent server when it is ready (`agentServerContext`'s
 * `workspace.projectDir`), `null` otherwise: without deriving the workspace's files and changes.
 */
export function readyProjectDir(state: DomainState, id: string): string | null {
  const reached = reachServer(state, id);
  return reached.kind === 'ready' ? projectDirOf(reached.workingDir, reached.conversation.selected_repository) : null;
}

/** `PATCH /api/v1/app-conversations/{id}`: the fields given change; `null` for an unknown conversation. */
export async function updateAppConversation(
  state: DomainState,
  id: string,
  patch: AppConversationUpdateRequest,
): Promise<AppConversation | null> {
  const record = findV1(state, id);
  if (!record) return null;
  const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
  const updated = await state.store.conversations.update(record.id, { ...changes, updated_at: state.stamp() });
  return appConversationView(state, updated);
}

/** `DELETE /api/v1/app-conversations/{id}`: removes it, and its sandbox when no other conversation uses it; `false` when unknown. */
export function deleteAppConversation(state: DomainState, id: string): boolean {
  const record = findV1(state, id);
  return record ? deleteConversation(state, record.id) : false;
}

/**
 * `POST .../send-message`: the agent gets the message (and runs on it unless `run` is false); only a
 * RUNNING sandbox takes it. Refused as the real route refuses (`send_message_to_conversation`).
 */
export async function sendMessage(
  state: DomainState,
  id: string,
  request: AppSendMessageRequest,
): Promise<{ sandbox_status: SandboxStatus } | Refusal> {
  const conversation = findV1(state, id);
  const hex = toHyphenatedUuid(id) ? toHex(id) : id;
  if (!conversation) return refuse('not_found', `Conversation ${hex} not found`);
  const { status, sandbox } = sandboxStatusOf(state, conversation);
  if (!sandbox) return refuse('gone', 'Conversation is archived. The sandbox no longer exists.');
  if (status === 'ERROR') return refuse('unavailable', 'Sandbox is in an error state and cannot accept messages.');
  if (status !== 'RUNNING')
    return refuse('conflict', `Sandbox is ${status}. Use POST /api/v1/sandboxes/${sandbox.id}/resume to resume it first.`);
  await deliverMessage(state, conversation, messageText(request.content), request.run);
  return { sandbox_status: status };
}

/** `POST .../switch_profile` and `.../switch_acp_model`: the new model is kept on the conversation. */
export async function switchModel(state: DomainState, context: ReadyContext, model: string): Promise<void> {
  await state.store.conversations.update(context.conversation.id, { llm_model: model, updated_at: state.stamp() });
}

/** `GET .../file`: the file's text, or `""` when the conversation, sandbox or file is not there (as the real route answers). */
export function readFile(state: DomainState, id: string, filePath: string): string {
  const context = agentServerContext(state, id);
  if (context.kind !== 'ready') return '';
  const relative = resolveInWorkspace(context.workspace, filePath, context.workingDir, context.conversation.selected_repository);
  return relative === null ? '' : (context.workspace.current[relative] ?? '');
}

/** The repository-relative path of `path` in a ready context's workspace, or `null` outside it. */
function relativePath(context: ReadyContext, path: string): string | null {
  return resolveInWorkspace(context.workspace, path, context.workingDir, context.conversation.selected_repository);
}

/** `GET .../git/changes?path=`: the changed files of the repository at `path` (none for a path that is not it). */
export function gitChanges(context: ReadyContext, path: string): GitChange[] {
  return relativePath(context, path) === '' ? context.workspace.changes.map((c) => ({ ...c })) : [];
}

/** `GET .../git/diff?path=`: a file before and after the agent's changes (empty strings where it did not exist). */
export function gitDiff(context: ReadyContext, path: string): GitChangeDiff {
  const relative = relativePath(context, path) ?? '';
  return { original: context.workspace.original[relative] ?? '', modified: context.workspace.current[relative] ?? '' };
}

/** `GET .../download`: a ZIP of the conversation (its metadata, messages and workspace); `null` for an unknown one. */
export async function exportConversation(state: DomainState, id: string): Promise<Uint8Array | null> {
  const archive = await exportConversationPieces(state, id);
  if (!archive) return null;
  const parts: Uint8Array[] = [];
  for await (const piece of archive.pieces) parts.push(piece.slice());
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * `GET .../download` as the route streams it: the ZIP in pieces, the event loop served between
 * them (#29 finding 11); `null` for an unknown conversation. The files are chosen when it is asked
 * for. The ZIP writer loads on first use.
 */
export async function exportConversationPieces(state: DomainState, id: string): Promise<{ pieces: AsyncIterable<Uint8Array> } | null> {
  const conversation = findV1(state, id);
  if (!conversation) return null;
  const sandbox = state.store.sandboxes.get(conversation.sandbox_id);
  const workingDir = (sandbox && state.store.sandboxSpecs.get(sandbox.sandbox_spec_id)?.working_dir) ?? DEFAULT_WORKING_DIR;
  const workspace = workspaceOf(conversation, finishedTurns(state, conversation), workingDir, sandbox?.uploaded_files);
  const files: Record<string, string | (() => string)> = {
    'meta.json': `${JSON.stringify(appConversationView(state, conversation), null, 2)}\n`,
  };
  conversation.messages.forEach((text, i) => {
    files[`events/${String(i + 1).padStart(6, '0')}-MessageEvent.json`] =
      `${JSON.stringify({ kind: 'MessageEvent', source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } }, null, 2)}\n`;
  });
  // Read as the archive reaches each file: an upload is decoded then, one a turn, not all before the first piece.
  for (const path of Object.keys(workspace.current)) files[`workspace/${path}`] = () => workspace.current[path]!;
  return { pieces: zipPieces(files, state.clock.now()) };
}

/**
 * The sandbox a session API key belongs to, checked against the sandbox named in the path; refused
 * as `session_auth.py` refuses: no or a wrong key (401), or another sandbox's key (403).
 */
export function sandboxForKey(state: DomainState, sandboxId: string, key: string | null): SandboxRecord | Refusal {
  const owner = key
    ? state.store.sandboxes.all().find((s) => s.session_api_key === key && state.settledNow(s).status === 'RUNNING')
    : undefined;
  if (!owner) return refuse('unauthorized', 'Unauthorized');
  return owner.id === sandboxId ? owner : refuse('forbidden', 'Session API key does not match sandbox');
}

/** The secret names a sandbox may look up, for the holder of its session key. */
export function sandboxSecretNames(state: DomainState, sandboxId: string, key: string | null): SecretNamesResponse | Refusal {
  const sandbox = sandboxForKey(state, sandboxId, key);
  return isRefusal(sandbox) ? sandbox : secretNames(state, sandbox);
}

/** The user's secrets a sandbox may look up: provider tokens, the user's custom secrets, and the secrets given to its conversations; names and descriptions only. */
export function secretNames(state: DomainState, sandbox: SandboxRecord): SecretNamesResponse {
  const names = new Map<string, string | null>();
  for (const [provider, token] of Object.entries(state.store.providerTokens))
    if (token?.token) names.set(`${provider}_token`, `${provider} token`);
  for (const secret of state.store.customSecrets) if (!names.has(secret.name)) names.set(secret.name, secret.description);
  for (const task of state.store.startTasks.all()) {
    if (task.sandbox_id !== sandbox.id) continue;
    for (const name of Object.keys(task.request.secrets ?? {})) if (!names.has(name)) names.set(name, null);
  }
  return { secrets: [...names].map(([name, description]) => ({ name, description })) };
}

/** `GET .../skills`: the repository skill, the workspace's skills, and the global ones, as the agent loads them. */
export function skillsOf(
  context: ReadyContext,
): { name: string; type: 'repo' | 'knowledge' | 'agentskills'; content: string; triggers: string[] }[] {
  const files = context.workspace.current;
  const skills: { name: string; type: 'repo' | 'knowledge' | 'agentskills'; content: string; triggers: string[] }[] = [];
  const repo = files['.openhands/microagents/repo.md'];
  if (repo) skills.push({ name: 'repo', type: 'repo', content: repo, triggers: [] });
  for (const path of Object.keys(files)) {
    const match = /^\.agents\/skills\/([^/]+)\/SKILL\.md$/.exec(path);
    if (!match) continue;
    const text = files[path]!;
    const triggers =
      /triggers: \[([^\]]*)\]/
        .exec(text)?.[1]
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean) ?? [];
    skills.push({ name: match[1]!, type: 'agentskills', content: text.replace(/^---[\s\S]*?---\n/, ''), triggers });
  }
  skills.push({
    name: 'github',
    type: 'knowledge',
    content: 'Use the GITHUB_TOKEN to talk to the GitHub API; never push to main.',
    triggers: ['github', 'git'],
  });
  return skills;
}

/** `GET .../hooks`: the workspace's `.openhands/hooks.json`, by event type, as the real route lists them. */
export function hooksOf(context: ReadyContext): {
  event_type: string;
  matchers: { matcher: string; hooks: { type: string; command: string; timeout: number | null; async: boolean }[] }[];
}[] {
  const text = context.workspace.current['.openhands/hooks.json'];
  if (!text) return [];
  const config = JSON.parse(text) as Record<
    string,
    { matcher: string; hooks: { type: string; command: string; timeout?: number; async?: boolean }[] }[]
  >;
  const events = ['pre_tool_use', 'post_tool_use', 'user_prompt_submit', 'session_start', 'session_end', 'stop'];
  return events
    .filter((event) => config[event]?.length)
    .map((event) => ({
      event_type: event,
      matchers: config[event]!.map((m) => ({
        matcher: m.matcher,
        hooks: m.hooks.map((h) => ({ type: h.type, command: h.command, timeout: h.timeout ?? null, async: h.async ?? false })),
      })),
    }));
}
