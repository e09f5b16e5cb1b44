/**
 * `GET /api/v1/app-conversations/{id}/files?path=`: the files of a conversation's workspace under a
 * folder, as paths relative to it (what Agent Canvas's file tree lists on a cloud backend). Empty
 * when the conversation, a running sandbox or the folder is not there, like the `file` route.
 */
import { agentServerContext } from './conversation-ops.js';
import { resolveInWorkspace } from '../agent/workspace.js';
import type { DomainState } from '../store/state.js';

/** The files under `path` in the conversation's workspace, sorted, relative to `path`. */
export function listConversationFiles(state: DomainState, id: string, path: string): string[] {
  const context = agentServerContext(state, id);
  if (context.kind !== 'ready') return [];
  const folder = resolveInWorkspace(context.workspace, path, context.workingDir, context.conversation.selected_repository);
  if (folder === null) return [];
  const prefix = folder === '' ? '' : `${folder.replace(/\/+$/, '')}/`;
  return Object.keys(context.workspace.current)
    .filter((file) => file.startsWith(prefix))
    .map((file) => file.slice(prefix.length))
    .sort();
}
