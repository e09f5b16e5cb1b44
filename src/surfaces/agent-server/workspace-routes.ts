/**
 * The agent server's workspace routes: git changes and diff, file upload and download, the VS Code
 * URL. Each copies `openhands-agent-server`'s `git_router.py`, `file_router.py` or
 * `vscode_router.py`. The newest server (v1.20.0, May 2026) reads the path from `?path=`; the forms
 * with the path in the URL (`{path:path}`) were removed there but the Nov 2025 web client calls
 * them, so both are served (`KNOWN_AGENT_DIFFERENCES` says so).
 */
import * as z from 'zod/mini';
import { downloadFile, uploadFile } from '../../domain/agent/files.js';
import { editorSandbox, EDITOR_PATH, vscodeUrl } from '../../domain/agent/editor.js';
import { editorPage } from './editor-page.js';
import { workspaceFor } from '../../domain/agent/agent-server.js';
import { gitChanges, gitDiff } from '../../domain/conversations/conversation-ops.js';
import { isRefusal, refuse } from '../../domain/store/refusal.js';
import { AgentSuccess, VSCodeUrlResponse } from '../../schemas/agent-server.js';
import { GitChange, GitChangeDiff } from '../../schemas/conversation-ops.js';
import { raw } from '../../http/responses.js';
import { defineRoute, type Route, type RouteContext, type RouteInput, type UploadedFile } from '../../http/route.js';
import { onHostSandbox } from './host.js';

/** `FileUploadResult` (models.py): success, and the bytes written. */
const FileUploadResult = z.object({ success: z.boolean(), file_size: z.int() });

const PathQuery = z.object({ path: z.string() });

/** The changed files of the repository at `path`. */
function changesAt(input: RouteInput<unknown, unknown>, context: RouteContext, path: string) {
  return onHostSandbox(input, context, (state, _sandbox, host) => {
    const workspace = workspaceFor(state, host, path);
    return isRefusal(workspace) ? workspace : gitChanges(workspace, path);
  });
}

/** A file at `path` before and after. */
function diffAt(input: RouteInput<unknown, unknown>, context: RouteContext, path: string) {
  return onHostSandbox(input, context, (state, _sandbox, host) => {
    const workspace = workspaceFor(state, host, path);
    return isRefusal(workspace) ? workspace : gitDiff(workspace, path);
  });
}

/** Writes the form's `file` at `path`. */
function uploadAt(input: RouteInput<unknown, unknown>, context: RouteContext, path: string) {
  const { file } = input.body as { file: UploadedFile };
  return onHostSandbox(input, context, (state, sandbox, host) => uploadFile(state, sandbox, host, path, file.bytes), {
    create: true,
  });
}

/** The file at `path`, as `FileResponse` sends it. */
function downloadAt(input: RouteInput<unknown, unknown>, context: RouteContext, path: string) {
  return onHostSandbox(
    input,
    context,
    (state, sandbox, host) => {
      const file = downloadFile(state, sandbox, host, path);
      if (isRefusal(file)) return file;
      const ascii = /^[\x20-\x7e]*$/.test(file.filename) && !file.filename.includes('"');
      const disposition = ascii
        ? `attachment; filename="${file.filename}"`
        : `attachment; filename*=utf-8''${encodeURIComponent(file.filename)}`;
      return raw(200, file.bytes, 'application/octet-stream', { 'content-disposition': disposition });
    },
    { missing: () => refuse('not_found', 'File not found') },
  );
}

/** The workspace routes of the agent server. */
export const workspaceRoutes: readonly Route[] = Object.freeze([
  defineRoute({
    method: 'GET',
    path: '/api/git/changes',
    summary: 'The changed files of the repository at ?path= (git_router.py, git_changes_query)',
    query: PathQuery,
    response: z.array(GitChange),
    errors: [404],
    handle: (input, context) => changesAt(input, context, input.query.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/git/changes/:path*',
    summary: 'The changed files of the repository at path (git_router.py, removed in v1.20.0; the Nov 2025 web client calls it)',
    response: z.array(GitChange),
    errors: [404],
    handle: (input, context) => changesAt(input, context, input.params.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/git/diff',
    summary: 'A changed file at ?path= before and after (git_router.py, git_diff_query)',
    query: PathQuery,
    response: GitChangeDiff,
    errors: [404],
    handle: (input, context) => diffAt(input, context, input.query.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/git/diff/:path*',
    summary: 'A changed file before and after (git_router.py, removed in v1.20.0; the Nov 2025 web client calls it)',
    response: GitChangeDiff,
    errors: [404],
    handle: (input, context) => diffAt(input, context, input.params.path),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/file/upload',
    summary: 'Write a file at ?path= (file_router.py, upload_file_query)',
    query: PathQuery,
    form: { file: 'file' },
    response: FileUploadResult,
    errors: [400, 404, 500, 507],
    handle: (input, context) => uploadAt(input, context, input.query.path),
  }),
  defineRoute({
    method: 'POST',
    path: '/api/file/upload/:path*',
    summary: 'Write a file at path (file_router.py, removed in v1.20.0; the Nov 2025 web client calls it)',
    form: { file: 'file' },
    response: AgentSuccess,
    errors: [400, 404, 500, 507],
    // Older servers answered `Success`, without the size.
    handle: async (input, context) => {
      const written = await uploadAt(input, context, input.params.path);
      return isRefusal(written) ? written : { success: written.success };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/file/download',
    summary: 'The file at ?path= (file_router.py, download_file_query)',
    query: PathQuery,
    response: z.unknown(),
    untypedInDocument: true,
    errors: [400, 404],
    handle: (input, context) => downloadAt(input, context, input.query.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/file/download/:path*',
    summary: 'The file at path (file_router.py, removed in v1.20.0)',
    response: z.unknown(),
    untypedInDocument: true,
    errors: [400, 404],
    handle: (input, context) => downloadAt(input, context, input.params.path),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/vscode/url',
    summary: 'The VS Code URL with its token (vscode_router.py, get_vscode_url)',
    query: z.object({ base_url: z.optional(z.string()), workspace_dir: z._default(z.string(), 'workspace') }),
    response: VSCodeUrlResponse,
    errors: [404],
    handle: (input, context) =>
      // The local agent server's editor runs on its machine, made when none runs yet.
      onHostSandbox(
        input,
        context,
        (state, sandbox) => ({ url: vscodeUrl(state, sandbox, input.query.workspace_dir, input.query.base_url) }),
        { create: true },
      ),
  }),
  defineRoute({
    method: 'GET',
    path: '/api/vscode/status',
    summary: 'Whether VS Code runs (vscode_router.py, get_vscode_status)',
    response: z.record(z.string(), z.union([z.boolean(), z.string()])),
    errors: [404],
    handle: (input, context) => onHostSandbox(input, context, () => ({ running: true, enabled: true }), { create: true }),
  }),
  defineRoute({
    method: 'GET',
    path: EDITOR_PATH,
    summary: "The fake's editor page, where a sandbox's VS Code URL leads (?tkn=&folder=): 403 for a token no sandbox has",
    public: true,
    internal: true,
    query: z.object({ tkn: z.optional(z.string()), folder: z._default(z.string(), '') }),
    response: z.string(),
    errors: [403],
    handle: (input, context) =>
      context.runner.run((state) => {
        const sandbox = editorSandbox(state, input.query.tkn);
        return isRefusal(sandbox) ? sandbox : editorPage(sandbox.id, input.query.folder);
      }),
  }),
]);
