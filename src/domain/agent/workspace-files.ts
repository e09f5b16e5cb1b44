/**
 * A conversation's workspace as a static web server serves it (`GET /api/conversations/{id}/workspace/{path}`):
 * a file with a type inferred from its name, a directory's `index.html`, and nothing outside the
 * workspace. Copies `openhands-agent-server`'s `workspace_router.py` (`_resolve_workspace_dir`,
 * `_resolve_target`, `_serve_path`). The workspace's files are the conversation's derived files
 * (`workspace.ts`: what the agent wrote, under the conversation's working directory) and the files
 * uploaded to its sandbox under that directory (`files.ts`).
 */
import type { ConversationRecord } from '../../schemas/records.js';
import { agentServerContext } from '../conversations/conversation-ops.js';
import { fromBase64 } from './base64.js';
import { hostState } from './conversations.js';
import { toHyphenatedUuid } from '../store/ids.js';
import { badRequest, isRefusal, refuse, type Refusal } from '../store/refusal.js';
import type { DomainState } from '../store/state.js';

/** A workspace file as `FileResponse` sends it: its bytes and the type its name implies. */
export interface ServedFile {
  /** Its content. */
  bytes: Uint8Array;
  /** Its `Content-Type` (Starlette adds `; charset=utf-8` to a `text/` type). */
  contentType: string;
}

/** The types Python's `mimetypes` guesses for the extensions a workspace holds (others: `text/plain`, Starlette's default). */
const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  md: 'text/markdown',
  txt: 'text/plain',
  py: 'text/x-python',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  pdf: 'application/pdf',
  zip: 'application/zip',
  wasm: 'application/wasm',
  ts: 'video/mp2t',
};

/** The `Content-Type` of a file named `name`. */
export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const type = (dot > 0 ? TYPES[name.slice(dot + 1).toLowerCase()] : undefined) ?? 'text/plain';
  return type.startsWith('text/') ? `${type}; charset=utf-8` : type;
}

/** `/a/b/../c` → `/a/c`, as `Path.resolve` makes it (`..` at the root stays at the root). */
function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The conversation's workspace directory and its files by absolute path; the route's 404 when it has none. */
function workspaceFiles(
  state: DomainState,
  conversation: ConversationRecord,
): { dir: string; files: Map<string, () => Uint8Array> } | Refusal {
  const context = agentServerContext(state, conversation.id);
  if (context.kind !== 'ready') return refuse('not_found', 'Workspace directory does not exist');
  // The working directory the conversation was created with (one relative to the server, `workspace/project`, is the
  // sandbox's project directory): the agent's files are there, by their path in the project.
  const named = hostState(conversation).working_dir;
  const dir = named?.startsWith('/') ? normalize(named) : context.workspace.projectDir;
  const files = new Map<string, () => Uint8Array>();
  for (const [relative, text] of Object.entries(context.workspace.current))
    files.set(`${dir === '/' ? '' : dir}/${relative}`, () => new TextEncoder().encode(text));
  for (const [path, base64] of Object.entries(context.sandbox.uploaded_files ?? {})) files.set(path, () => fromBase64(base64));
  return { dir, files };
}

/**
 * `GET .../workspace/{file_path}` (`serve_workspace_file`; `serve_workspace_root` with `""`): the
 * file at `filePath` under the workspace, or a directory's `index.html`. 400 "Path is outside the
 * workspace" for a path that leaves it (`..`, an absolute path elsewhere); 404 "No index.html in
 * directory", "File not found"; 404 `Conversation not found: {id}` is the route's.
 */
export function serveWorkspacePath(state: DomainState, conversation: ConversationRecord, filePath: string): ServedFile | Refusal {
  const workspace = workspaceFiles(state, conversation);
  if (isRefusal(workspace)) return workspace;
  const { dir, files } = workspace;
  // `workspace_dir / file_path`: an absolute file_path replaces the directory, as pathlib joins.
  const target = normalize(filePath.startsWith('/') ? filePath : `${dir}/${filePath}`);
  if (target !== dir && !target.startsWith(dir === '/' ? '/' : `${dir}/`)) return badRequest('Path is outside the workspace');
  const inside = (path: string) => [...files.keys()].some((file) => file.startsWith(path === '/' ? '/' : `${path}/`));
  const isDirectory = target === dir || inside(target);
  const served = isDirectory ? `${target === '/' ? '' : target}/index.html` : target;
  const read = files.get(served);
  if (!read) return refuse('not_found', isDirectory ? 'No index.html in directory' : 'File not found');
  return { bytes: read(), contentType: contentTypeOf(served) };
}

/** The route's 404 for a conversation the host does not hold (`Conversation not found: {id}`, the id hyphenated). */
export const conversationNotFound = (id: string): Refusal => refuse('not_found', `Conversation not found: ${toHyphenatedUuid(id) ?? id}`);
