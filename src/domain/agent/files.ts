/**
 * The files of a sandbox as its agent server serves them: uploads kept on the sandbox record (by
 * absolute path, base64), downloads from those or from a conversation's workspace. Copies
 * `openhands-agent-server`'s `file_router.py` (`_upload_file`, `_download_file`: the path must be
 * absolute, 404 "File not found", 400 "Path is not a file"). The VS Code URL is `editor.ts`'s.
 */
import type { SandboxRecord } from '../../schemas/records.js';
import { workspaceFor } from './agent-server.js';
import type { AgentHost } from './host.js';
import { fromBase64, toBase64 } from './base64.js';
import { badRequest, isRefusal, refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';
import { addDirectories, isDirectory as isHostDirectory } from '../agent-world/host.js';

/** A file the agent server sends back: its name and bytes. */
export interface DownloadedFile {
  /** The last segment of its path. */
  filename: string;
  /** Its content. */
  bytes: Uint8Array;
}

/** Most files one sandbox keeps from uploads; past it an upload is refused (the store cap bounds their bytes). */
export const MAX_UPLOADED_FILES = 1_000;

/** `/a/b/../c` → `/a/c`, as `Path` resolves it; `null` for a relative path. */
function absolute(path: string): string | null {
  if (!path.startsWith('/')) return null;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Whether `path` is a directory of the sandbox: a parent of an upload or of a workspace file. */
function isDirectory(state: DomainState, sandbox: SandboxRecord, host: AgentHost, path: string): boolean {
  const prefix = path === '/' ? '/' : `${path}/`;
  if (Object.keys(sandbox.uploaded_files ?? {}).some((p) => p.startsWith(prefix))) return true;
  const context = workspaceFor(state, host, path);
  if (isRefusal(context)) return false;
  const project = context.workspace.projectDir;
  return (
    project === path ||
    project.startsWith(prefix) ||
    Object.keys(context.workspace.current).some((p) => `${project}/${p}`.startsWith(prefix))
  );
}

/** Whether `path` is a file of the sandbox: uploaded, or in a conversation's workspace. */
function isFile(state: DomainState, sandbox: SandboxRecord, host: AgentHost, path: string): boolean {
  if (Object.hasOwn(sandbox.uploaded_files ?? {}, path)) return true;
  const context = workspaceFor(state, host, path);
  if (isRefusal(context) || !path.startsWith(`${context.workspace.projectDir}/`)) return false;
  return Object.hasOwn(context.workspace.current, path.slice(context.workspace.projectDir.length + 1));
}

/**
 * `POST /api/file/upload` (`_upload_file`): the file is written at `path` (absolute), replacing what
 * was there, its folders made (`mkdir(parents=True)`: the host then lists them); 400 for a path that
 * is a directory or under a file; answers the bytes written.
 */
export async function uploadFile(
  state: DomainState,
  sandbox: SandboxRecord,
  host: AgentHost,
  path: string,
  bytes: Uint8Array,
): Promise<{ success: true; file_size: number } | Refusal> {
  const target = absolute(path);
  if (target === null) return badRequest('Path must be absolute');
  if (target === '/' || isDirectory(state, sandbox, host, target) || isHostDirectory(state, target))
    return badRequest('Path is a directory');
  const folder = target.slice(0, target.lastIndexOf('/')) || '/';
  for (let dir = folder; dir !== '/'; dir = dir.slice(0, dir.lastIndexOf('/')) || '/')
    if (isFile(state, sandbox, host, dir)) return badRequest('A parent of the path is not a directory');
  const uploads = { ...(sandbox.uploaded_files ?? {}) };
  if (!(target in uploads) && Object.keys(uploads).length >= MAX_UPLOADED_FILES)
    return refuse('storage_full', `A sandbox keeps at most ${MAX_UPLOADED_FILES} uploaded files`);
  const made = addDirectories(state, folder);
  if (made) return made;
  uploads[target] = toBase64(bytes);
  await state.store.sandboxes.update(sandbox.id, { uploaded_files: uploads });
  return { success: true, file_size: bytes.length };
}

/** `GET /api/file/download`: the file at `path`, uploaded or in a conversation's workspace. */
export function downloadFile(state: DomainState, sandbox: SandboxRecord, host: AgentHost, path: string): DownloadedFile | Refusal {
  const target = absolute(path);
  if (target === null) return badRequest('Path must be absolute');
  const filename = target.split('/').at(-1) ?? '';
  const uploaded = sandbox.uploaded_files?.[target];
  if (uploaded !== undefined) return { filename, bytes: fromBase64(uploaded) };
  const context = workspaceFor(state, host, target);
  if (!isRefusal(context) && target.startsWith(`${context.workspace.projectDir}/`)) {
    const text = context.workspace.current[target.slice(context.workspace.projectDir.length + 1)];
    if (text !== undefined) return { filename, bytes: new TextEncoder().encode(text) };
  }
  if (isDirectory(state, sandbox, host, target)) return badRequest('Path is not a file');
  return refuse('not_found', 'File not found');
}
