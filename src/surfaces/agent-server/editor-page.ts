/**
 * The page the agent host answers where a sandbox's VS Code would be (`domain/agent/editor.ts`):
 * a few lines saying it is the fake's editor, so the web app's VS Code tab shows something true
 * instead of a dead port. Plain HTML, no script; what the URL gave (the folder) is escaped.
 */
import { raw, type Answer } from '../../http/responses.js';

const ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
});

/** `text` safe inside HTML text and attribute values. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * The editor page of sandbox `sandboxId` opened on `folder`.
 * @example
 * editorPage('sb-1', '/workspace/project') // 200 text/html: "fakehands' editor ... /workspace/project"
 */
export function editorPage(sandboxId: string, folder: string): Answer {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>fakehands' editor</title>
<style>body{margin:0;height:100vh;display:flex;align-items:center;justify-content:center;background:#1e1e1e;color:#ccc;font:14px system-ui,sans-serif}
main{max-width:34em;line-height:1.5}h1{font-size:18px;color:#fff}code{color:#9cdcfe}</style></head>
<body><main data-testid="fakehands-editor">
<h1>fakehands' editor</h1>
<p>This is where the sandbox's VS Code would be. fakehands, the fake OpenHands server, runs no editor: its agent is scripted and its workspace is derived.</p>
<p>Sandbox <code>${escapeHtml(sandboxId)}</code>, folder <code>${escapeHtml(folder || '/')}</code>.</p>
<p>The workspace's files are in the Changes tab (<code>GET /api/git/changes</code>) and <code>GET /api/file/download?path=</code>.</p>
</main></body></html>
`;
  return raw(200, html, 'text/html; charset=utf-8', {
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  });
}
