/**
 * A legacy conversation's own routes under `/api/conversations/{id}/`: its runtime config (both
 * versions: openhands `server/routes/conversation.py`, `get_remote_runtime_config`), start and stop
 * (`manage_conversations.py`, `start_conversation`, `stop_conversation`), and, for a V0 conversation
 * whose sandbox runs, its workspace (`files.py`: list_files, select_file, zip_current_workspace,
 * git_changes, git_diff, upload_files), events, microagents, trajectory and feedback. A V0
 * conversation that is not running is not attached: 404 `Conversation {id} not found`, as
 * `get_conversation` answers.
 */
import type { ConversationResponse } from '../../schemas/legacy.js';
import type { ConversationRecord, SandboxRecord } from '../../schemas/records.js';
import { DEFAULT_WORKING_DIR } from '../../schemas/sandbox-spec.js';
import { toBase64 } from '../agent/base64.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { CONVERSATION_STATUS_OF_SANDBOX } from '../time/lifecycle.js';
import { Refusal, refuse } from '../store/refusal.js';
import { transitionSandbox } from '../sandboxes/sandboxes.js';
import type { DomainState } from '../store/state.js';
import { legacyId } from './views.js';
import { finishedTurns, sandboxStatusOf } from '../conversations/views.js';
import { workspaceOf, type Workspace } from '../agent/workspace.js';
import { zipArchive } from '../agent/zip.js';

/** A running V0 conversation: the record, its sandbox and its workspace. */
export interface Attached {
  conversation: ConversationRecord;
  sandbox: SandboxRecord;
  workspace: Workspace;
}

const notAttached = (id: string) => refuse('not_found', `Conversation ${id} not found`);

function find(state: DomainState, id: string): ConversationRecord | undefined {
  return state.store.conversations.get(toHyphenatedUuid(id) ?? id);
}

/** The V0 conversation `id` if its sandbox runs (`attach_to_conversation`), else 404. */
export function attach(state: DomainState, id: string): Attached | Refusal {
  const conversation = find(state, id);
  if (!conversation || conversation.version !== 'V0') return notAttached(id);
  const { status, sandbox } = sandboxStatusOf(state, conversation);
  if (status !== 'RUNNING' || !sandbox) return notAttached(id);
  const workingDir = state.store.sandboxSpecs.get(sandbox.sandbox_spec_id)?.working_dir ?? DEFAULT_WORKING_DIR;
  return {
    conversation,
    sandbox,
    workspace: workspaceOf(conversation, finishedTurns(state, conversation), workingDir, sandbox.uploaded_files),
  };
}

/** `GET .../config`: a V1 conversation's sandbox and id; a running V0 one's runtime and session. */
export function runtimeConfig(state: DomainState, id: string): { runtime_id: string | null; session_id: string | null } | Refusal {
  const conversation = find(state, id);
  if (conversation?.version === 'V1') return { runtime_id: conversation.sandbox_id, session_id: id };
  const attached = attach(state, id);
  return attached instanceof Refusal ? attached : { runtime_id: attached.sandbox.id, session_id: legacyId(attached.conversation.id) };
}

/** `POST .../start`: the V0 conversation's sandbox runs again (404 `{"status": "error"}` for an unknown one). */
export async function startConversation(state: DomainState, id: string): Promise<ConversationResponse | Refusal> {
  const conversation = find(state, id);
  if (!conversation) return new Refusal('not_found', 'Conversation not found', { body: { status: 'error', conversation_id: id } });
  const { status, sandbox } = sandboxStatusOf(state, conversation);
  if (sandbox && status === 'PAUSED') await transitionSandbox(state, sandbox.id, 'resume');
  const now = sandboxStatusOf(state, conversation).status;
  return { status: 'ok', conversation_id: id, message: null, conversation_status: CONVERSATION_STATUS_OF_SANDBOX[now] };
}

/** `POST .../stop`: the conversation's sandbox pauses; "Conversation was not running" when it was not. */
export async function stopConversation(state: DomainState, id: string): Promise<ConversationResponse> {
  const conversation = find(state, id);
  const { status, sandbox } = conversation ? sandboxStatusOf(state, conversation) : { status: 'MISSING' as const, sandbox: null };
  const current = CONVERSATION_STATUS_OF_SANDBOX[status];
  if (!conversation || !sandbox || (status !== 'RUNNING' && status !== 'STARTING')) {
    return { status: 'ok', conversation_id: id, message: 'Conversation was not running', conversation_status: current };
  }
  await transitionSandbox(state, sandbox.id, 'pause');
  return {
    status: 'ok',
    conversation_id: id,
    message: 'Conversation stopped successfully',
    conversation_status: CONVERSATION_STATUS_OF_SANDBOX[sandboxStatusOf(state, conversation).status],
  };
}

/** `GET .../list-files?path=`: the entries under a directory of the workspace (directories end in `/`), sorted. */
export function listFiles(attached: Attached, path: string | undefined): string[] {
  const prefix = (path ?? '').replace(/^\/+|\/+$/g, '');
  const entries = new Set<string>();
  for (const file of Object.keys(attached.workspace.current)) {
    if (prefix && !file.startsWith(`${prefix}/`)) continue;
    const rest = prefix ? file.slice(prefix.length + 1) : file;
    const [head, ...tail] = rest.split('/');
    entries.add(`${prefix ? `${prefix}/` : ''}${head}${tail.length > 0 ? '/' : ''}`);
  }
  return [...entries].sort((a, b) => (a.endsWith('/') === b.endsWith('/') ? a.localeCompare(b) : a.endsWith('/') ? -1 : 1));
}

/** `GET .../select-file?file=`: `{"code": ...}`, or 500 `{"error": "Error opening file: ..."}`. */
export function selectFile(attached: Attached, file: string): { code: string } | Refusal {
  const relative = file
    .replace(/^\/+/, '')
    .replace(new RegExp(`^${attached.workspace.projectDir.replace(/^\/+/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`), '');
  const code = attached.workspace.current[relative];
  if (code === undefined)
    return new Refusal('internal', `Error opening file: File not found: ${file}`, {
      body: { error: `Error opening file: File not found: ${file}` },
    });
  return { code };
}

/** `GET .../zip-directory`: the workspace as a ZIP. */
export function zipWorkspace(state: DomainState, attached: Attached): Uint8Array {
  return zipArchive(attached.workspace.current, state.clock.now());
}

/** `POST .../upload-files`: each file written into the workspace; `{"uploaded_files": [paths], "skipped_files"}` (what `upload_files` answers, not its declared model). */
export async function uploadFiles(state: DomainState, attached: Attached, files: { filename: string; bytes: Uint8Array }[]) {
  const uploads = { ...(attached.sandbox.uploaded_files ?? {}) };
  const uploaded: string[] = [];
  for (const file of files) {
    const name = file.filename.split(/[\\/]/).at(-1) ?? file.filename;
    const path = `${attached.workspace.projectDir}/${name}`;
    uploads[path] = toBase64(file.bytes);
    uploaded.push(path);
  }
  await state.store.sandboxes.update(attached.sandbox.id, { uploaded_files: uploads });
  return { uploaded_files: uploaded, skipped_files: [] as { name: string; reason: string }[] };
}

/** `GET .../microagents`: the repository's microagents found in the workspace (`.openhands/microagents/*.md`). */
export function conversationMicroagents(attached: Attached) {
  const files = attached.workspace.current;
  const microagents = Object.keys(files)
    .filter((path) => path.startsWith('.openhands/microagents/') && path.endsWith('.md'))
    .map((path) => ({
      name: path.split('/').at(-1)!.replace(/\.md$/, ''),
      type: 'repo',
      content: files[path]!,
      triggers: [] as string[],
      inputs: [] as unknown[],
      tools: [] as string[],
    }));
  return { microagents };
}
